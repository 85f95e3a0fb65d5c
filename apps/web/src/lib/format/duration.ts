import { parseDuration, TimeParseError } from '@opsdeck/contracts';

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

/** Duration options in minutes (settings §9). */
export const DURATION_OPTIONS_MINUTES = {
  '15m': 15,
  '1h': 60,
  '2h': 120,
  '3h': 180,
  '6h': 360,
  '12h': 720,
  '1d': 1440,
  '2d': 2880,
  '3d': 4320,
  '1w': 10080,
  '2w': 20160,
  '3w': 30240,
  '1mo': 43200,
  '2mo': 86400,
  '3mo': 129600,
  '6mo': 259200,
  '1y': 518400,
  '2y': 1036800,
  '3y': 1555200,
  '5y': 2592000,
} as const satisfies Record<string, number>;
export type DurationOption = keyof typeof DURATION_OPTIONS_MINUTES;

/** Health time range options, in display order (core §9); the default is 1h. */
export const HEALTH_TIME_RANGE_OPTIONS = Object.keys(DURATION_OPTIONS_MINUTES) as DurationOption[];
export const DEFAULT_HEALTH_TIME_RANGE: DurationOption = '1h';

/** Minutes of a duration option, or undefined for a value that is not one. */
export function durationOptionMinutes(option: string): number | undefined {
  return Object.hasOwn(DURATION_OPTIONS_MINUTES, option)
    ? DURATION_OPTIONS_MINUTES[option as DurationOption]
    : undefined;
}

/** Candidates for a check's default time range, smallest first (core §4). */
const CHECK_DEFAULT_RANGES: DurationOption[] = [
  '1h',
  '3h',
  '6h',
  '12h',
  '1d',
  '2d',
  '3d',
  '1w',
  '2w',
  '3w',
  '1mo',
  '2mo',
  '3mo',
  '6mo',
  '1y',
  '2y',
  '3y',
  '5y',
];

/**
 * A check's default time range from the age of its last run in minutes: under 60 min gives 1h,
 * then the first of 3h … 5y the age is under; older runs (or no run) give 5y.
 */
export function defaultTimeRangeForAge(ageMinutes: number | null | undefined): DurationOption {
  if (ageMinutes === null || ageMinutes === undefined || !Number.isFinite(ageMinutes)) return '5y';
  return CHECK_DEFAULT_RANGES.find((range) => ageMinutes < DURATION_OPTIONS_MINUTES[range]) ?? '5y';
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
