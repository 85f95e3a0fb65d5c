import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../../../lib/api-client';
import type { JobDetails } from '../lib/job-details';
import {
  jobHistorySearch,
  totalFromContentRange,
  type JobHistoryFilters,
  type JobHistoryPage,
} from '../lib/job-history-query';

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

export interface JobHistoryResult {
  rows: JobHistoryItem[];
  total: number;
}

async function fetchJobHistory(search: URLSearchParams, signal: AbortSignal): Promise<JobHistoryResult> {
  // apiFetch drops headers; the total comes from Content-Range.
  const response = await fetch(`/api/db/job_histories?${search.toString()}`, {
    credentials: 'same-origin',
    headers: { Accept: 'application/json', Prefer: 'count=exact' },
    signal,
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  if (!response.ok) {
    const message =
      body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string'
        ? (body as { error: string }).error
        : `HTTP ${response.status}`;
    throw new ApiError(response.status, message, body);
  }
  const rows = Array.isArray(body) ? (body as JobHistoryItem[]) : [];
  return { rows, total: totalFromContentRange(response.headers.get('content-range')) ?? rows.length };
}

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
