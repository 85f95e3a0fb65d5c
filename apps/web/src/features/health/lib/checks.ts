import { DEFAULT_HEALTH_TIME_RANGE, type CheckSummary } from '@opsdeck/contracts';
import { defaultTimeRangeForAge, pickLatency, uptimePercent } from '../../../lib/format';

export type { CheckSummary };

/** Label filter: label key to 1 (include) or -1 (exclude), as in the `labels` URL parameter. */
export type LabelFilter = Record<string, 1 | -1>;

/**
 * Reads the `labels` parameter. Invalid JSON or a non-object is logged and ignored (core §5), and
 * entries whose value is not 1 or -1 are dropped. Keys are 'key=value' pairs of a check's labels.
 */
export function parseLabelFilter(raw: string | null | undefined): LabelFilter {
  if (!raw) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    // eslint-disable-next-line no-console -- the spec asks for this log entry (core §5)
    console.warn('Invalid labels parameter', raw, error);
    return {};
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    // eslint-disable-next-line no-console -- the spec asks for this log entry (core §5)
    console.warn('Invalid labels parameter', raw);
    return {};
  }
  const result: LabelFilter = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (value === 1 || value === -1) result[key] = value;
  }
  return result;
}

// Per-check values the filters need, computed once per check object: a data load brings new
// objects, so the caches follow it and are dropped with it.
const searchTexts = new WeakMap<CheckSummary, string>();
const labelPairSets = new WeakMap<CheckSummary, ReadonlySet<string>>();

const labelPairs = (check: CheckSummary): string[] =>
  Object.entries(check.labels ?? {}).map(([key, value]) => `${key}=${value}`);

function labelPairSet(check: CheckSummary): ReadonlySet<string> {
  let pairs = labelPairSets.get(check);
  if (!pairs) {
    pairs = new Set(labelPairs(check));
    labelPairSets.set(check, pairs);
  }
  return pairs;
}

/** The searched fields in lower case, separated by a character no query holds. */
function searchText(check: CheckSummary): string {
  let text = searchTexts.get(check);
  if (text === undefined) {
    text = [check.description, check.canary_name, check.endpoint, check.name]
      .filter((field): field is string => typeof field === 'string')
      .map((field) => field.toLowerCase())
      .join('\u0000');
    searchTexts.set(check, text);
  }
  return text;
}

const searchNeedle = (query: string) => query.trim().toLowerCase().replaceAll('\u0000', '');

/** Partial, case-insensitive match against description, canary_name, endpoint and name (core §5). */
export function matchesSearch(check: CheckSummary, query: string): boolean {
  const needle = searchNeedle(query);
  return !needle || searchText(check).includes(needle);
}

/** A check passes the label filter when it has every included pair and none of the excluded ones. */
export function matchesLabels(check: CheckSummary, filter: LabelFilter): boolean {
  const pairs = labelPairSet(check);
  for (const pair in filter) {
    if ((filter[pair] === 1) !== pairs.has(pair)) return false;
  }
  return true;
}

export const isHealthy = (check: CheckSummary): boolean => (check.status ?? '').toLowerCase() === 'healthy';

export interface CheckFilters {
  query: string;
  labels: LabelFilter;
  hidePassing: boolean;
}

export function filterChecks(checks: readonly CheckSummary[], filters: CheckFilters): CheckSummary[] {
  const needle = searchNeedle(filters.query);
  const byLabel = Object.keys(filters.labels).length > 0;
  return checks.filter(
    (check) =>
      !(filters.hidePassing && isHealthy(check)) &&
      (!needle || searchText(check).includes(needle)) &&
      (!byLabel || matchesLabels(check, filters.labels)),
  );
}

/** Every 'key=value' label pair of the checks, sorted, for the Filter by Label list. */
export function labelOptions(checks: readonly CheckSummary[]): string[] {
  return [...new Set(checks.flatMap(labelPairs))].sort((a, b) => a.localeCompare(b));
}

export const FIXED_GROUP_BY = ['no-group', 'canary_name', 'name', 'description', 'type'] as const;
export const DEFAULT_GROUP_BY = 'canary_name';
export const DEFAULT_TAB_BY = 'namespace';
export const ALL_TAB = 'All';

/** Label keys of the checks, for the Group By and Tab By options. */
export function labelKeys(checks: readonly CheckSummary[]): string[] {
  return [...new Set(checks.flatMap((check) => Object.keys(check.labels ?? {})))].sort((a, b) =>
    a.localeCompare(b),
  );
}

/** The group a check falls in; undefined keeps it ungrouped. 'name' groups by the part before the first '/'. */
export function groupKey(check: CheckSummary, groupBy: string): string | undefined {
  switch (groupBy) {
    case 'no-group':
      return undefined;
    case 'canary_name':
      return check.canary_name ?? undefined;
    case 'name': {
      const slash = check.name.indexOf('/');
      return slash > 0 ? check.name.slice(0, slash) : undefined;
    }
    case 'description':
      return check.description ?? undefined;
    case 'type':
      return check.type ?? undefined;
    default:
      return check.labels?.[groupBy];
  }
}

export type HealthRow =
  | { kind: 'check'; id: string; check: CheckSummary }
  | { kind: 'group'; id: string; name: string; checks: CheckSummary[] };

/** Groups checks; a group with a single check is shown as that check alone. */
export function groupChecks(checks: readonly CheckSummary[], groupBy: string): HealthRow[] {
  const groups = new Map<string, CheckSummary[]>();
  const rows: HealthRow[] = [];
  for (const check of checks) {
    const key = groupKey(check, groupBy);
    if (key === undefined || key === '') {
      rows.push({ kind: 'check', id: check.id, check });
      continue;
    }
    const members = groups.get(key);
    if (members) members.push(check);
    else {
      const created = [check];
      groups.set(key, created);
      rows.push({ kind: 'group', id: `group:${key}`, name: key, checks: created });
    }
  }
  return rows.map((row) =>
    row.kind === 'group' && row.checks.length === 1 && row.checks[0]
      ? { kind: 'check', id: row.checks[0].id, check: row.checks[0] }
      : row,
  );
}

/** The tab a check belongs to for a Tab By choice ('namespace', 'agent' or a label key). */
export function tabKey(check: CheckSummary, tabBy: string): string | undefined {
  if (tabBy === 'namespace') return check.namespace ?? undefined;
  if (tabBy === 'agent') return check.agent_id ?? undefined;
  return check.labels?.[tabBy];
}

/** Tabs: 'All' first, the rest alphabetical (core §9). */
export function tabsFor(checks: readonly CheckSummary[], tabBy: string): string[] {
  const values = new Set<string>();
  for (const check of checks) {
    const key = tabKey(check, tabBy);
    if (key) values.add(key);
  }
  return [ALL_TAB, ...[...values].sort((a, b) => a.localeCompare(b))];
}

export function inTab(check: CheckSummary, tabBy: string, tab: string): boolean {
  return tab === ALL_TAB || tabKey(check, tabBy) === tab;
}

export const SORT_COLUMNS = ['name', 'health', 'uptime', 'latency', 'transition'] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];

const rowChecks = (row: HealthRow): CheckSummary[] => (row.kind === 'group' ? row.checks : [row.check]);
const rowName = (row: HealthRow): string => (row.kind === 'group' ? row.name : row.check.name);

function rowValue(row: HealthRow, column: SortColumn): number | string {
  const checks = rowChecks(row);
  switch (column) {
    case 'name':
      return rowName(row).toLowerCase();
    case 'health':
      // Unhealthy first ascending: healthy share of the row.
      return checks.filter(isHealthy).length / checks.length;
    case 'uptime': {
      const values = checks.map((check) => uptimePercent(check.uptime)).filter(Number.isFinite);
      return values.length ? Math.min(...values) : -1;
    }
    case 'latency': {
      const values = checks
        .map((check) => pickLatency(check.latency))
        .filter((v): v is number => v !== undefined);
      return values.length ? Math.max(...values) : -1;
    }
    case 'transition': {
      const values = checks
        .map((check) => Date.parse(check.last_transition_time ?? ''))
        .filter(Number.isFinite);
      return values.length ? Math.max(...values) : -1;
    }
  }
}

const collator = new Intl.Collator();

/**
 * Single-column sort of rows and of each group's checks; ties fall back to the name. Each row's
 * sort value is computed once, not in every comparison.
 */
export function sortRows(rows: readonly HealthRow[], column: SortColumn, desc: boolean): HealthRow[] {
  const sign = desc ? -1 : 1;
  const sorted = <T>(items: readonly T[], row: (item: T) => HealthRow): T[] =>
    items
      .map((item) => {
        const asRow = row(item);
        return { item, value: rowValue(asRow, column), name: rowName(asRow) };
      })
      .sort((a, b) => {
        const order = a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
        return sign * (order === 0 ? collator.compare(a.name, b.name) : order);
      })
      .map((keyed) => keyed.item);
  const asRow = (check: CheckSummary): HealthRow => ({ kind: 'check', id: check.id, check });
  return sorted(
    rows.map((row) => (row.kind === 'group' ? { ...row, checks: sorted(row.checks, asRow) } : row)),
    (row) => row,
  );
}

/** The check panel's default time range from the last run's age (core §4); a check never run shows 1h. */
export function defaultTimeRangeForLastRun(lastRuntime: string | null | undefined, now = Date.now()): string {
  const time = Date.parse(lastRuntime ?? '');
  if (!Number.isFinite(time)) return DEFAULT_HEALTH_TIME_RANGE;
  return defaultTimeRangeForAge((now - time) / 60_000);
}

export const DURATION_PRESETS = ['100ms', '500ms', '1s', '5s', '10s', '30s'] as const;
export const DURATION_ERROR = 'duration is allowed only in milli seconds & seconds';

/** A duration filter in milliseconds; 'All' or empty is undefined; other formats give the error (core §5). */
export function parseDurationFilter(value: string): { ms?: number; error?: string } {
  const text = value.trim();
  if (text === '' || text === 'All') return {};
  const match = /^(\d+(?:\.\d+)?)(ms|s)$/.exec(text);
  if (!match) return { error: DURATION_ERROR };
  const amount = Number(match[1]);
  return { ms: match[2] === 's' ? amount * 1000 : amount };
}
