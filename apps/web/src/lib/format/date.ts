import { dayjs, toZoned, type DateInput } from './dayjs';
import { isEmptyDate } from './empty-date';
import { formatRelativeTime } from './relative-time';

/** Date patterns named by the spec (settings §9). */
export const TIMESTAMP_FORMAT = 'YYYY-MM-DD HH:mm:ss.SSS';
export const TIME_FORMAT = 'h:mm A';
export const MONTH_DAY_FORMAT = 'MMM DD';
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm';
/** Patterns the medium format is built from. */
export const WEEKDAY_TIME_FORMAT = 'ddd h:mm A';
export const MONTH_DAY_TIME_FORMAT = 'MMM DD h:mm A';
export const MONTH_DAY_YEAR_FORMAT = 'MMM DD, YYYY h:mm A';
/** The full format: every field, with the UTC offset so it is unambiguous. */
export const FULL_FORMAT = 'dddd, MMMM D, YYYY h:mm:ss A Z';

/** The Date/Time Format preference values (settings §2.9); default timestamp. */
export const DATE_TIME_FORMATS = ['short', 'medium', 'full', 'timestamp'] as const;
export type DateTimeFormat = (typeof DATE_TIME_FORMATS)[number];
export const DEFAULT_DATE_TIME_FORMAT: DateTimeFormat = 'timestamp';

export interface DateFormatOptions {
  /** Which of the preference formats to use. Default 'timestamp'. */
  format?: DateTimeFormat;
  /** IANA zone or 'browser' (the default). */
  timezone?: string;
  /** Reference instant for short and medium; defaults to the current time. */
  now?: DateInput;
}

/**
 * Formats a date by the user's Date/Time Format preference. Empty and zero dates give ''.
 * - short: relative ('5m ago');
 * - medium: time only for today, weekday within the week, month-day within the year, else with the year;
 * - full: every field with the offset;
 * - timestamp: YYYY-MM-DD HH:mm:ss.SSS.
 */
export function formatDate(value: DateInput | null | undefined, options: DateFormatOptions = {}): string {
  if (value === null || value === undefined || isEmptyDate(value)) return '';
  const format = options.format ?? DEFAULT_DATE_TIME_FORMAT;
  const at = toZoned(value, options.timezone);
  switch (format) {
    case 'short':
      return formatRelativeTime(value, { now: options.now, withSuffix: true });
    case 'medium': {
      const now = toZoned(options.now ?? new Date(), options.timezone);
      if (at.isSame(now, 'day')) return at.format(TIME_FORMAT);
      if (at.isSame(now, 'week')) return at.format(WEEKDAY_TIME_FORMAT);
      if (at.isSame(now, 'year')) return at.format(MONTH_DAY_TIME_FORMAT);
      return at.format(MONTH_DAY_YEAR_FORMAT);
    }
    case 'full':
      return at.format(FULL_FORMAT);
    case 'timestamp':
      return at.format(TIMESTAMP_FORMAT);
  }
}

/** Formats with an explicit pattern (one of the constants above) in the given zone; '' when empty. */
export function formatDatePattern(
  value: DateInput | null | undefined,
  pattern: string,
  timezone?: string,
): string {
  if (value === null || value === undefined || isEmptyDate(value)) return '';
  return toZoned(value, timezone).format(pattern);
}

/** What an age cell shows: the relative text, and the full timestamp for its tooltip. */
export interface AgeText {
  text: string;
  title: string;
  /** ISO instant for a `<time dateTime>` attribute; '' when empty. */
  iso: string;
}

/** An age such as '3h', with the full timestamp as tooltip value (settings §9). */
export function formatAge(
  value: DateInput | null | undefined,
  options: { now?: DateInput; timezone?: string } = {},
): AgeText {
  if (value === null || value === undefined || isEmptyDate(value)) return { text: '', title: '', iso: '' };
  return {
    text: formatRelativeTime(value, { now: options.now }),
    title: formatDatePattern(value, TIMESTAMP_FORMAT, options.timezone),
    iso: dayjs(value).toISOString(),
  };
}
