import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useUpdateSearchParams, type UpdateOptions } from './search-param';

/**
 * A time range (settings §3): absolute from/to instants, a relative range such as '1h'
 * ('+1h' or 'indefinitely' for future ranges), or a mapped quick range with date-math ends
 * such as 'now-1d/d'.
 */
export type TimeRange =
  | { type: 'absolute'; from: string; to: string; display?: string }
  | { type: 'relative'; range: string; display?: string }
  | { type: 'mapped'; from: string; to: string; display?: string };

export type TimeRangeType = TimeRange['type'];

/** URL parameters of a time range (settings §2.10). */
export const TIME_RANGE_PARAMS = {
  rangeType: 'rangeType',
  display: 'display',
  from: 'from',
  to: 'to',
  range: 'range',
  timeRange: 'timeRange',
} as const;

/** Reads a time range from search parameters; undefined when absent or incomplete. */
export function readTimeRange(params: URLSearchParams): TimeRange | undefined {
  const type = params.get(TIME_RANGE_PARAMS.rangeType);
  const display = params.get(TIME_RANGE_PARAMS.display) ?? undefined;
  const from = params.get(TIME_RANGE_PARAMS.from);
  const to = params.get(TIME_RANGE_PARAMS.to);
  const range = params.get(TIME_RANGE_PARAMS.range);
  if (type === 'relative' && range) return { type, range, display };
  if ((type === 'absolute' || type === 'mapped') && from && to) return { type, from, to, display };
  return undefined;
}

/** Writes a time range into search parameters (undefined removes every time-range parameter). */
export function writeTimeRange(params: URLSearchParams, range: TimeRange | undefined): void {
  for (const name of Object.values(TIME_RANGE_PARAMS)) params.delete(name);
  if (!range) return;
  params.set(TIME_RANGE_PARAMS.rangeType, range.type);
  if (range.display) params.set(TIME_RANGE_PARAMS.display, range.display);
  if (range.type === 'relative') {
    params.set(TIME_RANGE_PARAMS.range, range.range);
  } else {
    params.set(TIME_RANGE_PARAMS.from, range.from);
    params.set(TIME_RANGE_PARAMS.to, range.to);
  }
}

export interface TimeRangeParams {
  timeRange: TimeRange | undefined;
  /** Stores a range; also drops the page index, since the result set changes. */
  setTimeRange(range: TimeRange, options?: UpdateOptions): void;
  /** Removes the range from the URL (the picker's Clear). */
  clearTimeRange(options?: UpdateOptions): void;
}

/** The time range held in the URL (rangeType, display, from, to, range; timeRange is cleared with them). */
export function useTimeRangeParams(): TimeRangeParams {
  const [params] = useSearchParams();
  const update = useUpdateSearchParams();
  const serialized = params.toString();
  // Re-parse only when the query string changes so consumers get a stable object.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const timeRange = useMemo(() => readTimeRange(params), [serialized]);
  const setTimeRange = useCallback(
    (range: TimeRange, options?: UpdateOptions) =>
      update((draft) => {
        writeTimeRange(draft, range);
        draft.delete('pageIndex');
      }, options),
    [update],
  );
  const clearTimeRange = useCallback(
    (options?: UpdateOptions) =>
      update((draft) => {
        writeTimeRange(draft, undefined);
        draft.delete('pageIndex');
      }, options),
    [update],
  );
  return { timeRange, setTimeRange, clearTimeRange };
}
