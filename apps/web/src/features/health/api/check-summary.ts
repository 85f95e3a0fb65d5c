import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { checkSummaryResponseSchema } from '@opsdeck/contracts';
import { apiFetch } from '../../../lib/api-client';

/** Check summaries for the health page over a time range such as '1h'. */
export const checkSummaryQueryOptions = (timeRange: string) =>
  queryOptions({
    queryKey: ['health', 'summary', timeRange],
    // React Query aborts the request in flight when a new one starts (core §4).
    queryFn: async ({ signal }) => {
      // Parsed: a summary that drifted from the contract fails here, naming the field, instead
      // of rendering wrong health.
      const body = await apiFetch(
        `/api/canary/api/summary?start=${encodeURIComponent(timeRange)}`,
        { signal },
        { schema: checkSummaryResponseSchema },
      );
      return body.checks_summary;
    },
    // Later refreshes replace the data silently: no skeleton after the first load.
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: false,
  });

/** `refreshMs`: the user's auto-refresh interval; undefined means no auto-refresh (core §4). */
export const useCheckSummary = (timeRange: string, refreshMs?: number) =>
  useQuery({ ...checkSummaryQueryOptions(timeRange), refetchInterval: refreshMs ?? false });
