import {
  checkStatusesResponseSchema,
  relationRowSchemas,
  type CheckStatusRecord,
  type CheckWithStatuses,
} from '@opsdeck/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api-client';
import { fetchRows } from '../../../lib/data-api';

/** A run of a check in the panel's history (`GET /api/canary/api`). */
export type CheckStatus = CheckStatusRecord;
export type { CheckWithStatuses };

/** The parts of a `checks` row the summary lacks: canary, severity, next run and spec. */
const checkRowSchema = relationRowSchemas.checks.pick({
  id: true,
  canary_id: true,
  severity: true,
  next_runtime: true,
  spec: true,
});
export type CheckRow = z.infer<typeof checkRowSchema>;

export const checkStatusesQueryOptions = (checkId: string, timeRange: string) =>
  queryOptions({
    queryKey: ['health', 'check', checkId, timeRange],
    queryFn: async ({ signal }) => {
      const search = new URLSearchParams({ check: checkId, start: timeRange, includeMessages: 'true' });
      const body = await apiFetch(
        `/api/canary/api?${search.toString()}`,
        { signal },
        { schema: checkStatusesResponseSchema },
      );
      return body.checks[0] ?? null;
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
        select: Object.keys(checkRowSchema.shape).join(','),
      });
      const rows = await fetchRows(`/api/db/checks?${search.toString()}`, signal, checkRowSchema);
      return rows[0] ?? null;
    },
  });

export const useCheckRow = (checkId: string) => useQuery(checkRowQueryOptions(checkId));
