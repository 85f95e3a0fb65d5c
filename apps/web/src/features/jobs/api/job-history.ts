import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { fetchCounted, type CountedRows } from '../../../lib/data-api';
import type { JobDetails } from '../../../components/job-history-table/job-details';
import { jobHistorySearch, type JobHistoryFilters, type JobHistoryPage } from '../lib/job-history-query';

/** A row of `job_histories` (settings §3 "Job history item"). */
export interface JobHistoryItem {
  id: string;
  name: string;
  agent_id: string | null;
  agent: { id: string | null; name: string | null } | null;
  resource_id: string | null;
  resource_type: string | null;
  resource_name: string | null;
  status: string;
  time_start: string;
  duration_millis: number | null;
  success_count: number;
  error_count: number;
  details: JobDetails | null;
}

export type JobHistoryResult = CountedRows<JobHistoryItem>;

const fetchJobHistory = (search: URLSearchParams, signal: AbortSignal): Promise<JobHistoryResult> =>
  fetchCounted<JobHistoryItem>(`/api/db/job_histories?${search.toString()}`, signal);

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
    queryFn: async () => {
      const rows = await apiFetch<{ name: string }[]>('/api/db/job_history_names?select=name&order=name.asc');
      return rows.map((row) => row.name);
    },
  });
