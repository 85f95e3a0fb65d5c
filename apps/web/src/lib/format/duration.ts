import {
  CHECK_DEFAULT_TIME_RANGES,
  HEALTH_TIME_RANGE_MINUTES,
  parseDuration,
  TimeParseError,
  type HealthTimeRange,
} from '@opsdeck/contracts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Formats milliseconds: below 1 s as `Nms`, otherwise as d, h, m and s parts ('1h 2m 3s'),
 * leaving out zero parts and the sub-second remainder. Non-numbers and negatives give ''.
 */
export function formatDuration(milliseconds: number | null | undefined): string {
  if (
    milliseconds === null ||
    milliseconds === undefined ||
    !Number.isFinite(milliseconds) ||
    milliseconds < 0
  ) {
    return '';
  }
  if (milliseconds < SECOND) return `${Math.round(milliseconds)}ms`;
  const parts: string[] = [];
  let rest = Math.floor(milliseconds / SECOND) * SECOND;
  for (const [size, unit] of [
    [DAY, 'd'],
    [HOUR, 'h'],
    [MINUTE, 'm'],
    [SECOND, 's'],
  ] as const) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0) parts.push(`${count}${unit}`);
  }
  return parts.join(' ');
}

/** Minutes of a duration option, or undefined for a value that is not one. */
export function durationOptionMinutes(option: string): number | undefined {
  return Object.hasOwn(HEALTH_TIME_RANGE_MINUTES, option)
    ? HEALTH_TIME_RANGE_MINUTES[option as HealthTimeRange]
    : undefined;
}

/**
 * A check's default time range from the age of its last run in minutes: under 60 min gives 1h,
 * then the first of 3h … 5y the age is under; older runs (or no run) give 5y.
 */
export function defaultTimeRangeForAge(ageMinutes: number | null | undefined): HealthTimeRange {
  if (ageMinutes === null || ageMinutes === undefined || !Number.isFinite(ageMinutes)) return '5y';
  return CHECK_DEFAULT_TIME_RANGES.find((range) => ageMinutes < HEALTH_TIME_RANGE_MINUTES[range]) ?? '5y';
}

/**
 * Parses a refresh interval such as '30s', '5m', '1h', '1d' or '1w' into milliseconds (core §4),
 * in the one duration grammar (`@opsdeck/contracts` `time.ts`). Empty, zero or malformed values
 * give undefined: no auto-refresh.
 */
export function parseIntervalMs(value: string | null | undefined): number | undefined {
  try {
    const milliseconds = parseDuration(value ?? '');
    return milliseconds > 0 ? milliseconds : undefined;
  } catch (error) {
    if (error instanceof TimeParseError) return undefined;
    throw error;
  }
}
