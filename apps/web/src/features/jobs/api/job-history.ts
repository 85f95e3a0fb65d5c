import { relationRowSchemas } from '@opsdeck/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { fetchCounted, fetchRows, type CountedRows } from '../../../lib/data-api';
import {
  jobHistorySearch,
  jobHistoryItemSchema,
  type JobHistoryFilters,
  type JobHistoryPage,
} from '../lib/job-history-query';

/** A row of `job_histories` as the page shows it (settings §3 "Job history item"). */
export type JobHistoryItem = z.infer<typeof jobHistoryItemSchema>;

export type JobHistoryResult = CountedRows<JobHistoryItem>;

const fetchJobHistory = (search: URLSearchParams, signal: AbortSignal): Promise<JobHistoryResult> =>
  fetchCounted(`/api/db/job_histories?${search.toString()}`, signal, jobHistoryItemSchema);

export const jobHistoryQueryOptions = (filters: JobHistoryFilters, page: JobHistoryPage) => {
  const search = jobHistorySearch(filters, page);
  return queryOptions({
    queryKey: ['job-history', search.toString()],
    queryFn: ({ signal }) => fetchJobHistory(search, signal),
    // The table keeps showing the previous page while the next one loads.
    placeholderData: keepPreviousData,
  });
};

export const useJobHistory = (filters: JobHistoryFilters, page: JobHistoryPage) =>
  useQuery(jobHistoryQueryOptions(filters, page));

/** Options of the Job Name filter. */
export const useJobHistoryNames = () =>
  useQuery({
    queryKey: ['job-history-names'],
    queryFn: async ({ signal }) => {
      const rows = await fetchRows(
        '/api/db/job_history_names?select=name&order=name.asc',
        signal,
        relationRowSchemas.job_history_names,
      );
      return rows.map((row) => row.name);
    },
  });
