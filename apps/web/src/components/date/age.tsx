import type { DateInput } from '../../lib/format/dayjs';
import type { DateTimeFormat } from '../../lib/format/date';
import { useDateFormatter } from '../../lib/preferences/use-preferences';

export interface AgeProps {
  value: DateInput | null | undefined;
  /** Reference instant; defaults to the current time. */
  now?: DateInput;
  className?: string;
}

/** An age such as '3h' whose tooltip is the full timestamp in the user's zone (settings §9). */
export function Age({ value, now, className }: AgeProps) {
  const { formatAge } = useDateFormatter();
  const age = formatAge(value, now);
  if (!age.text) return null;
  return (
    <time dateTime={age.iso} title={age.title} className={className}>
      {age.text}
    </time>
  );
}

export interface FormattedDateProps {
  value: DateInput | null | undefined;
  /** Overrides the user's Date/Time Format preference. */
  format?: DateTimeFormat;
  className?: string;
}

/** A date in the user's Date/Time Format and Timezone, with the full timestamp as tooltip. */
export function FormattedDate({ value, format, className }: FormattedDateProps) {
  const { formatDate, formatAge } = useDateFormatter();
  const text = formatDate(value, format ? { format } : undefined);
  if (!text) return null;
  const { iso, title } = formatAge(value);
  return (
    <time dateTime={iso} title={title} className={className}>
      {text}
    </time>
  );
}
