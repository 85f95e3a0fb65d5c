import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

export interface RunCheckResult {
  total: number;
  failed: number;
  success: number;
  errors?: string[] | null;
}

/** Run Now: runs the check once, then refreshes the page's summaries and the panel's history. */
export function useRunCheck(checkId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiFetch<RunCheckResult>(`/api/canary/run/check/${encodeURIComponent(checkId)}`, {
        method: 'POST',
        // Fastify refuses an empty body sent as application/json.
        body: '{}',
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['health'] }),
  });
}
