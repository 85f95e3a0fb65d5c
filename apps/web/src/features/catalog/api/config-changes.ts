import {
  changeSearchResponseSchema,
  relationRowSchemas,
  type ChangeSearchResponse,
  type ChangeSearchRow,
} from '@opsdeck/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiFetch } from '../../../lib/api-client';
import { changeFeedBody, type ChangeFeedFilters, type ConfigListPage } from '../lib/catalog-query';
import { fetchRows } from '../../../lib/data-api';
import { presentValues } from './option-values';

/** A row of POST /api/catalog/changes (core §3 "Config change" plus its item). */
export type ChangeFeedRow = ChangeSearchRow;

export type ChangeFeed = ChangeSearchResponse;

export const changeFeedQueryOptions = (filters: ChangeFeedFilters, page: ConfigListPage) => {
  const body = changeFeedBody(filters, page);
  return queryOptions({
    queryKey: ['catalog-changes', body],
    queryFn: ({ signal }) =>
      apiFetch(
        '/api/catalog/changes',
        { method: 'POST', body: JSON.stringify(body), signal },
        { schema: changeSearchResponseSchema },
      ),
    placeholderData: keepPreviousData,
  });
};

export const useChangeFeed = (filters: ChangeFeedFilters, page: ConfigListPage) =>
  useQuery(changeFeedQueryOptions(filters, page));

/** The columns of a change the diff viewer shows. */
const changeDetailSchema = relationRowSchemas.config_changes.pick({
  id: true,
  config_id: true,
  change_type: true,
  severity: true,
  source: true,
  summary: true,
  diff: true,
  patches: true,
  details: true,
  created_at: true,
  created_by: true,
  external_created_by: true,
});

/** One change with its diff, patches and details, for the diff viewer. */
export type ChangeDetail = z.infer<typeof changeDetailSchema>;

export const useChangeDetail = (id: string | undefined) =>
  useQuery({
    queryKey: ['catalog-change', id],
    enabled: Boolean(id),
    queryFn: async ({ signal }) => {
      const search = new URLSearchParams({
        select: Object.keys(changeDetailSchema.shape).join(','),
        id: `eq.${id ?? ''}`,
      });
      const rows = await fetchRows(`/api/db/config_changes?${search.toString()}`, signal, changeDetailSchema);
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
        fetchRows(
          '/api/db/change_types?select=change_type&order=change_type.asc',
          signal,
          relationRowSchemas.change_types,
        ),
        fetchRows('/api/db/config_types?select=type&order=type.asc', signal, relationRowSchemas.config_types),
        fetchRows(
          '/api/db/config_tags?select=key,value&order=key.asc,value.asc&limit=500',
          signal,
          relationRowSchemas.config_tags,
        ),
      ]);
      return {
        changeTypes: presentValues(changeTypes.map((row) => row.change_type)),
        configTypes: presentValues(configTypes.map((row) => row.type)),
        tags: tags.flatMap((row) => (row.key ? [`${row.key}=${row.value ?? ''}`] : [])),
      };
    },
  });
