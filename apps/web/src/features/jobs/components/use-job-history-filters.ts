import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { resolveTimeRange } from '../../../components/time-range-picker/time-range';
import { usePreferences } from '../../../lib/preferences/use-preferences';
import { useUpdateSearchParams } from '../../../lib/url-state/search-param';
import { TABLE_PARAMS } from '../../../lib/url-state/table-params';
import { readTimeRange, writeTimeRange, type TimeRange } from '../../../lib/url-state/time-range-params';
import type { JobHistoryFilters } from '../lib/job-history-query';

/** URL parameters of the filter bar. */
export const FILTER_PARAMS = {
  name: 'name',
  resourceType: 'resourceType',
  status: 'status',
  duration: 'duration',
} as const;

/** Settings §9: the last 2 days unless the URL says otherwise. */
export const DEFAULT_TIME_RANGE: TimeRange = { type: 'relative', range: '2d' };

const MINUTE_MS = 60_000;

export function useJobHistoryFilterState() {
  const [params] = useSearchParams();
  const update = useUpdateSearchParams();
  const serialized = params.toString();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- re-read only when the query string changes
  const timeRange = useMemo(() => readTimeRange(params) ?? DEFAULT_TIME_RANGE, [serialized]);

  /** Settings §2.1: any filter change resets pageIndex and pageSize; '' (All) clears it. */
  const setFilter = useCallback(
    (name: string, value: string) =>
      update((draft) => {
        if (value) draft.set(name, value);
        else draft.delete(name);
        draft.delete(TABLE_PARAMS.pageIndex);
        draft.delete(TABLE_PARAMS.pageSize);
      }),
    [update],
  );
  const setTimeRange = useCallback(
    (range: TimeRange | undefined) =>
      update((draft) => {
        writeTimeRange(draft, range);
        draft.delete(TABLE_PARAMS.pageIndex);
        draft.delete(TABLE_PARAMS.pageSize);
      }),
    [update],
  );
  return { setFilter, timeRange, setTimeRange };
}

/** The current minute, moving on by itself so a relative range keeps following the clock. */
function useCurrentMinute(): number {
  const [minute, setMinute] = useState(() => Math.floor(Date.now() / MINUTE_MS));
  useEffect(() => {
    const timer = window.setInterval(() => setMinute(Math.floor(Date.now() / MINUTE_MS)), MINUTE_MS);
    return () => window.clearInterval(timer);
  }, []);
  return minute;
}

/**
 * The filters for the query. A relative range is resolved at minute precision so the query key
 * stays the same between renders; resolving an invalid mapped range throws, which the page's
 * error boundary shows.
 */
export function useJobHistoryQueryFilters(): JobHistoryFilters {
  const [params] = useSearchParams();
  const { timeRange } = useJobHistoryFilterState();
  const { timezone } = usePreferences();
  const minute = useCurrentMinute();
  const resolved = useMemo(
    () => resolveTimeRange(timeRange, { now: new Date(minute * MINUTE_MS), timezone }),
    [timeRange, minute, timezone],
  );
  return {
    name: params.get(FILTER_PARAMS.name) ?? undefined,
    resourceType: params.get(FILTER_PARAMS.resourceType) ?? undefined,
    status: params.get(FILTER_PARAMS.status) ?? undefined,
    duration: params.get(FILTER_PARAMS.duration) ?? undefined,
    from: resolved?.from,
    to: timeRange.type === 'relative' ? undefined : resolved?.to,
  };
}
