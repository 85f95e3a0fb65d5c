import clsx from 'clsx';
import { HEALTH_COLOR_CLASSES, healthColor } from '../../lib/format/health';

export interface StatusBadgeProps {
  /** A health or status word; its colour follows the generic rule (core §4). Empty reads 'unknown'. */
  status: string | null | undefined;
  /** Text after the status, e.g. the last run's age. */
  children?: React.ReactNode;
  className?: string;
}

/**
 * A status as a coloured dot and its word in the same colour, so health reads without relying on
 * colour alone (core §4 colours: red, orange, grey, green).
 */
export function StatusBadge({ status, children, className }: StatusBadgeProps) {
  const word = status?.trim() || 'unknown';
  const color = healthColor(word);
  return (
    <span
      data-color={color}
      className={clsx(
        'inline-flex max-w-full min-w-0 items-center gap-1.5 text-xs font-medium',
        HEALTH_COLOR_CLASSES[color].text,
        className,
      )}
    >
      <span
        aria-hidden
        className={clsx('inline-block size-2 shrink-0 rounded-full', HEALTH_COLOR_CLASSES[color].dot)}
      />
      {/* A long word ends in an ellipsis; the whole word shows on hover. */}
      <span title={word} className="truncate capitalize">
        {word}
      </span>
      {children}
    </span>
  );
}
