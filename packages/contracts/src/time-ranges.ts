import { z } from 'zod';

/** The health page's and check panel's time ranges (core §9), shortest first; default 1h. */
export const HEALTH_TIME_RANGES = [
  '15m',
  '1h',
  '2h',
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
] as const;
export const healthTimeRangeSchema = z.enum(HEALTH_TIME_RANGES);
export type HealthTimeRange = z.infer<typeof healthTimeRangeSchema>;

export const DEFAULT_HEALTH_TIME_RANGE = '1h' satisfies HealthTimeRange;

/** Minutes of each health time range, as settings §9 "Duration options in minutes" gives them. */
export const HEALTH_TIME_RANGE_MINUTES = {
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
} as const satisfies Record<HealthTimeRange, number>;

/**
 * The ranges a check's default time range is chosen from by its last run's age (core §4: under
 * 60 min 1h, then 3h … 5y): the health ranges without 15m and 2h.
 */
export const CHECK_DEFAULT_TIME_RANGES = healthTimeRangeSchema.exclude(['15m', '2h']).options;

/**
 * The time-range picker's relative presets looking back (settings §9), used by the catalog,
 * job history and every other page with the shared picker. 'M' is months.
 */
export const RELATIVE_TIME_RANGE_PRESETS = [
  '5m',
  '15m',
  '30m',
  '1h',
  '3h',
  '6h',
  '12h',
  '24h',
  '2d',
  '7d',
  '30d',
  '90d',
  '6M',
  '1y',
  '2y',
  '5y',
] as const;
export const relativeTimeRangePresetSchema = z.enum(RELATIVE_TIME_RANGE_PRESETS);
export type RelativeTimeRangePreset = z.infer<typeof relativeTimeRangePresetSchema>;

/** How a picked time range is kept in the URL (`rangeType`, settings §3 "Time range"). */
export const TIME_RANGE_TYPES = ['absolute', 'relative', 'mapped'] as const;
export const timeRangeTypeSchema = z.enum(TIME_RANGE_TYPES);
export type TimeRangeType = z.infer<typeof timeRangeTypeSchema>;
