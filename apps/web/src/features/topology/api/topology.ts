import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  componentChangeSchema,
  componentInsightSchema,
  topologyResponseSchema,
  topologyRunResponseSchema,
  type TopologyQuery,
} from '@opsdeck/contracts';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api-client';
import { fetchRows } from '../../../lib/data-api';

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

/** The newest rows of a per-component view (`analysis_by_component`, `changes_by_component`). */
async function componentRows<T>(
  view: string,
  id: string,
  order: string,
  schema: z.ZodType<T> & { shape: Record<string, unknown> },
  signal: AbortSignal,
): Promise<T[]> {
  const search = new URLSearchParams({
    select: Object.keys(schema.shape).join(','),
    component_id: `eq.${id}`,
    order: `${order}.desc.nullslast`,
    limit: String(COMPONENT_ROWS_LIMIT),
  });
  return await fetchRows(`/api/db/${view}?${search.toString()}`, signal, schema);
}

/** How many insights and changes the component page lists (the newest). */
export const COMPONENT_ROWS_LIMIT = 20;

/** Insights on the configs linked to a component (its page's Insights card). */
export const useComponentInsights = (id: string) =>
  useQuery({
    queryKey: ['component-insights', id],
    enabled: id !== '',
    queryFn: ({ signal }) =>
      componentRows('analysis_by_component', id, 'last_observed', componentInsightSchema, signal),
  });

/** Changes of the configs linked to a component (its page's Changes card). */
export const useComponentChanges = (id: string) =>
  useQuery({
    queryKey: ['component-changes', id],
    enabled: id !== '',
    queryFn: ({ signal }) =>
      componentRows('changes_by_component', id, 'created_at', componentChangeSchema, signal),
  });
