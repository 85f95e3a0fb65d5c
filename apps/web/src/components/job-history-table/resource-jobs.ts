import { relationRowSchemas } from '@opsdeck/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { fetchCounted } from '../../lib/data-api';

/** The columns of a `job_histories` row the job history table shows (settings §3 "Job history item"). */
const resourceJobSchema = relationRowSchemas.job_histories.pick({
  id: true,
  name: true,
  status: true,
  time_start: true,
  duration_millis: true,
  success_count: true,
  error_count: true,
  details: true,
});
export type ResourceJob = z.infer<typeof resourceJobSchema>;

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
    select: Object.keys(resourceJobSchema.shape).join(','),
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
      fetchCounted(
        `/api/db/job_histories?${resourceJobsSearch(resourceId, page).toString()}`,
        signal,
        resourceJobSchema,
      ),
  });
