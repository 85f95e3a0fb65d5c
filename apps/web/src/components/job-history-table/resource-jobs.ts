import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { fetchCounted } from '../../lib/data-api';

/** A row of `job_histories` for one resource (settings §3 "Job history item"). */
export interface ResourceJob {
  id: string;
  name: string;
  status: string;
  time_start: string;
  duration_millis: number | null;
  success_count: number;
  error_count: number;
  details: { errors?: unknown; scrape_summary?: unknown; summary?: unknown } | null;
}

export interface ResourceJobsPage {
  pageIndex: number;
  pageSize: number;
  sortBy?: string;
  sortOrder: 'asc' | 'desc';
}

const SORTABLE = ['time_start', 'name', 'status', 'duration_millis', 'success_count', 'error_count'];

/** The query key of a resource's jobs; invalidate it after a run. */
export const resourceJobsQueryKey = (resourceId: string) => ['resource-jobs', resourceId] as const;

/** The data-API search for one page of a resource's jobs, newest first unless sorted otherwise. */
export function resourceJobsSearch(resourceId: string, page: ResourceJobsPage): URLSearchParams {
  const sortBy = SORTABLE.includes(page.sortBy ?? '') ? page.sortBy : 'time_start';
  return new URLSearchParams({
    select: 'id,name,status,time_start,duration_millis,success_count,error_count,details',
    resource_id: `eq.${resourceId}`,
    order: `${sortBy}.${page.sortBy ? page.sortOrder : 'desc'},id.asc`,
    limit: String(page.pageSize),
    offset: String(page.pageIndex * page.pageSize),
  });
}

export const useResourceJobs = (resourceId: string, page: ResourceJobsPage) =>
  useQuery({
    queryKey: [...resourceJobsQueryKey(resourceId), page],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      fetchCounted<ResourceJob>(
        `/api/db/job_histories?${resourceJobsSearch(resourceId, page).toString()}`,
        signal,
      ),
  });
