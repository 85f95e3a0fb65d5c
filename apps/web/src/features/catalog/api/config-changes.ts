import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { changeFeedBody, type ChangeFeedFilters, type ConfigListPage } from '../lib/catalog-query';
import { fetchRows } from '../../../lib/data-api';

/** A row of POST /api/catalog/changes (core §3 "Config change" plus its item). */
export interface ChangeFeedRow {
  id: string;
  config_id: string;
  name: string | null;
  type: string | null;
  config_class: string | null;
  deleted_at: string | null;
  tags: Record<string, string> | null;
  change_type: string | null;
  severity: string | null;
  source: string | null;
  summary: string | null;
  created_at: string;
  created_by: string | null;
  external_created_by: string | null;
  count: number | null;
}

export interface ChangeFeed {
  summary: Record<string, number>;
  changes: ChangeFeedRow[];
  total: number;
}

export const changeFeedQueryOptions = (filters: ChangeFeedFilters, page: ConfigListPage) => {
  const body = changeFeedBody(filters, page);
  return queryOptions({
    queryKey: ['catalog-changes', body],
    queryFn: ({ signal }) =>
      apiFetch<ChangeFeed>('/api/catalog/changes', { method: 'POST', body: JSON.stringify(body), signal }),
    placeholderData: keepPreviousData,
  });
};

export const useChangeFeed = (filters: ChangeFeedFilters, page: ConfigListPage) =>
  useQuery(changeFeedQueryOptions(filters, page));

/** One change with its diff, patches and details, for the diff viewer. */
export interface ChangeDetail {
  id: string;
  config_id: string;
  change_type: string | null;
  severity: string | null;
  source: string | null;
  summary: string | null;
  diff: string | null;
  patches: unknown;
  details: unknown;
  created_at: string;
  created_by: string | null;
  external_created_by: string | null;
}

export const useChangeDetail = (id: string | undefined) =>
  useQuery({
    queryKey: ['catalog-change', id],
    enabled: Boolean(id),
    queryFn: async ({ signal }) => {
      const search = new URLSearchParams({
        select:
          'id,config_id,change_type,severity,source,summary,diff,patches,details,created_at,created_by,external_created_by',
        id: `eq.${id ?? ''}`,
      });
      const rows = await fetchRows<ChangeDetail>(`/api/db/config_changes?${search.toString()}`, signal);
      return rows[0] ?? null;
    },
  });

/** Options of the feed filters, each cached like label lists (core §9: 60 s). */
export const useChangeFilterOptions = () =>
  useQuery({
    queryKey: ['catalog-change-filter-options'],
    staleTime: 60_000,
    queryFn: async ({ signal }) => {
      const [changeTypes, configTypes, tags] = await Promise.all([
        fetchRows<{ change_type: string }>(
          '/api/db/change_types?select=change_type&order=change_type.asc',
          signal,
        ),
        fetchRows<{ type: string }>('/api/db/config_types?select=type&order=type.asc', signal),
        fetchRows<{ key: string; value: string }>(
          '/api/db/config_tags?select=key,value&order=key.asc,value.asc&limit=500',
          signal,
        ),
      ]);
      return {
        changeTypes: changeTypes.map((row) => row.change_type).filter(Boolean),
        configTypes: configTypes.map((row) => row.type).filter(Boolean),
        tags: tags.map((row) => `${row.key}=${row.value}`),
      };
    },
  });
