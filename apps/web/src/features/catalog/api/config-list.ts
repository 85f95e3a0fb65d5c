import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  configListSearch,
  keyValueFilterParams,
  type ConfigListFilters,
  type ConfigListPage,
} from '../lib/catalog-query';
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

/**
 * Tags, labels, health and status of the items in view, for the filter options: those of one
 * type, or, without a type (a tag or label group of the summary), those with the chosen tags and
 * labels. At most 1000 items are read.
 */
export const useTypeTagsAndLabels = (
  filters: Pick<ConfigListFilters, 'type' | 'tags' | 'labels' | 'showDeleted'>,
) => {
  const search = new URLSearchParams({ select: 'tags,labels,health,status', limit: '1000' });
  if (filters.type) search.set('type', `eq.${filters.type}`);
  else {
    for (const [name, value] of keyValueFilterParams('tags', filters.tags)) search.append(name, value);
    for (const [name, value] of keyValueFilterParams('labels', filters.labels)) search.append(name, value);
  }
  if (!filters.showDeleted) search.set('deleted_at', 'is.null');
  const text = search.toString();
  return useQuery({
    queryKey: ['catalog-type-tags', text],
    queryFn: ({ signal }) =>
      fetchRows<Pick<ConfigListItem, 'tags' | 'labels' | 'health' | 'status'>>(
        `/api/db/configs?${text}`,
        signal,
      ),
    // Core §9: label lists are cached for 60 s.
    staleTime: 60_000,
  });
};
