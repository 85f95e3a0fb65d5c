import {
  canaryDetailSchema,
  relationRowSchemas,
  type CanaryDetail,
  type CanaryInput as CanaryInputContract,
} from '@opsdeck/contracts';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api-client';
import { fetchCounted } from '../../../lib/data-api';
import { resourceListSearch, useSpecSchema, type ResourceListPage } from '../../../lib/resource-api';

/** The columns of `canaries_with_status` the list shows: the canary and how its checks are doing. */
const canaryRowSchema = relationRowSchemas.canaries_with_status.pick({
  id: true,
  name: true,
  namespace: true,
  schedule: true,
  source: true,
  spec: true,
  labels: true,
  checks: true,
  status: true,
  last_runtime: true,
  updated_at: true,
});
export type CanaryRow = z.infer<typeof canaryRowSchema>;

export type CanaryListPage = ResourceListPage;

/** Columns the list sorts by on the server. */
export const CANARY_SORTABLE_COLUMNS = [
  'name',
  'namespace',
  'status',
  'schedule',
  'source',
  'last_runtime',
  'updated_at',
];

export const canaryListSearch = (page: CanaryListPage): URLSearchParams =>
  resourceListSearch(
    {
      columns: Object.keys(canaryRowSchema.shape),
      sortable: CANARY_SORTABLE_COLUMNS,
      defaultOrder: 'namespace.asc,name.asc,id.asc',
    },
    page,
  );

export const CANARY_LIST_KEY = ['canaries'] as const;

export const useCanaryList = (page: CanaryListPage) => {
  const search = canaryListSearch(page);
  return useQuery({
    queryKey: [...CANARY_LIST_KEY, search.toString()],
    queryFn: ({ signal }) =>
      fetchCounted(`/api/db/canaries_with_status?${search.toString()}`, signal, canaryRowSchema),
    placeholderData: keepPreviousData,
  });
};

/** A canary as the editor API returns it. */
export type { CanaryDetail };

export const canaryQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['canary', id],
    queryFn: ({ signal }) =>
      apiFetch(`/api/canaries/${encodeURIComponent(id)}`, { signal }, { schema: canaryDetailSchema }),
  });

export const useCanary = (id: string, enabled: boolean) => useQuery({ ...canaryQueryOptions(id), enabled });

/** The Canary spec JSON Schema the server generates from its validation. */
export const useCanarySchema = () => useSpecSchema('canary');

/** What the editor saves: name and namespace (fixed once saved), labels and spec. */
export type CanaryInput = Required<Pick<CanaryInputContract, 'name' | 'namespace' | 'labels' | 'spec'>>;

/** Creates (POST) or updates (PUT) through the editor API, which validates like `opsdeck apply`. */
export function useSaveCanary(id: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CanaryInput) =>
      id
        ? apiFetch(
            `/api/canaries/${encodeURIComponent(id)}`,
            {
              method: 'PUT',
              body: JSON.stringify({ labels: input.labels, spec: input.spec } satisfies CanaryInputContract),
            },
            { schema: canaryDetailSchema },
          )
        : apiFetch(
            '/api/canaries',
            { method: 'POST', body: JSON.stringify(input satisfies CanaryInputContract) },
            { schema: canaryDetailSchema },
          ),
    onSuccess: (saved) => {
      client.setQueryData(canaryQueryOptions(saved.id).queryKey, saved);
      void client.invalidateQueries({ queryKey: CANARY_LIST_KEY });
    },
  });
}

/** Soft delete: the server sets deleted_at and retires the canary's checks. */
export function useDeleteCanary(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<unknown>(`/api/canaries/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => {
      client.removeQueries({ queryKey: canaryQueryOptions(id).queryKey });
      void client.invalidateQueries({ queryKey: CANARY_LIST_KEY });
    },
  });
}
