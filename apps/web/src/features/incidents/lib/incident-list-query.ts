import { INCIDENT_SEVERITY_LEVELS, INCIDENT_STATUSES, INCIDENT_TYPES } from '@opsdeck/contracts';

export interface IncidentListFilters {
  search?: string;
  severity?: string;
  status?: string;
  type?: string;
  /** The commander's person id. */
  owner?: string;
  /** A component the incident has evidence about. */
  component?: string;
  /** A time-to-resolve bucket (RESOLVE_TIME_FILTERS). */
  ttr?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Time-to-resolve buckets of the list (incident_summary.time_to_resolve, seconds). */
export const RESOLVE_TIME_FILTERS = [
  { value: 'lt1h', label: 'under 1 hour', filter: 'lt.3600' },
  { value: 'lt1d', label: 'under 1 day', filter: 'lt.86400' },
  { value: 'gt1d', label: 'over 1 day', filter: 'gte.86400' },
  { value: 'gt1w', label: 'over 1 week', filter: 'gte.604800' },
  { value: 'open', label: 'not resolved', filter: 'is.null' },
] as const;

export interface IncidentListPage {
  pageIndex: number;
  pageSize: number;
  sortBy?: string;
  sortOrder?: 'asc' | 'desc';
}

/** Columns of incident_summary the list may sort by. */
export const SORTABLE_COLUMNS = [
  'title',
  'severity',
  'status',
  'type',
  'created_at',
  'updated_at',
  'time_to_resolve',
] as const;

const allowed = (values: readonly string[], value: string | undefined) =>
  value && values.includes(value) ? value : undefined;

/** Quotes a value for a PostgREST `ilike` inside or(): commas and parentheses must be quoted. */
function ilikePattern(text: string): string {
  const escaped = text.replace(/["\\]/g, (c) => `\\${c}`);
  return `"*${escaped}*"`;
}

/** The PostgREST query of the incident list (incident_summary). */
export function incidentListSearch(filters: IncidentListFilters, page: IncidentListPage): URLSearchParams {
  const search = new URLSearchParams();
  search.set(
    'select',
    'id,incident_id,title,severity,type,status,created_at,updated_at,commander,creator,responders_count,hypotheses_count,comments_count,time_to_resolve',
  );
  const severity = allowed(INCIDENT_SEVERITY_LEVELS, filters.severity);
  const status = allowed(INCIDENT_STATUSES, filters.status);
  const type = allowed(INCIDENT_TYPES, filters.type);
  if (severity) search.set('severity', `eq.${severity}`);
  if (status) search.set('status', `eq.${status}`);
  if (type) search.set('type', `eq.${type}`);
  if (filters.owner && UUID.test(filters.owner)) search.set('commander_id', `eq.${filters.owner}`);
  if (filters.component && UUID.test(filters.component)) {
    search.set('component_ids', `cs.{${filters.component}}`);
  }
  const ttr = RESOLVE_TIME_FILTERS.find((option) => option.value === filters.ttr);
  if (ttr) search.set('time_to_resolve', ttr.filter);
  const text = filters.search?.trim();
  if (text) {
    const pattern = ilikePattern(text);
    search.set('or', `(incident_id.ilike.${pattern},title.ilike.${pattern},description.ilike.${pattern})`);
  }
  const sortBy = (SORTABLE_COLUMNS as readonly string[]).includes(page.sortBy ?? '')
    ? page.sortBy
    : 'created_at';
  search.set('order', `${sortBy}.${page.sortOrder === 'asc' ? 'asc' : 'desc'}`);
  search.set('limit', String(page.pageSize));
  search.set('offset', String(page.pageIndex * page.pageSize));
  return search;
}
