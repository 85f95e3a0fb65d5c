import { browserStorage } from '../../lib/preferences/preferences-store';
import type { TimeRange } from '../../lib/url-state/time-range-params';

export type AbsoluteTimeRange = Extract<TimeRange, { type: 'absolute' }>;

/** Recent absolute ranges kept (settings §9). */
export const MAX_RECENT_RANGES = 5;
export const RECENT_RANGES_STORAGE_KEY = 'opsdeck.timeRange.recent';

function isAbsoluteRange(value: unknown): value is AbsoluteTimeRange {
  if (!value || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  return (
    record.type === 'absolute' &&
    typeof record.from === 'string' &&
    typeof record.to === 'string' &&
    (record.display === undefined || typeof record.display === 'string')
  );
}

/** The recent absolute ranges, newest first. */
export function readRecentRanges(storage: Storage | undefined = browserStorage()): AbsoluteTimeRange[] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(RECENT_RANGES_STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isAbsoluteRange).slice(0, MAX_RECENT_RANGES) : [];
  } catch {
    return [];
  }
}

/** Pushes a range to the front of the recent list: deduplicated by its ends, at most 5. */
export function pushRecentRange(
  range: AbsoluteTimeRange,
  storage: Storage | undefined = browserStorage(),
): AbsoluteTimeRange[] {
  const next = [
    range,
    ...readRecentRanges(storage).filter((item) => item.from !== range.from || item.to !== range.to),
  ].slice(0, MAX_RECENT_RANGES);
  try {
    storage?.setItem(RECENT_RANGES_STORAGE_KEY, JSON.stringify(next));
  } catch {
    // Blocked storage only loses the history.
  }
  return next;
}
