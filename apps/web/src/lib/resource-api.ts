import { resourceSpecJsonSchemaSchema } from '@opsdeck/contracts';
import { useQuery } from '@tanstack/react-query';
import type { JsonSchema } from '../components/code-editor/json-schema';
import { apiFetch, type ResponseSchema } from './api-client';
import { fetchRows } from './data-api';

/**
 * What the settings resources' API hooks (canaries, scrapers, log backends, incident rules) had
 * each written for themselves: one list page's data-API query, one row by id, the spec's JSON
 * Schema for the YAML editor, and whether a row belongs to a file.
 */

/** One page of a server-paged list, as `useDataTableState` gives it. */
export interface ResourceListPage {
  pageIndex: number;
  pageSize: number;
  sortBy?: string;
  sortOrder: 'asc' | 'desc';
}

export interface ResourceListQuery {
  /** The columns to read (a row schema's keys). */
  columns: readonly string[];
  /** Columns the list may sort by; any other `sortBy` falls back to `defaultOrder`. */
  sortable: readonly string[];
  /** The order without a (known) sort column; ends with `id` so pages neither skip nor repeat. */
  defaultOrder: string;
  /** Most rows a page asks for (settings lists: 100, core §9). */
  maxPageSize?: number;
}

/**
 * The data-API search of one list page: live rows only (`deleted_at is null`), sorted by a known
 * column (nulls last, then id) or the default order, `limit` and `offset` from the page.
 */
export function resourceListSearch(query: ResourceListQuery, page: ResourceListPage): URLSearchParams {
  const sortBy = page.sortBy && query.sortable.includes(page.sortBy) ? page.sortBy : undefined;
  const pageSize = query.maxPageSize ? Math.min(page.pageSize, query.maxPageSize) : page.pageSize;
  return new URLSearchParams({
    select: query.columns.join(','),
    deleted_at: 'is.null',
    order: sortBy ? `${sortBy}.${page.sortOrder}.nullslast,id.asc` : query.defaultOrder,
    limit: String(pageSize),
    offset: String(page.pageIndex * page.pageSize),
  });
}

/** One live row of a data-API relation by id, or null when there is none (deleted or never was). */
export async function fetchLiveRow<T>(
  relation: string,
  id: string,
  signal: AbortSignal,
  schema: ResponseSchema<T> & { shape: Record<string, unknown> },
): Promise<T | null> {
  const search = new URLSearchParams({
    select: Object.keys(schema.shape).join(','),
    id: `eq.${id}`,
    deleted_at: 'is.null',
  });
  const [row] = await fetchRows(`/api/db/${relation}?${search.toString()}`, signal, schema);
  return row ?? null;
}

/** The query key of a spec's JSON Schema (`/api/schemas/{file}.schema.json`). */
export const specSchemaQueryKey = (file: string) => ['schema', file] as const;

/** The JSON Schema the server serves for a resource's spec, for the YAML editor's checks. */
export const useSpecSchema = (file: string) =>
  useQuery({
    queryKey: specSchemaQueryKey(file),
    staleTime: 300_000,
    queryFn: ({ signal }): Promise<JsonSchema> =>
      apiFetch(
        `/api/schemas/${encodeURIComponent(file)}.schema.json`,
        { signal },
        { schema: resourceSpecJsonSchemaSchema },
      ),
  });

/**
 * Rows that came from a watched file or `opsdeck apply` belong to that file; the server refuses
 * UI edits to them (409), so editors show them read-only. UI rows and demo rows are editable.
 */
export function isFileOwned(source: string | null | undefined): boolean {
  return Boolean(source) && source !== 'UI' && !source?.startsWith('demo/');
}
