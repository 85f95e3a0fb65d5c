import { relationRowSchemas } from '@opsdeck/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  configListSearch,
  keyValueFilterParams,
  type ConfigListFilters,
  type ConfigListPage,
} from '../lib/catalog-query';
import { fetchCounted, fetchRows } from '../../../lib/data-api';

/** The columns of `configs` the list shows (CONFIG_LIST_SELECT, core §3 "Config item"). */
export const configListItemSchema = relationRowSchemas.configs.pick({
  id: true,
  name: true,
  type: true,
  config_class: true,
  status: true,
  health: true,
  labels: true,
  tags: true,
  namespace: true,
  description: true,
  cost_per_minute: true,
  cost_total_1d: true,
  cost_total_7d: true,
  cost_total_30d: true,
  created_at: true,
  updated_at: true,
  deleted_at: true,
});

/** A row of `configs` as the list shows it; costs (numeric(16,4)) are numbers or text, or null. */
export type ConfigListItem = z.infer<typeof configListItemSchema>;

/** The columns the filter options are read from. */
const itemFilterValuesSchema = relationRowSchemas.configs.pick({
  tags: true,
  labels: true,
  health: true,
  status: true,
});

export const configListQueryOptions = (filters: ConfigListFilters, page: ConfigListPage) => {
  const search = configListSearch(filters, page);
  return queryOptions({
    queryKey: ['catalog-configs', search.toString()],
    queryFn: ({ signal }) =>
      fetchCounted(`/api/db/configs?${search.toString()}`, signal, configListItemSchema),
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
    queryFn: ({ signal }) => fetchRows(`/api/db/configs?${text}`, signal, itemFilterValuesSchema),
    // Core §9: label lists are cached for 60 s.
    staleTime: 60_000,
  });
};
