import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  connectionSchema,
  connectionTestResultSchema,
  type ConnectionInput,
  type ConnectionTestResult,
} from '@opsdeck/contracts';
import { z } from 'zod';
import { apiFetch } from '../../../lib/api-client';

/** `/api/connections` (settings §3, §7): answers parsed with the contracts' schemas. */
export const CONNECTIONS_QUERY_KEY = ['connections'] as const;

export const connectionsQueryOptions = () =>
  queryOptions({
    queryKey: CONNECTIONS_QUERY_KEY,
    queryFn: ({ signal }) => apiFetch('/api/connections', { signal }, { schema: z.array(connectionSchema) }),
  });

export const connectionQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...CONNECTIONS_QUERY_KEY, id],
    queryFn: ({ signal }) =>
      apiFetch(`/api/connections/${encodeURIComponent(id)}`, { signal }, { schema: connectionSchema }),
  });

export function useSaveConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: ConnectionInput }) =>
      apiFetch(
        id ? `/api/connections/${encodeURIComponent(id)}` : '/api/connections',
        { method: id ? 'PUT' : 'POST', body: JSON.stringify(input) },
        { schema: connectionSchema },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CONNECTIONS_QUERY_KEY }),
  });
}

export function useDeleteConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch(`/api/connections/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CONNECTIONS_QUERY_KEY }),
  });
}

/** Tests the form's connection, saved (`id`) or not: values sent back masked use the stored ones. */
export function useTestConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: ConnectionInput }): Promise<ConnectionTestResult> =>
      apiFetch(
        '/api/connection/test',
        { method: 'POST', body: JSON.stringify({ ...input, ...(id ? { id } : {}) }) },
        { schema: connectionTestResultSchema },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CONNECTIONS_QUERY_KEY }),
  });
}

/** Tests a saved connection (`POST /api/connection/test/{id}`); the list's health colour follows. */
export function useTestSavedConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch(
        `/api/connection/test/${encodeURIComponent(id)}`,
        { method: 'POST' },
        { schema: connectionTestResultSchema },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CONNECTIONS_QUERY_KEY }),
  });
}
