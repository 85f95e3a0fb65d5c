import { viewResultSchema, type ViewResult } from '@opsdeck/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../../../lib/api-client';

/** Core §8: a views call that fails throws the server's 'error' text, else 'HTTP {status}: {text}'. */
export function viewCallError(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  const body = error.body;
  if (body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string')
    return new ApiError(error.status, (body as { error: string }).error, body);
  const text =
    typeof body === 'string' && body !== '' ? body : error.message.replace(/^HTTP \d+$/, '') || 'error';
  return new ApiError(error.status, `HTTP ${error.status}: ${text}`, body);
}

export async function fetchView(
  id: string,
  variables: Record<string, string>,
  options: { refresh?: boolean; signal?: AbortSignal } = {},
): Promise<ViewResult> {
  try {
    return await apiFetch(
      `/api/view/${encodeURIComponent(id)}`,
      {
        method: 'POST',
        body: JSON.stringify({ variables, ...(options.refresh ? { refresh: true } : {}) }),
        signal: options.signal,
      },
      { schema: viewResultSchema },
    );
  } catch (error) {
    throw viewCallError(error);
  }
}

const VIEW_KEY = ['view-result'] as const;

export const viewResultQueryOptions = (id: string, variables: Record<string, string>) =>
  queryOptions({
    queryKey: [...VIEW_KEY, id, variables],
    queryFn: ({ signal }) => fetchView(id, variables, { signal }),
    retry: false,
  });

/** `POST /api/view/{id}` with the page's variables. */
export const useViewResult = (id: string, variables: Record<string, string>, enabled = true) =>
  useQuery({ ...viewResultQueryOptions(id, variables), enabled: enabled && id !== '' });

/** The refresh button: asks the server to refresh now (it refuses rows younger than minAge). */
export function useRefreshView(id: string, variables: Record<string, string>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => fetchView(id, variables, { refresh: true }),
    onSuccess: async (result) => {
      client.setQueryData(viewResultQueryOptions(id, variables).queryKey, result);
      await client.invalidateQueries({ queryKey: ['view-rows', result.table] });
    },
  });
}
