import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

// Plugins are registered once here so every formatter sees the same configured instance.
dayjs.extend(utc);
dayjs.extend(timezone);

/** A value the formatters accept as a point in time. */
export type DateInput = string | number | Date | dayjs.Dayjs;

/** Time zone preference value meaning "whatever the browser uses". */
export const BROWSER_TIMEZONE = 'browser';

/** Parses a value and moves it into the given zone (`'browser'` or undefined keeps the local zone). */
export function toZoned(value: DateInput, timezone?: string): dayjs.Dayjs {
  const parsed = dayjs(value);
  if (!timezone || timezone === BROWSER_TIMEZONE || !parsed.isValid()) return parsed;
  return parsed.tz(timezone);
}

export { dayjs };
