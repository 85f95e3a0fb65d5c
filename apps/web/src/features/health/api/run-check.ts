import { runCheckResponseSchema, type RunCheckResponse } from '@opsdeck/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** What Run Now answers: how many checks ran, passed and failed, and why they failed. */
export type RunCheckResult = RunCheckResponse;

/** Run Now: runs the check once, then refreshes the page's summaries and the panel's history. */
export function useRunCheck(checkId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiFetch(
        `/api/canary/run/check/${encodeURIComponent(checkId)}`,
        {
          method: 'POST',
          // Fastify refuses an empty body sent as application/json.
          body: '{}',
        },
        { schema: runCheckResponseSchema },
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: ['health'] }),
  });
}
