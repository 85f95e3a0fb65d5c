import {
  relationRowSchemas,
  savedScraperSchema,
  scraperRunResponseSchema,
  type ScraperCreateRequest,
  type ScraperRunResponse,
} from '@opsdeck/contracts';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { ApiError, apiFetch } from '../../../lib/api-client';
import { resourceJobsQueryKey } from '../../../components/job-history-table/resource-jobs';
import type { ConfigListPage } from '../lib/catalog-query';
import { fetchCounted } from '../../../lib/data-api';
import { fetchLiveRow, resourceListSearch, useSpecSchema } from '../../../lib/resource-api';

/** The columns of `config_scrapers_with_status` the scraper list shows. */
const scraperRowSchema = relationRowSchemas.config_scrapers_with_status.pick({
  id: true,
  name: true,
  namespace: true,
  schedule: true,
  source: true,
  spec: true,
  labels: true,
  created_at: true,
  updated_at: true,
  job_status: true,
  job_time_start: true,
  job_success_count: true,
  job_error_count: true,
  job_details: true,
});

/** A row of `config_scrapers_with_status`: the scraper and the outcome of its last run. */
export type ScraperRow = z.infer<typeof scraperRowSchema>;

/** Columns the scraper list sorts by. */
export const SCRAPER_SORTABLE_COLUMNS = [
  'name',
  'namespace',
  'schedule',
  'source',
  'job_time_start',
  'updated_at',
];

export const scraperListSearch = (page: ConfigListPage): URLSearchParams =>
  resourceListSearch(
    {
      columns: Object.keys(scraperRowSchema.shape),
      sortable: SCRAPER_SORTABLE_COLUMNS,
      defaultOrder: 'name.asc,id.asc',
    },
    page,
  );

export const scraperListQueryOptions = (page: ConfigListPage) => {
  const search = scraperListSearch(page);
  return queryOptions({
    queryKey: ['catalog-scrapers', search.toString()],
    queryFn: ({ signal }) =>
      fetchCounted(`/api/db/config_scrapers_with_status?${search.toString()}`, signal, scraperRowSchema),
    placeholderData: keepPreviousData,
  });
};

export const useScraperList = (page: ConfigListPage) => useQuery(scraperListQueryOptions(page));

/** The columns of `config_scrapers` the editor loads. */
const scraperDetailSchema = relationRowSchemas.config_scrapers.pick({
  id: true,
  name: true,
  namespace: true,
  labels: true,
  spec: true,
  source: true,
  schedule: true,
  created_at: true,
  updated_at: true,
});

export type ScraperDetail = z.infer<typeof scraperDetailSchema>;

export const scraperQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['catalog-scraper', id],
    queryFn: async ({ signal }) => {
      const row = await fetchLiveRow('config_scrapers', id, signal, scraperDetailSchema);
      if (!row) throw new ApiError(404, 'No details found', undefined);
      return row;
    },
  });

export const useScraper = (id: string, enabled: boolean) => useQuery({ ...scraperQueryOptions(id), enabled });

/** The ScrapeConfig JSON Schema the server serves for editors. */
export const useScrapeConfigSchema = () => useSpecSchema('scrapeconfig');

/** What the editor saves: a new scraper's name and namespace, and its labels and spec. */
export type ScraperInput = Omit<ScraperCreateRequest, 'name' | 'labels' | 'spec'> & {
  name?: string;
  labels: Record<string, string>;
  spec: unknown;
};

/** Saves through the catalog API, which refuses broken JSONPaths and expressions with the field path. */
export function useSaveScraper(id: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ScraperInput) =>
      id
        ? apiFetch(
            `/api/catalog/scrapers/${encodeURIComponent(id)}`,
            { method: 'PUT', body: JSON.stringify({ spec: input.spec, labels: input.labels }) },
            { schema: savedScraperSchema },
          )
        : apiFetch(
            '/api/catalog/scrapers',
            { method: 'POST', body: JSON.stringify(input) },
            { schema: savedScraperSchema },
          ),
    onSuccess: (saved) => {
      client.setQueryData(scraperQueryOptions(saved.id).queryKey, (previous) =>
        previous ? { ...previous, ...saved } : previous,
      );
      void client.invalidateQueries({ queryKey: ['catalog-scrapers'] });
    },
  });
}

/** Soft delete (core §4: deleted_at set to now). */
export function useDeleteScraper(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiFetch<unknown>(`/api/db/config_scrapers?id=eq.${encodeURIComponent(id)}`, {
        method: 'PATCH',
        body: JSON.stringify({ deleted_at: 'now()' }),
        headers: { Prefer: 'return=minimal' },
      }),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['catalog-scrapers'] }),
  });
}

export type RunResult = ScraperRunResponse;

export function useRunScraper(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiFetch(
        `/api/catalog/scrapers/${encodeURIComponent(id)}/run`,
        { method: 'POST' },
        { schema: scraperRunResponseSchema },
      ),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: resourceJobsQueryKey(id) });
      void client.invalidateQueries({ queryKey: ['catalog-scrapers'] });
    },
  });
}
