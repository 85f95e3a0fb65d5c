import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import type { CheckSummary } from '../lib/checks';

export interface CheckStatus {
  time: string;
  duration: number | null;
  status: boolean;
  message?: string | null;
  error?: string | null;
}

export interface CheckWithStatuses extends CheckSummary {
  checkStatuses: CheckStatus[];
}

/** The parts of a `checks` row the summary lacks: canary, severity, next run and spec. */
export interface CheckRow {
  id: string;
  canary_id: string;
  severity: string | null;
  next_runtime: string | null;
  spec: unknown;
}

export const checkStatusesQueryOptions = (checkId: string, timeRange: string) =>
  queryOptions({
    queryKey: ['health', 'check', checkId, timeRange],
    queryFn: async ({ signal }) => {
      const search = new URLSearchParams({ check: checkId, start: timeRange, includeMessages: 'true' });
      const body = await apiFetch<{ checks?: CheckWithStatuses[] }>(`/api/canary/api?${search.toString()}`, {
        signal,
      });
      return body.checks?.[0] ?? null;
    },
    refetchOnWindowFocus: false,
  });

export const useCheckStatuses = (checkId: string, timeRange: string) =>
  useQuery(checkStatusesQueryOptions(checkId, timeRange));

export const checkRowQueryOptions = (checkId: string) =>
  queryOptions({
    queryKey: ['health', 'check-row', checkId],
    queryFn: async ({ signal }) => {
      const search = new URLSearchParams({
        id: `eq.${checkId}`,
        select: 'id,canary_id,severity,next_runtime,spec',
      });
      const rows = await apiFetch<CheckRow[]>(`/api/db/checks?${search.toString()}`, { signal });
      return rows[0] ?? null;
    },
  });

export const useCheckRow = (checkId: string) => useQuery(checkRowQueryOptions(checkId));
