import { toTriStateQuery, type FilterStates } from '../../../lib/url-state/filter-encoding';

/** Columns of the catalog list (spec core §3 "Config item"). */
export const CONFIG_LIST_SELECT =
  'id,name,type,config_class,status,health,labels,tags,namespace,description,created_at,updated_at,deleted_at';

/** Columns the server may sort the list by; the default order is type then name (core §7). */
export const CONFIG_SORTABLE_COLUMNS = [
  'name',
  'type',
  'status',
  'health',
  'created_at',
  'updated_at',
] as const;

export interface ConfigListFilters {
  type?: string;
  health: FilterStates;
  status: FilterStates;
  /** 'key=value' entries. */
  tags: FilterStates;
  labels: FilterStates;
  search?: string;
  showDeleted: boolean;
}

export interface ConfigListPage {
  pageIndex: number;
  pageSize: number;
  sortBy?: string;
  sortOrder: 'asc' | 'desc';
}

/** Splits a 'key=value' filter entry; entries without '=' are ignored. */
export function splitKeyValue(entry: string): [string, string] | undefined {
  const separator = entry.indexOf('=');
  if (separator <= 0) return undefined;
  return [entry.slice(0, separator), entry.slice(separator + 1)];
}

/**
 * One `<column>->>key.filter` parameter per key: values of one key are OR-ed (included) or
 * AND-ed as NOT (excluded) by the server's tri-state extension; different keys must all hold.
 */
export function keyValueFilterParams(column: 'tags' | 'labels', states: FilterStates): [string, string][] {
  const byKey = new Map<string, FilterStates>();
  for (const [entry, state] of Object.entries(states)) {
    const pair = splitKeyValue(entry);
    if (!pair) continue;
    const [key, value] = pair;
    const current = byKey.get(key) ?? {};
    current[value] = state;
    byKey.set(key, current);
  }
  const params: [string, string][] = [];
  for (const [key, keyStates] of [...byKey].sort(([a], [b]) => a.localeCompare(b))) {
    const query = toTriStateQuery(keyStates);
    // A key is a JSON path segment: quoted so dots or commas in it stay part of the key.
    if (query) params.push([`${column}->>${quoteIfNeeded(key)}.filter`, query]);
  }
  return params;
}

function quoteIfNeeded(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : `"${key.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function quoted(value: string): string {
  // PostgREST reserves , . : ( ) inside logic values; double quotes keep them literal.
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Search over name, type, description and namespace (core §7), case-insensitive substring. */
export function searchClause(search: string): string | undefined {
  const text = search.trim();
  if (!text) return undefined;
  // '*' is the wildcard of ilike; a literal one in the text would widen the match.
  const pattern = quoted(`*${text.replaceAll('*', '')}*`);
  return `(${['name', 'type', 'description', 'namespace'].map((column) => `${column}.ilike.${pattern}`).join(',')})`;
}

/** The data-API query string of one page of `configs` (core §7 "GET /configs"). */
export function configListSearch(filters: ConfigListFilters, page: ConfigListPage): URLSearchParams {
  const params = new URLSearchParams();
  params.set('select', CONFIG_LIST_SELECT);
  if (filters.type) params.set('type', `eq.${filters.type}`);
  const health = toTriStateQuery(filters.health);
  if (health) params.set('health.filter', health);
  const status = toTriStateQuery(filters.status);
  if (status) params.set('status.filter', status);
  for (const [name, value] of keyValueFilterParams('tags', filters.tags)) params.append(name, value);
  for (const [name, value] of keyValueFilterParams('labels', filters.labels)) params.append(name, value);
  const search = filters.search ? searchClause(filters.search) : undefined;
  if (search) params.set('or', search);
  if (!filters.showDeleted) params.set('deleted_at', 'is.null');
  const sortBy = (CONFIG_SORTABLE_COLUMNS as readonly string[]).includes(page.sortBy ?? '')
    ? page.sortBy
    : undefined;
  // The id keeps the order stable across pages when many rows share a value.
  params.set('order', sortBy ? `${sortBy}.${page.sortOrder},id.asc` : 'type.asc,name.asc,id.asc');
  params.set('limit', String(page.pageSize));
  params.set('offset', String(page.pageIndex * page.pageSize));
  return params;
}

/** Body of POST /api/catalog/summary for the catalog landing: by class and type. */
export function catalogSummaryBody(showDeleted: boolean): { groupBy: string[]; deleted: boolean } {
  return { groupBy: ['config_class', 'type'], deleted: showDeleted };
}

/** The data-API query of one item's changes, newest first, with their diff. */
export function configChangesSearch(configId: string, limit = 100): URLSearchParams {
  return new URLSearchParams({
    select: 'id,config_id,change_type,severity,source,summary,diff,created_at,created_by,external_created_by',
    config_id: `eq.${configId}`,
    order: 'created_at.desc,id.asc',
    limit: String(limit),
  });
}

/** The data-API query of one item's insights, most recently observed first. */
export function configAnalysisSearch(configId: string): URLSearchParams {
  return new URLSearchParams({
    select: 'id,analyzer,analysis_type,severity,status,summary,message,source,first_observed,last_observed',
    config_id: `eq.${configId}`,
    order: 'last_observed.desc.nullslast,first_observed.desc',
  });
}

/** Query of `rpc/related_configs_recursive` in one direction (core §9: max depth 10). */
export function relatedConfigsSearch(
  configId: string,
  direction: 'incoming' | 'outgoing',
  showDeleted: boolean,
): URLSearchParams {
  return new URLSearchParams({
    config_id: configId,
    type_filter: direction,
    include_deleted_configs: String(showDeleted),
    max_depth: '10',
    select: 'id,name,type,health,status,tags,deleted_at',
    id: `neq.${configId}`,
    order: 'type.asc,name.asc',
  });
}

/** The total of a `Content-Range` header such as '0-49/1234' or '*\/0'. */
export function totalFromContentRange(header: string | null): number | undefined {
  const match = header?.match(/\/(\d+)$/);
  return match ? Number(match[1]) : undefined;
}

/** A type such as 'Npm::Package' shown as its parts. */
export function typeLabel(type: string | null | undefined): string {
  return (type ?? '').split('::').filter(Boolean).join(' ') || 'Unknown';
}

/** 'key=value' entries of a tags or labels map, for the filter options. */
export function keyValueOptions(
  maps: readonly (Readonly<Record<string, string>> | null | undefined)[],
): string[] {
  const entries = new Set<string>();
  for (const map of maps)
    for (const [key, value] of Object.entries(map ?? {})) entries.add(`${key}=${value}`);
  return [...entries].sort((a, b) => a.localeCompare(b));
}
