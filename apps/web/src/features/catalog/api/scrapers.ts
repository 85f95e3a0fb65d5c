import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../../../lib/api-client';
import type { JsonSchema } from '../../../components/code-editor/json-schema';
import { resourceJobsQueryKey } from '../../../components/job-history-table/resource-jobs';
import type { ConfigListPage } from '../lib/catalog-query';
import { fetchCounted, fetchRows } from '../../../lib/data-api';

/** A row of `config_scrapers_with_status`: the scraper and the outcome of its last run. */
export interface ScraperRow {
  id: string;
  name: string;
  namespace: string;
  schedule: string | null;
  source: string;
  spec: Record<string, unknown> | null;
  labels: Record<string, string> | null;
  created_at: string;
  updated_at: string;
  job_status: string | null;
  job_time_start: string | null;
  job_success_count: number | null;
  job_error_count: number | null;
  job_details: { errors?: unknown } | null;
}

/** Columns the scraper list sorts by. */
export const SCRAPER_SORTABLE_COLUMNS = [
  'name',
  'namespace',
  'schedule',
  'source',
  'job_time_start',
  'updated_at',
];

export function scraperListSearch(page: ConfigListPage): URLSearchParams {
  const sortBy = SCRAPER_SORTABLE_COLUMNS.includes(page.sortBy ?? '') ? page.sortBy : undefined;
  return new URLSearchParams({
    select:
      'id,name,namespace,schedule,source,spec,labels,created_at,updated_at,job_status,job_time_start,job_success_count,job_error_count,job_details',
    deleted_at: 'is.null',
    order: sortBy ? `${sortBy}.${page.sortOrder}.nullslast,id.asc` : 'name.asc,id.asc',
    limit: String(page.pageSize),
    offset: String(page.pageIndex * page.pageSize),
  });
}

export const scraperListQueryOptions = (page: ConfigListPage) => {
  const search = scraperListSearch(page);
  return queryOptions({
    queryKey: ['catalog-scrapers', search.toString()],
    queryFn: ({ signal }) =>
      fetchCounted<ScraperRow>(`/api/db/config_scrapers_with_status?${search.toString()}`, signal),
    placeholderData: keepPreviousData,
  });
};

export const useScraperList = (page: ConfigListPage) => useQuery(scraperListQueryOptions(page));

export interface ScraperDetail {
  id: string;
  name: string;
  namespace: string;
  labels: Record<string, string> | null;
  spec: Record<string, unknown>;
  source: string;
  schedule: string | null;
  created_at: string;
  updated_at: string;
}

export const scraperQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['catalog-scraper', id],
    queryFn: async ({ signal }) => {
      const search = new URLSearchParams({
        select: 'id,name,namespace,labels,spec,source,schedule,created_at,updated_at',
        id: `eq.${id}`,
        deleted_at: 'is.null',
      });
      const rows = await fetchRows<ScraperDetail>(`/api/db/config_scrapers?${search.toString()}`, signal);
      if (!rows[0]) throw new ApiError(404, 'No details found', undefined);
      return rows[0];
    },
  });

export const useScraper = (id: string, enabled: boolean) => useQuery({ ...scraperQueryOptions(id), enabled });

/** The ScrapeConfig JSON Schema the server serves for editors. */
export const useScrapeConfigSchema = () =>
  useQuery({
    queryKey: ['schema', 'scrapeconfig'],
    staleTime: 300_000,
    queryFn: ({ signal }) => apiFetch<JsonSchema>('/api/schemas/scrapeconfig.schema.json', { signal }),
  });

export interface ScraperInput {
  name?: string;
  namespace?: string;
  labels: Record<string, string>;
  spec: unknown;
}

/** Saves through the catalog API, which refuses broken JSONPaths and expressions with the field path. */
export function useSaveScraper(id: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ScraperInput) =>
      id
        ? apiFetch<ScraperDetail>(`/api/catalog/scrapers/${encodeURIComponent(id)}`, {
            method: 'PUT',
            body: JSON.stringify({ spec: input.spec, labels: input.labels }),
          })
        : apiFetch<ScraperDetail>('/api/catalog/scrapers', { method: 'POST', body: JSON.stringify(input) }),
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

export interface RunResult {
  job_id: string;
  status: string;
  errors: string[];
  summary?: Record<string, number>;
}

export function useRunScraper(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiFetch<RunResult>(`/api/catalog/scrapers/${encodeURIComponent(id)}/run`, { method: 'POST' }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: resourceJobsQueryKey(id) });
      void client.invalidateQueries({ queryKey: ['catalog-scrapers'] });
    },
  });
}
