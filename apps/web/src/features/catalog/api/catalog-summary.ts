import {
  catalogSummaryResponseSchema,
  catalogSummaryRowSchema,
  relationRowSchemas,
  type CatalogSummaryRow as CatalogSummaryGroup,
} from '@opsdeck/contracts';
import { z } from 'zod';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { catalogSummaryBody } from '../lib/catalog-query';
import { fetchRows } from '../../../lib/data-api';

/** One group of the summary grouped by a tag or label key: the value is under that key. */
export type GroupedSummaryRow = CatalogSummaryGroup;

/** Grouped by config_class and type (the default), each group names both (null when items lack one). */
const classTypeSummarySchema = z.array(
  catalogSummaryRowSchema.extend({ config_class: z.string().nullable(), type: z.string().nullable() }),
);

/** One group of POST /api/catalog/summary grouped by config_class and type. */
export type CatalogSummaryRow = z.infer<typeof classTypeSummarySchema>[number];

const summaryRequest = (showDeleted: boolean, groupKey: string | undefined, signal: AbortSignal) =>
  [
    '/api/catalog/summary',
    {
      method: 'POST',
      body: JSON.stringify(catalogSummaryBody(showDeleted, groupKey)),
      headers: { 'Content-Type': 'application/json' },
      signal,
    },
  ] as const;

export const catalogSummaryQueryOptions = (showDeleted: boolean) =>
  queryOptions({
    queryKey: ['catalog-summary', showDeleted, ''],
    queryFn: ({ signal }) =>
      apiFetch(...summaryRequest(showDeleted, undefined, signal), { schema: classTypeSummarySchema }),
  });

export const groupedCatalogSummaryQueryOptions = (showDeleted: boolean, groupKey: string) =>
  queryOptions({
    queryKey: ['catalog-summary', showDeleted, groupKey],
    queryFn: ({ signal }) =>
      apiFetch(...summaryRequest(showDeleted, groupKey, signal), { schema: catalogSummaryResponseSchema }),
  });

export const useCatalogSummary = (showDeleted: boolean) => useQuery(catalogSummaryQueryOptions(showDeleted));

export const useGroupedCatalogSummary = (showDeleted: boolean, groupKey: string) =>
  useQuery({ ...groupedCatalogSummaryQueryOptions(showDeleted, groupKey), enabled: Boolean(groupKey) });

/** The tag and label keys items carry (`tag:<key>`, `label:<key>`), for the Group By choice. */
export const useTagAndLabelKeys = () =>
  useQuery({
    queryKey: ['catalog-tag-label-keys'],
    queryFn: ({ signal }) =>
      fetchRows(
        '/api/db/config_tags_labels_keys?select=key&order=key.asc',
        signal,
        relationRowSchemas.config_tags_labels_keys,
      ),
    select: (rows) => rows.flatMap((row) => (row.key ? [row.key] : [])),
    // Core §9: label lists are cached for 60 s.
    staleTime: 60_000,
  });
