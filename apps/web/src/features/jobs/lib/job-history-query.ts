import { relationRowSchemas, type JobStatus } from '@opsdeck/contracts';

/** Resource Type filter options (settings §2.1) and the stored resource types they stand for. */
export const RESOURCE_TYPE_OPTIONS = [
  { label: 'Canary', value: 'canary', types: ['canary'] },
  { label: 'Topology', value: 'topology', types: ['topology'] },
  { label: 'Catalog Scraper', value: 'config_scraper', types: ['config_scraper', 'catalog_scraper'] },
] as const;

/** Status filter options (settings §2.1). */
export const STATUS_OPTIONS: readonly { label: string; value: JobStatus }[] = [
  { label: 'Running', value: 'RUNNING' },
  { label: 'Success', value: 'SUCCESS' },
  { label: 'Warning', value: 'WARNING' },
  { label: 'Failed', value: 'FAILED' },
];

/** Duration filter options (settings §9): at least this long. '' is none. */
export const DURATION_OPTIONS: readonly { label: string; millis: number }[] = [
  { label: '15s', millis: 15_000 },
  { label: '30s', millis: 30_000 },
  { label: '60s', millis: 60_000 },
  { label: '2m', millis: 120_000 },
  { label: '3m', millis: 180_000 },
  { label: '5m', millis: 300_000 },
  { label: '10m', millis: 600_000 },
  { label: '15m', millis: 900_000 },
];

/** Columns the server may sort by. */
export const SORTABLE_COLUMNS = [
  'time_start',
  'name',
  'resource_name',
  'status',
  'duration_millis',
  'success_count',
  'error_count',
] as const;

/** The columns of `job_histories` the page shows: its select, and the schema its rows are parsed with. */
export const jobHistoryItemSchema = relationRowSchemas.job_histories.pick({
  id: true,
  name: true,
  agent_id: true,
  agent: true,
  resource_id: true,
  resource_type: true,
  resource_name: true,
  status: true,
  time_start: true,
  duration_millis: true,
  success_count: true,
  error_count: true,
  details: true,
});

export const JOB_HISTORY_SELECT = Object.keys(jobHistoryItemSchema.shape).join(',');

export interface JobHistoryFilters {
  name?: string;
  resourceType?: string;
  status?: string;
  /** Label of a DURATION_OPTIONS entry. */
  duration?: string;
  from?: Date;
  to?: Date | null;
}

export interface JobHistoryPage {
  pageIndex: number;
  pageSize: number;
  sortBy?: string;
  sortOrder: 'asc' | 'desc';
}

function quoted(value: string): string {
  // PostgREST reserves , . : ( ) in list values; double quotes make them literal.
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** The data-API query string of one page of `job_histories` (settings §2.1). */
export function jobHistorySearch(filters: JobHistoryFilters, page: JobHistoryPage): URLSearchParams {
  const params = new URLSearchParams();
  params.set('select', JOB_HISTORY_SELECT);
  if (filters.name) params.set('name', `eq.${filters.name}`);
  const resourceType = RESOURCE_TYPE_OPTIONS.find((option) => option.value === filters.resourceType);
  if (resourceType) params.set('resource_type', `in.(${resourceType.types.map(quoted).join(',')})`);
  if (STATUS_OPTIONS.some((option) => option.value === filters.status))
    params.set('status', `eq.${filters.status}`);
  const duration = DURATION_OPTIONS.find((option) => option.label === filters.duration);
  if (duration) params.set('duration_millis', `gte.${duration.millis}`);
  if (filters.from) params.append('time_start', `gte.${filters.from.toISOString()}`);
  if (filters.to) params.append('time_start', `lte.${filters.to.toISOString()}`);
  const sortBy = (SORTABLE_COLUMNS as readonly string[]).includes(page.sortBy ?? '')
    ? page.sortBy
    : 'time_start';
  const order = page.sortBy ? page.sortOrder : 'desc';
  // A second key keeps the order stable across pages when many rows share a value.
  params.set('order', sortBy === 'time_start' ? `time_start.${order}` : `${sortBy}.${order},time_start.desc`);
  params.set('limit', String(page.pageSize));
  params.set('offset', String(page.pageIndex * page.pageSize));
  return params;
}
