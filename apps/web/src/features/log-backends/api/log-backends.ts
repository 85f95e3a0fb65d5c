import { relationRowSchemas } from '@opsdeck/contracts';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { fetchCounted, insertRow, updateRow } from '../../../lib/data-api';
import {
  fetchLiveRow,
  resourceListSearch,
  useSpecSchema,
  type ResourceListPage,
} from '../../../lib/resource-api';

const logBackendRowSchema = relationRowSchemas.logging_backends.pick({
  id: true,
  name: true,
  namespace: true,
  labels: true,
  spec: true,
  source: true,
  created_at: true,
  updated_at: true,
});
export type LogBackendRow = z.infer<typeof logBackendRowSchema>;

const SORTABLE = ['name', 'namespace', 'source', 'created_at', 'updated_at'];

export type LogBackendListPage = ResourceListPage;

/** Settings lists: at most 100 rows a page, newest first by default (core §9). */
export const logBackendListSearch = (page: LogBackendListPage): URLSearchParams =>
  resourceListSearch(
    {
      columns: Object.keys(logBackendRowSchema.shape),
      sortable: SORTABLE,
      defaultOrder: 'created_at.desc,id.asc',
      maxPageSize: 100,
    },
    page,
  );

const LIST_KEY = ['logging_backends'] as const;

export const useLogBackendList = (page: LogBackendListPage) => {
  const search = logBackendListSearch(page);
  return useQuery({
    queryKey: [...LIST_KEY, search.toString()],
    queryFn: ({ signal }) =>
      fetchCounted(`/api/db/logging_backends?${search.toString()}`, signal, logBackendRowSchema),
    placeholderData: keepPreviousData,
  });
};

export const logBackendRowQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...LIST_KEY, 'one', id],
    queryFn: ({ signal }) => fetchLiveRow('logging_backends', id, signal, logBackendRowSchema),
  });

export const useLogBackendRow = (id: string, enabled: boolean) =>
  useQuery({ ...logBackendRowQueryOptions(id), enabled });

/** The LoggingBackend spec's JSON Schema, for the YAML editor. */
export const useLogBackendSchema = () => useSpecSchema('logging_backend.spec');

export interface LogBackendInput {
  name: string;
  labels: Record<string, string>;
  spec: Record<string, unknown>;
}

const savedRowSchema = logBackendRowSchema.pick({ id: true, name: true });

/** Add (insert, source UI) or Update (labels and spec) through the logging_backends table. */
export function useSaveLogBackend(id: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: LogBackendInput) => {
      if (id) {
        await updateRow('logging_backends', id, { labels: input.labels, spec: input.spec });
        return { id, name: input.name };
      }
      return insertRow('logging_backends', { ...input, source: 'UI' }, savedRowSchema);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: LIST_KEY }),
  });
}

/** Soft delete, as the other settings resources. */
export function useDeleteLogBackend(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => updateRow('logging_backends', id, { deleted_at: new Date().toISOString() }),
    onSuccess: () => client.invalidateQueries({ queryKey: LIST_KEY }),
  });
}
