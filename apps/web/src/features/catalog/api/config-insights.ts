import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { insightListSearch, type ConfigListPage, type InsightFilters } from '../lib/catalog-query';
import type { ConfigAnalysis } from './config-detail';
import { fetchCounted, fetchRows } from '../../../lib/data-api';

/** A row of `config_analysis_items` with the name of its item. */
export interface InsightRow extends ConfigAnalysis {
  config_id: string;
  config_type: string | null;
  config_class: string | null;
  config_name: string | null;
}

export const insightListQueryOptions = (filters: InsightFilters, page: ConfigListPage) => {
  const search = insightListSearch(filters, page);
  return queryOptions({
    queryKey: ['catalog-insights', search.toString()],
    queryFn: async ({ signal }) => {
      const result = await fetchCounted<Omit<InsightRow, 'config_name'>>(
        `/api/db/config_analysis_items?${search.toString()}`,
        signal,
      );
      const ids = [...new Set(result.rows.map((row) => row.config_id))];
      const names = new Map<string, string | null>();
      if (ids.length > 0) {
        const items = await fetchRows<{ id: string; name: string | null }>(
          `/api/db/config_items?${new URLSearchParams({ select: 'id,name', id: `in.(${ids.join(',')})` }).toString()}`,
          signal,
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
        fetchRows<{ analyzer: string }>(
          '/api/db/config_analysis_analyzers?select=analyzer&order=analyzer.asc',
          signal,
        ),
        fetchRows<{ analysis_type: string }>(
          '/api/db/analysis_types?select=analysis_type&order=analysis_type.asc',
          signal,
        ),
        fetchRows<{ type: string }>('/api/db/config_types?select=type&order=type.asc', signal),
      ]);
      return {
        analyzers: analyzers.map((row) => row.analyzer).filter(Boolean),
        analysisTypes: types.map((row) => row.analysis_type).filter(Boolean),
        configTypes: configTypes.map((row) => row.type).filter(Boolean),
      };
    },
  });
