import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { configListSearch, type ConfigListFilters, type ConfigListPage } from '../lib/catalog-query';
import { fetchCounted, fetchRows } from '../../../lib/data-api';

/** A row of `configs` as the list shows it (core §3 "Config item"). */
export interface ConfigListItem {
  id: string;
  name: string | null;
  type: string | null;
  config_class: string | null;
  status: string | null;
  health: string | null;
  labels: Record<string, string> | null;
  tags: Record<string, string> | null;
  namespace: string | null;
  description: string | null;
  /** numeric(16,4) columns: numbers, or null when the source reports no cost. */
  cost_per_minute: number | string | null;
  cost_total_1d: number | string | null;
  cost_total_7d: number | string | null;
  cost_total_30d: number | string | null;
  created_at: string;
  updated_at: string | null;
  deleted_at: string | null;
}

export const configListQueryOptions = (filters: ConfigListFilters, page: ConfigListPage) => {
  const search = configListSearch(filters, page);
  return queryOptions({
    queryKey: ['catalog-configs', search.toString()],
    queryFn: ({ signal }) => fetchCounted<ConfigListItem>(`/api/db/configs?${search.toString()}`, signal),
    placeholderData: keepPreviousData,
  });
};

export const useConfigList = (filters: ConfigListFilters, page: ConfigListPage) =>
  useQuery(configListQueryOptions(filters, page));

/** Tags and labels of the items of one type, for the filter options. */
export const useTypeTagsAndLabels = (type: string, showDeleted: boolean) =>
  useQuery({
    queryKey: ['catalog-type-tags', type, showDeleted],
    queryFn: ({ signal }) => {
      const search = new URLSearchParams({
        select: 'tags,labels,health,status',
        type: `eq.${type}`,
        limit: '1000',
      });
      if (!showDeleted) search.set('deleted_at', 'is.null');
      return fetchRows<Pick<ConfigListItem, 'tags' | 'labels' | 'health' | 'status'>>(
        `/api/db/configs?${search.toString()}`,
        signal,
      );
    },
    // Core §9: label lists are cached for 60 s.
    staleTime: 60_000,
  });
