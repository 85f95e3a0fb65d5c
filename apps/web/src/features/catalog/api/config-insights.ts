import { relationRowSchemas } from '@opsdeck/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { insightListSearch, type ConfigListPage, type InsightFilters } from '../lib/catalog-query';
import { fetchCounted, fetchRows } from '../../../lib/data-api';
import { presentValues } from './option-values';

/** The columns of `config_analysis_items` the insights list shows (insightListSearch). */
const insightItemSchema = relationRowSchemas.config_analysis_items.pick({
  id: true,
  config_id: true,
  analyzer: true,
  analysis_type: true,
  severity: true,
  status: true,
  summary: true,
  message: true,
  source: true,
  first_observed: true,
  last_observed: true,
  config_type: true,
  config_class: true,
});

/** The name of an insight's item. */
const itemNameSchema = relationRowSchemas.config_items.pick({ id: true, name: true });

/** A row of `config_analysis_items` with the name of its item. */
export type InsightRow = z.infer<typeof insightItemSchema> & { config_name: string | null };

export const insightListQueryOptions = (filters: InsightFilters, page: ConfigListPage) => {
  const search = insightListSearch(filters, page);
  return queryOptions({
    queryKey: ['catalog-insights', search.toString()],
    queryFn: async ({ signal }) => {
      const result = await fetchCounted(
        `/api/db/config_analysis_items?${search.toString()}`,
        signal,
        insightItemSchema,
      );
      const ids = [...new Set(result.rows.map((row) => row.config_id))];
      const names = new Map<string, string | null>();
      if (ids.length > 0) {
        const items = await fetchRows(
          `/api/db/config_items?${new URLSearchParams({ select: 'id,name', id: `in.(${ids.join(',')})` }).toString()}`,
          signal,
          itemNameSchema,
        );
        for (const item of items) names.set(item.id, item.name);
      }
      return {
        total: result.total,
        rows: result.rows.map((row) => ({ ...row, config_name: names.get(row.config_id) ?? null })),
      };
    },
    placeholderData: keepPreviousData,
  });
};

export const useInsightList = (filters: InsightFilters, page: ConfigListPage) =>
  useQuery(insightListQueryOptions(filters, page));

export const useInsightFilterOptions = () =>
  useQuery({
    queryKey: ['catalog-insight-filter-options'],
    staleTime: 60_000,
    queryFn: async ({ signal }) => {
      const [analyzers, types, configTypes] = await Promise.all([
        fetchRows(
          '/api/db/config_analysis_analyzers?select=analyzer&order=analyzer.asc',
          signal,
          relationRowSchemas.config_analysis_analyzers,
        ),
        fetchRows(
          '/api/db/analysis_types?select=analysis_type&order=analysis_type.asc',
          signal,
          relationRowSchemas.analysis_types,
        ),
        fetchRows('/api/db/config_types?select=type&order=type.asc', signal, relationRowSchemas.config_types),
      ]);
      return {
        analyzers: presentValues(analyzers.map((row) => row.analyzer)),
        analysisTypes: presentValues(types.map((row) => row.analysis_type)),
        configTypes: presentValues(configTypes.map((row) => row.type)),
      };
    },
  });
