import {
  SIDEBAR_VIEWS_STALE_TIME_MS,
  resourceSpecJsonSchemaSchema,
  viewListSchema,
  viewSummaryRowSchema,
} from '@opsdeck/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { JsonSchema } from '../../../components/code-editor/json-schema';
import { apiFetch } from '../../../lib/api-client';
import { fetchCounted, fetchRows, insertRow, updateRow } from '../../../lib/data-api';
import { viewCallError } from './run-view';

const LIST_KEY = ['views'] as const;
const SUMMARY_SELECT =
  'id,name,namespace,title,icon,ordinal,sidebar,labels,source,error,last_ran,created_at,updated_at';

/** The sidebar's views: one entry per view flagged for the sidebar, cached 5 min (core §2, §9). */
export const useSidebarViews = (enabled: boolean) =>
  useQuery({
    queryKey: [...LIST_KEY, 'sidebar'],
    staleTime: SIDEBAR_VIEWS_STALE_TIME_MS,
    enabled,
    queryFn: ({ signal }) =>
      fetchRows(
        `/api/db/views_summary?${new URLSearchParams({
          select: SUMMARY_SELECT,
          sidebar: 'eq.true',
          deleted_at: 'is.null',
          order: 'ordinal.asc.nullslast,name.asc',
        }).toString()}`,
        signal,
        viewSummaryRowSchema,
      ),
  });

export interface ViewsListPage {
  pageIndex: number;
  pageSize: number;
  sortBy?: string;
  sortOrder: 'asc' | 'desc';
}

const SORTABLE = ['name', 'namespace', 'title', 'ordinal', 'sidebar', 'source', 'created_at', 'updated_at'];

/** /settings/views: settings lists are capped at 100 rows ordered by created_at descending (core §9). */
export const useViewsList = (page: ViewsListPage) => {
  const sortBy = SORTABLE.includes(page.sortBy ?? '') ? page.sortBy : undefined;
  const pageSize = Math.min(page.pageSize, 100);
  const search = new URLSearchParams({
    select: SUMMARY_SELECT,
    deleted_at: 'is.null',
    order: sortBy ? `${sortBy}.${page.sortOrder}.nullslast,id.asc` : 'created_at.desc,id.asc',
    limit: String(pageSize),
    offset: String(page.pageIndex * pageSize),
  });
  return useQuery({
    queryKey: [...LIST_KEY, 'list', search.toString()],
    queryFn: ({ signal }) =>
      fetchCounted(`/api/db/views_summary?${search.toString()}`, signal, viewSummaryRowSchema),
    placeholderData: keepPreviousData,
  });
};

/** `/view/{namespace}/{name}` and `/view/{name}`: the view's id. */
export const useViewIdByName = (namespace: string | undefined, name: string) =>
  useQuery({
    queryKey: [...LIST_KEY, 'by-name', namespace ?? '', name],
    queryFn: async ({ signal }) => {
      const search = new URLSearchParams({
        select: 'id,namespace',
        name: `eq.${name}`,
        deleted_at: 'is.null',
      });
      if (namespace) search.set('namespace', `eq.${namespace}`);
      search.set('order', 'namespace.asc');
      const rows = await fetchRows(
        `/api/db/views_summary?${search.toString()}`,
        signal,
        viewSummaryRowSchema.pick({ id: true, namespace: true }),
      );
      // Without a namespace, 'default' wins over the others.
      return (rows.find((row) => row.namespace === 'default') ?? rows[0])?.id ?? null;
    },
  });

/** `GET /api/view/list?config_id=`: the views shown as tabs of a config item. */
export const useConfigViews = (configId: string) =>
  useQuery({
    queryKey: [...LIST_KEY, 'config', configId],
    queryFn: async ({ signal }) => {
      try {
        return await apiFetch(
          `/api/view/list?${new URLSearchParams({ config_id: configId }).toString()}`,
          { signal },
          { schema: viewListSchema },
        );
      } catch (error) {
        throw viewCallError(error);
      }
    },
    enabled: configId !== '',
  });

const viewRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  labels: z.record(z.string(), z.string()).nullable(),
  spec: z.record(z.string(), z.unknown()),
  source: z.string().nullable(),
});
export type ViewRow = z.infer<typeof viewRowSchema>;

export const useViewRow = (id: string, enabled: boolean) =>
  useQuery({
    queryKey: [...LIST_KEY, 'one', id],
    enabled,
    queryFn: async ({ signal }) => {
      const search = new URLSearchParams({
        select: 'id,name,namespace,labels,spec,source',
        id: `eq.${id}`,
        deleted_at: 'is.null',
      });
      const [row] = await fetchRows(`/api/db/views?${search.toString()}`, signal, viewRowSchema);
      return row ?? null;
    },
  });

/** The View spec JSON Schema the editor checks the YAML against. */
export const useViewSchema = () =>
  useQuery({
    queryKey: ['schema', 'view.spec'],
    staleTime: 300_000,
    queryFn: async ({ signal }): Promise<JsonSchema> =>
      apiFetch('/api/schemas/view.spec.schema.json', { signal }, { schema: resourceSpecJsonSchemaSchema }),
  });

export interface ViewInput {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  spec: Record<string, unknown>;
}

/** POST / PATCH /views (core §7) through the data API. */
export function useSaveView(id: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: ViewInput) => {
      if (id) {
        await updateRow('views', id, { labels: input.labels, spec: input.spec });
        return { id, name: input.name };
      }
      return insertRow('views', { ...input, source: 'UI' }, viewRowSchema.pick({ id: true, name: true }));
    },
    onSuccess: () => client.invalidateQueries({ queryKey: LIST_KEY }),
  });
}

/** DELETE /views: soft delete; the view's table is dropped by the server's sweep. */
export function useDeleteView(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => updateRow('views', id, { deleted_at: new Date().toISOString() }),
    onSuccess: () => client.invalidateQueries({ queryKey: LIST_KEY }),
  });
}
