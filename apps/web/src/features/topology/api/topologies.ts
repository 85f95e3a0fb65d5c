import { relationRowSchemas, resourceSpecJsonSchemaSchema } from '@opsdeck/contracts';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { JsonSchema } from '../../../components/code-editor/json-schema';
import { apiFetch } from '../../../lib/api-client';
import { fetchCounted, fetchRows, insertRow, updateRow } from '../../../lib/data-api';

/** The columns of `topologies_with_status` the settings list and editor read. */
const topologyRowSchema = relationRowSchemas.topologies_with_status.pick({
  id: true,
  name: true,
  namespace: true,
  labels: true,
  spec: true,
  source: true,
  schedule: true,
  status: true,
  components: true,
  job_status: true,
  job_time_start: true,
  updated_at: true,
});
export type TopologyRow = z.infer<typeof topologyRowSchema>;

export const TOPOLOGY_SORTABLE_COLUMNS = ['name', 'namespace', 'status', 'schedule', 'source', 'updated_at'];

export interface TopologyListPage {
  pageIndex: number;
  pageSize: number;
  sortBy?: string;
  sortOrder: 'asc' | 'desc';
}

export function topologyListSearch(page: TopologyListPage): URLSearchParams {
  const sortBy = TOPOLOGY_SORTABLE_COLUMNS.includes(page.sortBy ?? '') ? page.sortBy : undefined;
  return new URLSearchParams({
    select: Object.keys(topologyRowSchema.shape).join(','),
    deleted_at: 'is.null',
    order: sortBy ? `${sortBy}.${page.sortOrder}.nullslast,id.asc` : 'namespace.asc,name.asc,id.asc',
    limit: String(page.pageSize),
    offset: String(page.pageIndex * page.pageSize),
  });
}

const LIST_KEY = ['topologies'] as const;

export const useTopologyList = (page: TopologyListPage) => {
  const search = topologyListSearch(page);
  return useQuery({
    queryKey: [...LIST_KEY, search.toString()],
    queryFn: ({ signal }) =>
      fetchCounted(`/api/db/topologies_with_status?${search.toString()}`, signal, topologyRowSchema),
    placeholderData: keepPreviousData,
  });
};

export const topologyRowQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...LIST_KEY, 'one', id],
    queryFn: async ({ signal }) => {
      const search = new URLSearchParams({
        select: Object.keys(topologyRowSchema.shape).join(','),
        id: `eq.${id}`,
        deleted_at: 'is.null',
      });
      const [row] = await fetchRows(
        `/api/db/topologies_with_status?${search.toString()}`,
        signal,
        topologyRowSchema,
      );
      return row ?? null;
    },
  });

export const useTopologyRow = (id: string, enabled: boolean) =>
  useQuery({ ...topologyRowQueryOptions(id), enabled });

/** The Topology spec JSON Schema (settings §2.4: the editor checks the YAML against it). */
export const useTopologySchema = () =>
  useQuery({
    queryKey: ['schema', 'topology.spec'],
    staleTime: 300_000,
    queryFn: async ({ signal }): Promise<JsonSchema> =>
      apiFetch(
        '/api/schemas/topology.spec.schema.json',
        { signal },
        { schema: resourceSpecJsonSchemaSchema },
      ),
  });

export interface TopologyInput {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  spec: Record<string, unknown>;
}

const savedRowSchema = relationRowSchemas.topologies_with_status.pick({ id: true, name: true });

/** Settings §3: topologies are created and updated through the topologies table (source 'UI'). */
export function useSaveTopology(id: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: TopologyInput) => {
      if (id) {
        await updateRow('topologies', id, { labels: input.labels, spec: input.spec });
        return { id, name: input.name };
      }
      return insertRow('topologies', { ...input, source: 'UI' }, savedRowSchema);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: LIST_KEY }),
  });
}

/** Soft delete: the topology's schedule stops and its components are marked deleted. */
export function useDeleteTopology(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => updateRow('topologies', id, { deleted_at: new Date().toISOString() }),
    onSuccess: () => client.invalidateQueries({ queryKey: LIST_KEY }),
  });
}
