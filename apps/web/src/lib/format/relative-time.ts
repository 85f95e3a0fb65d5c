import { dayjs, toZoned, type DateInput } from './dayjs';
import { isEmptyDate } from './empty-date';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface RelativeTimeOptions {
  /** Reference instant; defaults to the current time. */
  now?: DateInput;
  /** Adds ' ago' to past values and 'in ' to future ones. Default false (an age such as '5m'). */
  withSuffix?: boolean;
}

/**
 * The compact relative format of the spec (settings §9): seconds as `Ns`, then `1m`, `Nm`, `Nh`,
 * `Nd`, `Nmo`, `Ny`. Units are whole and rounded down, months and years are calendar months.
 * The zero date and unparsable values give ''.
 */
export function formatRelativeTime(
  value: DateInput | null | undefined,
  options: RelativeTimeOptions = {},
): string {
  if (value === null || value === undefined || isEmptyDate(value)) return '';
  const at = dayjs(value);
  const now = dayjs(options.now ?? new Date());
  const future = at.isAfter(now);
  const [earlier, later] = future ? [now, at] : [at, now];
  const elapsed = later.diff(earlier);

  let text: string;
  if (elapsed < MINUTE) text = `${Math.floor(elapsed / SECOND)}s`;
  else if (elapsed < HOUR) text = `${Math.floor(elapsed / MINUTE)}m`;
  else if (elapsed < DAY) text = `${Math.floor(elapsed / HOUR)}h`;
  else {
    const months = later.diff(earlier, 'month');
    if (months < 1) text = `${Math.floor(elapsed / DAY)}d`;
    else if (months < 12) text = `${months}mo`;
    else text = `${later.diff(earlier, 'year')}y`;
  }
  if (!options.withSuffix) return text;
  return future ? `in ${text}` : `${text} ago`;
}

/** Groups used to bucket timelines, newest first (spec settings §9). */
export const TIME_GROUPS = ['today', 'this week', 'this month', 'this year', 'previous year'] as const;
export type TimeGroup = (typeof TIME_GROUPS)[number];

/**
 * The time group of a value, judged by calendar boundaries in the given zone. Values in the
 * future count as today; everything before the current year is 'previous year'.
 */
export function timeGroupOf(
  value: DateInput,
  options: { now?: DateInput; timezone?: string } = {},
): TimeGroup {
  const at = toZoned(value, options.timezone);
  const now = toZoned(options.now ?? new Date(), options.timezone);
  if (!at.isBefore(now.startOf('day'))) return 'today';
  if (!at.isBefore(now.startOf('week'))) return 'this week';
  if (!at.isBefore(now.startOf('month'))) return 'this month';
  if (!at.isBefore(now.startOf('year'))) return 'this year';
  return 'previous year';
}
