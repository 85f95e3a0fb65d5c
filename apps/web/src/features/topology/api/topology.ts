import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { topologyResponseSchema, topologyRunResponseSchema, type TopologyQuery } from '@opsdeck/contracts';
import { apiFetch } from '../../../lib/api-client';

/** The query string of `/api/canary/api/topology`, empty values left out. */
export function topologySearch(query: TopologyQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

export const topologyQueryOptions = (query: TopologyQuery) =>
  queryOptions({
    queryKey: ['topology', query],
    queryFn: async ({ signal }) =>
      apiFetch(
        `/api/canary/api/topology${topologySearch(query)}`,
        { signal },
        { schema: topologyResponseSchema },
      ),
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: false,
  });

export const useTopology = (query: TopologyQuery, enabled = true) =>
  useQuery({ ...topologyQueryOptions(query), enabled });

/** Run Now of a topology: its job's outcome; the component queries refresh after it. */
export function useRunTopology() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch(
        `/api/canary/run/topology/${encodeURIComponent(id)}`,
        { method: 'POST' },
        { schema: topologyRunResponseSchema },
      ),
    onSettled: () => client.invalidateQueries({ queryKey: ['topology'] }),
  });
}

/** Where the snapshot archive of a component downloads from. */
export const snapshotPath = (id: string) => `/api/snapshot/topology/${encodeURIComponent(id)}`;
