import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { catalogSummaryBody } from '../lib/catalog-query';

/** One group of POST /api/catalog/summary grouped by config_class and type. */
export interface CatalogSummaryRow {
  config_class: string | null;
  type: string | null;
  count: number;
  health: Record<string, number>;
  status: Record<string, number>;
}

export const catalogSummaryQueryOptions = (showDeleted: boolean) =>
  queryOptions({
    queryKey: ['catalog-summary', showDeleted],
    queryFn: ({ signal }) =>
      apiFetch<CatalogSummaryRow[]>('/api/catalog/summary', {
        method: 'POST',
        body: JSON.stringify(catalogSummaryBody(showDeleted)),
        headers: { 'Content-Type': 'application/json' },
        signal,
      }),
  });

export const useCatalogSummary = (showDeleted: boolean) => useQuery(catalogSummaryQueryOptions(showDeleted));
