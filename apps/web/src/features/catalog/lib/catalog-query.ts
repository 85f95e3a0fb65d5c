import type { CatalogSummaryRequest, ChangeSearchRequest } from '@opsdeck/contracts';
import { toTriStateQuery, type FilterStates } from '../../../lib/url-state/filter-encoding.js';

/** Columns of the catalog list (spec core §3 "Config item"). */
export const CONFIG_LIST_SELECT =
  'id,name,type,config_class,status,health,labels,tags,namespace,description,cost_per_minute,cost_total_1d,cost_total_7d,cost_total_30d,created_at,updated_at,deleted_at';

/** The cost columns of a config item (core §3), sorted with items without a cost last. */
export const CONFIG_COST_COLUMNS = [
  'cost_per_minute',
  'cost_total_1d',
  'cost_total_7d',
  'cost_total_30d',
] as const;

/** Columns the server may sort the list by; the default order is type then name (core §7). */
export const CONFIG_SORTABLE_COLUMNS = [
  'name',
  'type',
  'status',
  'health',
  'created_at',
  'updated_at',
  ...CONFIG_COST_COLUMNS,
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

/**
 * Whether `value` matches the ILIKE pattern `pattern` (`%` any run, `_` one character, `\` quotes
 * the next one; letters compared case-insensitively).
 */
export function ilikeMatches(value: string, pattern: string): boolean {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '\\' && i + 1 < pattern.length) source += escapeRegExp(pattern[++i]!);
    else if (char === '%') source += '.*';
    else if (char === '_') source += '.';
    else source += escapeRegExp(char);
  }
  return new RegExp(`^${source}$`, 'isu').test(value);
}

function escapeRegExp(char: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(char) ? `\\${char}` : char;
}

/**
 * Search over name, type, description and namespace (core §7), case-insensitive substring.
 * With the list narrowed to one type, the type arm is the same for every row: decided here (the
 * whole search holds when the type matches, else only the other columns can), so the server can
 * combine the search's trigram indexes with the type's (0081_catalog_list_and_change_search_indexes.sql).
 */
export function searchClause(search: string, type?: string): string | undefined {
  const text = search.trim();
  if (!text) return undefined;
  // '*' is the wildcard of ilike; a literal one in the text would widen the match.
  const term = text.replaceAll('*', '');
  if (type !== undefined && ilikeMatches(type, `%${term}%`)) return undefined;
  const pattern = quoted(`*${term}*`);
  const columns =
    type === undefined ? ['name', 'type', 'description', 'namespace'] : ['name', 'description', 'namespace'];
  return `(${columns.map((column) => `${column}.ilike.${pattern}`).join(',')})`;
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
  const search = filters.search ? searchClause(filters.search, filters.type || undefined) : undefined;
  if (search) params.set('or', search);
  if (!filters.showDeleted) params.set('deleted_at', 'is.null');
  const sortBy = (CONFIG_SORTABLE_COLUMNS as readonly string[]).includes(page.sortBy ?? '')
    ? page.sortBy
    : undefined;
  // The id keeps the order stable across pages when many rows share a value.
  // Items without a cost sort after those with one, whichever the direction.
  const nulls = (CONFIG_COST_COLUMNS as readonly string[]).includes(sortBy ?? '') ? '.nullslast' : '';
  params.set('order', sortBy ? `${sortBy}.${page.sortOrder}${nulls},id.asc` : 'type.asc,name.asc,id.asc');
  params.set('limit', String(page.pageSize));
  params.set('offset', String(page.pageIndex * page.pageSize));
  return params;
}

/**
 * Body of POST /api/catalog/summary for the catalog landing: by class and type, or by one tag or
 * label key (`tag:<key>`, `label:<key>` as `config_tags_labels_keys` names them).
 */
export function catalogSummaryBody(
  showDeleted: boolean,
  groupKey?: string,
): { groupBy: string[]; deleted: boolean } & CatalogSummaryRequest {
  return { groupBy: groupKey ? [groupKey] : ['config_class', 'type'], deleted: showDeleted };
}

/** `tag:env` → { kind: 'tag', key: 'env' }; anything else is not a group key. */
export function parseGroupKey(value: string): { kind: 'tag' | 'label'; key: string } | undefined {
  const match = /^(tag|label):(.+)$/.exec(value);
  return match ? { kind: match[1] as 'tag' | 'label', key: match[2]! } : undefined;
}

/** Core §9: related configs are walked at most 10 hops deep. */
export const MAX_RELATIONSHIP_DEPTH = 10;
/** Core §9: the change feed of an item follows relationships 5 hops deep. */
export const CHANGE_RECURSION_DEPTH = 5;

export type RelationshipDirection = 'all' | 'incoming' | 'outgoing';

/** The data-API query of one item's insights, most recently observed first. */
export function configAnalysisSearch(configId: string): URLSearchParams {
  return new URLSearchParams({
    select: 'id,analyzer,analysis_type,severity,status,summary,message,source,first_observed,last_observed',
    config_id: `eq.${configId}`,
    order: 'last_observed.desc.nullslast,first_observed.desc',
  });
}

/** Query of `rpc/related_configs_recursive` (core §7, §9: depth 1 to 10). */
export function relatedConfigsSearch(
  configId: string,
  direction: RelationshipDirection,
  depth: number,
  showDeleted: boolean,
): URLSearchParams {
  const maxDepth = Math.min(MAX_RELATIONSHIP_DEPTH, Math.max(1, Math.trunc(depth) || MAX_RELATIONSHIP_DEPTH));
  return new URLSearchParams({
    config_id: configId,
    type_filter: direction,
    include_deleted_configs: String(showDeleted),
    max_depth: String(maxDepth),
    select: 'id,name,type,health,status,tags,updated_at,deleted_at,related_ids',
  });
}

/** Filters of the change feed (core §7 "POST /catalog/changes"). */
export interface ChangeFeedFilters {
  /** Scope to one item; its related items are followed per `recursive`. */
  configId?: string;
  recursive?: 'none' | 'all' | 'upstream' | 'downstream';
  changeType: FilterStates;
  severity: FilterStates;
  configType: FilterStates;
  /** 'key=value' entries. */
  tags: FilterStates;
  createdBy: FilterStates;
  from?: Date;
  to?: Date | null;
  showDeleted: boolean;
}

/** A tri-state selection as the list form of the catalog API: 'value' includes, '!value' excludes. */
export function triStateList(states: FilterStates): string[] | undefined {
  const list = Object.entries(states).map(([value, state]) => (state === -1 ? `!${value}` : value));
  return list.length > 0 ? list : undefined;
}

/** Body of POST /api/catalog/changes: page from 1, sort_by with '-' for descending. */
export function changeFeedBody(filters: ChangeFeedFilters, page: ConfigListPage): ChangeSearchRequest {
  const body: ChangeSearchRequest = {
    page: page.pageIndex + 1,
    page_size: page.pageSize,
    sort_by: `${page.sortOrder === 'asc' ? '' : '-'}${page.sortBy ?? 'created_at'}`,
    include_deleted_configs: filters.showDeleted,
  };
  if (filters.configId) {
    body.id = filters.configId;
    const recursive = filters.recursive ?? 'all';
    body.recursive = recursive;
    if (recursive !== 'none') body.depth = CHANGE_RECURSION_DEPTH;
  }
  const lists: ['type' | 'severity' | 'config_type' | 'created_by', FilterStates][] = [
    ['type', filters.changeType],
    ['severity', filters.severity],
    ['config_type', filters.configType],
    ['created_by', filters.createdBy],
  ];
  for (const [name, states] of lists) {
    const list = triStateList(states);
    if (list) body[name] = list;
  }
  const tags = Object.entries(filters.tags).flatMap(([entry, state]) => {
    const pair = splitKeyValue(entry);
    return pair ? [`${pair[0]}${state === -1 ? '!=' : '='}${pair[1]}`] : [];
  });
  if (tags.length > 0) body.tags = tags;
  if (filters.from) body.from = filters.from.toISOString();
  if (filters.to) body.to = filters.to.toISOString();
  return body;
}

/** Filters of the insights list (`config_analysis_items`). */
export interface InsightFilters {
  analyzer: FilterStates;
  analysisType: FilterStates;
  severity: FilterStates;
  status: FilterStates;
  configType: FilterStates;
  search?: string;
}

/** Columns the insights list may sort by. */
export const INSIGHT_SORTABLE_COLUMNS = [
  'analyzer',
  'analysis_type',
  'severity',
  'status',
  'first_observed',
  'last_observed',
] as const;

/** The data-API query of one page of insights, with the item each belongs to. */
export function insightListSearch(filters: InsightFilters, page: ConfigListPage): URLSearchParams {
  const params = new URLSearchParams();
  params.set(
    'select',
    'id,config_id,analyzer,analysis_type,severity,status,summary,message,source,first_observed,last_observed,config_type,config_class',
  );
  const columns: [string, FilterStates][] = [
    ['analyzer', filters.analyzer],
    ['analysis_type', filters.analysisType],
    ['severity', filters.severity],
    ['status', filters.status],
    ['config_type', filters.configType],
  ];
  for (const [column, states] of columns) {
    const query = toTriStateQuery(states);
    if (query) params.set(`${column}.filter`, query);
  }
  const text = filters.search?.trim();
  if (text) {
    const pattern = quoted(`*${text.replaceAll('*', '')}*`);
    params.set('or', `(summary.ilike.${pattern},message.ilike.${pattern},analyzer.ilike.${pattern})`);
  }
  const sortBy = (INSIGHT_SORTABLE_COLUMNS as readonly string[]).includes(page.sortBy ?? '')
    ? page.sortBy
    : 'last_observed';
  params.set('order', `${sortBy}.${page.sortBy ? page.sortOrder : 'desc'}.nullslast,id.asc`);
  params.set('limit', String(page.pageSize));
  params.set('offset', String(page.pageIndex * page.pageSize));
  return params;
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
