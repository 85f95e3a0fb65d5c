import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { catalogSummaryBody } from '../lib/catalog-query';
import { fetchRows } from '../../../lib/data-api';

/** One group of POST /api/catalog/summary grouped by config_class and type. */
export interface CatalogSummaryRow {
  config_class: string | null;
  type: string | null;
  count: number;
  health: Record<string, number>;
  status: Record<string, number>;
  cost_total_30d?: number | null;
}

/** One group of the summary grouped by a tag or label key: the value is under that key. */
export type GroupedSummaryRow = Omit<CatalogSummaryRow, 'config_class' | 'type'> & Record<string, unknown>;

export const catalogSummaryQueryOptions = (showDeleted: boolean, groupKey?: string) =>
  queryOptions({
    queryKey: ['catalog-summary', showDeleted, groupKey ?? ''],
    queryFn: ({ signal }) =>
      apiFetch<CatalogSummaryRow[]>('/api/catalog/summary', {
        method: 'POST',
        body: JSON.stringify(catalogSummaryBody(showDeleted, groupKey)),
        headers: { 'Content-Type': 'application/json' },
        signal,
      }),
  });

export const useCatalogSummary = (showDeleted: boolean) => useQuery(catalogSummaryQueryOptions(showDeleted));

export const useGroupedCatalogSummary = (showDeleted: boolean, groupKey: string) =>
  useQuery({
    ...catalogSummaryQueryOptions(showDeleted, groupKey),
    enabled: Boolean(groupKey),
    select: (rows) => rows as unknown as GroupedSummaryRow[],
  });

/** The tag and label keys items carry (`tag:<key>`, `label:<key>`), for the Group By choice. */
export const useTagAndLabelKeys = () =>
  useQuery({
    queryKey: ['catalog-tag-label-keys'],
    queryFn: ({ signal }) =>
      fetchRows<{ key: string }>('/api/db/config_tags_labels_keys?select=key&order=key.asc', signal),
    select: (rows) => rows.map((row) => row.key),
    // Core §9: label lists are cached for 60 s.
    staleTime: 60_000,
  });
