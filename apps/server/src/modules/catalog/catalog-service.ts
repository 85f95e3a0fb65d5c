import type { Pool } from '../../platform/db/pool.js';
import { readTimeParameter } from '../../platform/time/index.js';

/** A request the caller got wrong: answered with this status and `{error: message}`. */
export class CatalogRequestError extends Error {
  constructor(
    message: string,
    readonly statusCode = 400,
    /** The parameter at fault, answered as `field`. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'CatalogRequestError';
  }
}

type Parameters = Record<string, unknown>;

/** Columns a summary can be grouped by. */
export const SUMMARY_GROUP_COLUMNS = [
  'type',
  'config_class',
  'namespace',
  'agent_id',
  'status',
  'health',
] as const;
/** Groupings the per-group rows of config_item_summary answer without reading every item. */
const ROLLUP_GROUP_COLUMNS = ['type', 'config_class', 'status', 'health'] as const;
/** Delta rows of config_item_summary_deltas a summary reads before it folds them. */
const SUMMARY_FOLD_THRESHOLD = 2000;
/** A tag or label key to group by: letters, digits and `_ . / : -`. */
const TAG_KEY = /^[A-Za-z0-9_./:-]{1,253}$/;

/**
 * The SQL of one groupBy entry: a column; `tag:<key>` or `label:<key>` (the keys of
 * `config_tags_labels_keys`); else a bare tag key.
 */
function groupExpression(name: string): { sql: string; alias: string } {
  if ((SUMMARY_GROUP_COLUMNS as readonly string[]).includes(name)) return { sql: `ci.${name}`, alias: name };
  const prefixed = /^(tag|label):(.+)$/.exec(name);
  const column = prefixed?.[1] === 'label' ? 'labels' : 'tags';
  const key = prefixed ? prefixed[2] : name;
  // Validated here, so the key can be inlined: GROUP BY positions need the same expression.
  if (TAG_KEY.test(key)) return { sql: `ci.${column} ->> '${key}'`, alias: name };
  throw new CatalogRequestError(
    `groupBy: "${name}" is not a column (${SUMMARY_GROUP_COLUMNS.join(', ')}), tag:<key>, label:<key> or a tag key`,
  );
}

/** Spec core §9: catalog change recursion depth 5. */
export const DEFAULT_CHANGE_DEPTH = 5;
export const DEFAULT_CHANGES_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 1000;
/** Bounds that keep `(page - 1) * page_size` and the recursion depth within PostgreSQL's integers. */
const MAX_PAGE = 1_000_000;
const MAX_CHANGE_DEPTH = 100;

const CHANGE_SORT_COLUMNS: Readonly<Record<string, string>> = {
  created_at: 'c.created_at',
  first_observed: 'c.first_observed',
  change_type: 'c.change_type',
  severity: 'c.severity',
  source: 'c.source',
  summary: 'c.summary',
  count: 'c.count',
  config_id: 'c.config_id',
  name: 'ci.name',
  type: 'ci.type',
  config_class: 'ci.config_class',
  created_by: 'c.created_by',
  external_created_by: 'c.external_created_by',
};

/**
 * Sort columns that are never null: ordered without NULLS LAST, so a descending sort can walk
 * their index backwards (with NULLS LAST the planner sorts every matching change first).
 */
const NOT_NULL_CHANGE_COLUMNS = new Set(['c.created_at', 'c.count', 'c.config_id']);

interface Tristate {
  include: string[];
  exclude: string[];
}

/**
 * The tri-state filter value: `a,!b` or the UI's `a:1,b:-1`; included values are OR-ed,
 * excluded ones AND-ed as NOT. Arrays of such values are accepted too.
 */
export function parseTristate(value: unknown, field: string): Tristate | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const parts = Array.isArray(value)
    ? value.map(String)
    : typeof value === 'string'
      ? value.split(',')
      : undefined;
  if (!parts) throw new CatalogRequestError(`${field} must be a string`);
  const result: Tristate = { include: [], exclude: [] };
  for (const raw of parts) {
    const part = raw.trim();
    if (part === '') continue;
    const scored = /^(.*):(-1|1)$/.exec(part);
    if (scored) (scored[2] === '-1' ? result.exclude : result.include).push(scored[1]);
    else if (part.startsWith('!')) result.exclude.push(part.slice(1));
    else result.include.push(part);
  }
  return result.include.length + result.exclude.length > 0 ? result : undefined;
}

class Sql {
  readonly values: unknown[] = [];
  readonly where: string[] = [];
  param(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
  tristate(column: string, filter: Tristate | undefined): void {
    if (!filter) return;
    // One value as an equality: an index on (column, …, created_at) then also gives the order
    // (`= ANY` of a one-element array does not).
    if (filter.include.length === 1) this.where.push(`${column} = ${this.param(filter.include[0])}::text`);
    else if (filter.include.length > 1)
      this.where.push(`${column} = ANY(${this.param(filter.include)}::text[])`);
    if (filter.exclude.length > 0) {
      this.where.push(`(${column} IS NULL OR NOT (${column} = ANY(${this.param(filter.exclude)}::text[])))`);
    }
  }
  clause(): string {
    return this.where.length > 0 ? `WHERE ${this.where.join(' AND ')}` : '';
  }
}

function stringMap(value: unknown, field: string): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value))
    throw new CatalogRequestError(`${field} must be an object`);
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, String(item)]));
}

/** `key=value,key2!=value2` (or a list of such, or a map) → equality and inequality matches. */
function tagSelector(
  value: unknown,
): { equal: Record<string, string>; notEqual: Array<[string, string]> } | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const equal: Record<string, string> = {};
  const notEqual: Array<[string, string]> = [];
  if (typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, item] of Object.entries(value)) equal[key] = String(item);
    return { equal, notEqual };
  }
  const parts = Array.isArray(value) ? value.map(String) : String(value).split(',');
  for (const part of parts) {
    const match = /^\s*([^=!]+?)\s*(!=|==|=)\s*(.*?)\s*$/.exec(part);
    if (!match) {
      if (part.trim() === '') continue;
      throw new CatalogRequestError(`tags: "${part}" is not key=value`);
    }
    if (match[2] === '!=') notEqual.push([match[1], match[3]]);
    else equal[match[1]] = match[3];
  }
  return { equal, notEqual };
}

function bool(value: unknown): boolean {
  return value === true || value === 'true';
}

/**
 * A time parameter in the one time grammar (`platform/time`): an absolute time, `now`, `now-1h`,
 * `now-1mo`, or a duration meaning that long ago (`2d`, `1mo`). A bad value is a 400 naming `field`.
 */
export function parseTime(value: unknown, field: string, now = new Date()): Date | undefined {
  return readTimeParameter(value, field, (message) => new CatalogRequestError(message, 400, field), now);
}

export interface ConfigSummaryRow {
  [group: string]: unknown;
  count: number;
  health: Record<string, number>;
  status: Record<string, number>;
  changes?: number;
  analysis?: Record<string, number>;
  cost_per_minute: number | null;
  cost_total_1d: number | null;
  cost_total_7d: number | null;
  cost_total_30d: number | null;
  created_at: Date | null;
  updated_at: Date | null;
}

export interface ChangeSearchResult {
  summary: Record<string, number>;
  changes: Array<Record<string, unknown>>;
  total: number;
}

export interface CatalogService {
  summary(input: Parameters): Promise<ConfigSummaryRow[]>;
  changes(input: Parameters): Promise<ChangeSearchResult>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

export interface CatalogServiceOptions {
  pool: Pool;
  /** Read the summary from config_item_summary when the request allows it (default true). */
  summaryRollup?: boolean;
}

export function createCatalogService(options: CatalogServiceOptions): CatalogService {
  const { pool } = options;
  return {
    /**
     * POST /api/catalog/summary: items grouped by `groupBy` (default config_class and type;
     * `tag:<key>` and `label:<key>` group by that tag or label, a bare name that is not a column by
     * that tag) with
     * counts, health and status breakdowns, cost sums and, when asked (`changes.since`,
     * `analysis.since`), change counts and open insights per analysis type.
     */
    async summary(input) {
      const groupBy = (
        Array.isArray(input.groupBy) && input.groupBy.length > 0 ? input.groupBy : ['config_class', 'type']
      ).map(String);
      const groups = groupBy.map(groupExpression);
      const sql = new Sql();
      if (!bool(input.deleted)) sql.where.push('ci.deleted_at IS NULL');
      const labels = stringMap(input.filter, 'filter');
      if (labels && Object.keys(labels).length > 0)
        sql.where.push(`ci.labels @> ${sql.param(JSON.stringify(labels))}::jsonb`);
      const tags = tagSelector(input.tags);
      if (tags) {
        if (Object.keys(tags.equal).length > 0)
          sql.where.push(`ci.tags @> ${sql.param(JSON.stringify(tags.equal))}::jsonb`);
        for (const [key, value] of tags.notEqual) {
          sql.where.push(`ci.tags ->> ${sql.param(key)} IS DISTINCT FROM ${sql.param(value)}`);
        }
      }
      // Conditions so far but the deleted one read the items' labels and tags.
      const filtersLabelsOrTags = sql.where.some((condition) => condition !== 'ci.deleted_at IS NULL');
      sql.tristate('ci.status', parseTristate(input.status, 'status'));
      sql.tristate('ci.health', parseTristate(input.health, 'health'));
      sql.tristate('ci.type', parseTristate(input.type, 'type'));
      const groupSelect = groups.map((group) => `${group.sql} AS "${group.alias}"`).join(', ');
      const groupList = groups.map((_, index) => String(index + 1)).join(', ');
      const base = `FROM config_items ci ${sql.clause()}`;
      const keyOf = (row: Record<string, unknown>) =>
        JSON.stringify(groups.map((group) => row[group.alias] ?? null));

      // One aggregate by group, health and status (a few hundred rows), folded here into each
      // group's totals and breakdowns: three aggregates, or grouping sets, cost several scans or
      // sorts at a million items. Grouped by class, type, health or status only, without tag or
      // label filters, it reads the per-group rows the config_items triggers keep
      // (0080_catalog_summary_rollup.sql) instead of every item.
      const health = `coalesce(ci.health, 'unknown')`;
      const status = `coalesce(ci.status, 'unknown')`;
      const fromRollup =
        (options.summaryRollup ?? true) &&
        !filtersLabelsOrTags &&
        groupBy.every((name) => (ROLLUP_GROUP_COLUMNS as readonly string[]).includes(name));
      let result: { rows: Record<string, unknown>[] };
      if (fromRollup) {
        const where = sql.where.map((condition) =>
          condition === 'ci.deleted_at IS NULL' ? 'NOT ci.deleted' : condition,
        );
        result = await pool.query<Record<string, unknown>>(
          `SELECT ${groupSelect}, ${health} AS "__health", ${status} AS "__status",
                  sum(ci.count)::integer AS count,
                  sum(ci.cost_per_minute)::float8 AS cost_per_minute, sum(ci.cost_total_1d)::float8 AS cost_total_1d,
                  sum(ci.cost_total_7d)::float8 AS cost_total_7d, sum(ci.cost_total_30d)::float8 AS cost_total_30d,
                  max(ci.created_at) AS created_at, max(ci.updated_at) AS updated_at,
                  bool_or(ci.uncertain) AS "__uncertain", sum(ci.rows)::integer AS "__rows"
           FROM config_item_summary ci ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
           GROUP BY ${groupList}, ${groups.length + 1}, ${groups.length + 2}`,
          sql.values,
        );
        // The answer is exact either way; folding keeps the next one a read of a few rows.
        const deltaRows = result.rows.reduce((sum, row) => sum + (row.__rows as number), 0);
        if (deltaRows > SUMMARY_FOLD_THRESHOLD || result.rows.some((row) => row.__uncertain === true))
          await pool.query('SELECT fold_config_item_summary()');
      } else {
        result = await pool.query<Record<string, unknown>>(
          `SELECT ${groupSelect}, ${health} AS "__health", ${status} AS "__status",
                  count(*)::integer AS count,
                  sum(ci.cost_per_minute)::float8 AS cost_per_minute, sum(ci.cost_total_1d)::float8 AS cost_total_1d,
                  sum(ci.cost_total_7d)::float8 AS cost_total_7d, sum(ci.cost_total_30d)::float8 AS cost_total_30d,
                  max(ci.created_at) AS created_at, max(ci.updated_at) AS updated_at
           ${base}
           GROUP BY ${groupList}, ${groups.length + 1}, ${groups.length + 2}`,
          sql.values,
        );
      }
      const rows = new Map<string, ConfigSummaryRow>();
      for (const row of result.rows) {
        const key = keyOf(row);
        let target = rows.get(key);
        if (!target) {
          const group = Object.fromEntries(groups.map((g) => [g.alias, row[g.alias] ?? null]));
          target = {
            ...group,
            count: 0,
            health: {},
            status: {},
            cost_per_minute: null,
            cost_total_1d: null,
            cost_total_7d: null,
            cost_total_30d: null,
            created_at: null,
            updated_at: null,
          } as ConfigSummaryRow;
          rows.set(key, target);
        }
        const count = row.count as number;
        target.count += count;
        const healthValue = row.__health as string;
        const statusValue = row.__status as string;
        target.health[healthValue] = (target.health[healthValue] ?? 0) + count;
        target.status[statusValue] = (target.status[statusValue] ?? 0) + count;
        for (const cost of ['cost_per_minute', 'cost_total_1d', 'cost_total_7d', 'cost_total_30d'] as const) {
          const value = row[cost] as number | null;
          if (value !== null) target[cost] = (target[cost] ?? 0) + value;
        }
        for (const time of ['created_at', 'updated_at'] as const) {
          const value = row[time] as Date | null;
          const current = target[time];
          if (value && (!current || value > current)) target[time] = value;
        }
      }
      // Groups in the order of their values (as ORDER BY would, nulls last). Compared by their
      // keys: grouped by health or status, the row's field of that name is the breakdown.
      const ordered = [...rows.entries()]
        .map(([key, row]) => ({ key, row, values: JSON.parse(key) as Array<string | null> }))
        .sort((a, b) => {
          for (let index = 0; index < groups.length; index++) {
            const left = a.values[index];
            const right = b.values[index];
            if (left === right) continue;
            if (left === null) return 1;
            if (right === null) return -1;
            return left < right ? -1 : 1;
          }
          return 0;
        });
      rows.clear();
      for (const { key, row } of ordered) rows.set(key, row);
      const changesSince = parseTime((input.changes as Parameters | undefined)?.since, 'changes.since');
      if (changesSince) {
        const index = sql.values.length + 1;
        const result = await pool.query<Record<string, unknown> & { n: number }>(
          `SELECT ${groupSelect}, count(c.id)::integer AS n
           FROM config_items ci JOIN config_changes c ON c.config_id = ci.id AND c.created_at >= $${index}
           ${sql.clause()} GROUP BY ${groupList}`,
          [...sql.values, changesSince],
        );
        for (const target of rows.values()) target.changes = 0;
        for (const row of result.rows) {
          const target = rows.get(keyOf(row));
          if (target) target.changes = row.n;
        }
      }
      const analysisSince = parseTime((input.analysis as Parameters | undefined)?.since, 'analysis.since');
      if (analysisSince) {
        const index = sql.values.length + 1;
        const result = await pool.query<Record<string, unknown> & { analysis_type: string; n: number }>(
          `SELECT ${groupSelect}, coalesce(a.analysis_type, 'other') AS analysis_type, count(a.id)::integer AS n
           FROM config_items ci
           JOIN config_analysis a ON a.config_id = ci.id AND coalesce(a.status, 'open') = 'open'
                                 AND coalesce(a.last_observed, a.first_observed) >= $${index}
           ${sql.clause()} GROUP BY ${groupList}, ${groups.length + 1}`,
          [...sql.values, analysisSince],
        );
        for (const target of rows.values()) target.analysis = {};
        for (const row of result.rows) {
          const target = rows.get(keyOf(row));
          if (target?.analysis) target.analysis[row.analysis_type] = row.n;
        }
      }
      return [...rows.values()];
    },

    /**
     * POST /api/catalog/changes: changes filtered by item (`id`, optionally with its related items
     * when `recursive` is upstream, downstream or all, to `depth`), config_type, change type,
     * severity, created_by (tri-state), tags, time range, deleted items; sorted by sort_by
     * (`-` for descending, default -created_at); paged by page (from 1) and page_size.
     */
    async changes(input) {
      const sql = new Sql();
      // The related items' ids (a parameter), when the search follows relationships.
      let relatedIds: string | undefined;
      if (input.id !== undefined && input.id !== null && input.id !== '') {
        if (!isUuid(input.id)) throw new CatalogRequestError('id must be a config item id');
        const recursive = typeof input.recursive === 'string' ? input.recursive : '';
        const depth =
          input.depth === undefined || input.depth === null || input.depth === ''
            ? DEFAULT_CHANGE_DEPTH
            : Number(input.depth);
        if (!Number.isInteger(depth) || depth < 0 || depth > MAX_CHANGE_DEPTH)
          throw new CatalogRequestError(
            `depth must be a whole number from 0 to ${MAX_CHANGE_DEPTH}`,
            400,
            'depth',
          );
        const direction: Record<string, string> = {
          downstream: 'outgoing',
          upstream: 'incoming',
          all: 'all',
        };
        if (recursive === '' || recursive === 'none') {
          sql.where.push(`c.config_id = ${sql.param(input.id)}::uuid`);
        } else if (direction[recursive]) {
          const related: unknown[] = [input.id, direction[recursive], depth];
          let descendants = '';
          if (recursive !== 'upstream') {
            // The subtree prefix as a value, not an expression: only a constant LIKE prefix can
            // use the path index (an expression scanned every item).
            const root = await pool.query<{ prefix: string }>(
              `SELECT CASE WHEN coalesce(path, '') = '' THEN id::text ELSE path || '.' || id END AS prefix
                 FROM config_items WHERE id = $1`,
              [input.id],
            );
            if (root.rows[0]) {
              related.push(`${root.rows[0].prefix.replace(/[\\%_]/g, '\\$&')}%`);
              descendants = ' UNION SELECT d.id FROM config_items d WHERE d.path LIKE $4';
            }
          }
          // The related items once (the walk took as long as the counts and the page together, and
          // each of them walked again), then their ids as a value to both.
          const ids = await pool.query<{ ids: string[] }>(
            `SELECT coalesce(array_agg(x.id), '{}')::text[] AS ids
               FROM (SELECT r.id FROM related_configs_recursive($1::uuid, $2, true, $3) r${descendants}) x`,
            related,
          );
          relatedIds = sql.param(ids.rows[0].ids);
        } else {
          throw new CatalogRequestError('recursive must be one of upstream, downstream, all, none');
        }
      }
      const liveOnly = !bool(input.include_deleted_configs);
      // The item's type as kept on the change (0082_config_changes_config_type.sql): the counts
      // and the page read one index range instead of looking up the item of every candidate.
      const configTypes = parseTristate(input.config_type, 'config_type');
      sql.tristate('c.config_type', configTypes);
      sql.tristate('c.change_type', parseTristate(input.type ?? input.change_type, 'type'));
      sql.tristate('c.severity', parseTristate(input.severity, 'severity'));
      sql.tristate(
        'coalesce(c.created_by::text, c.external_created_by)',
        parseTristate(input.created_by, 'created_by'),
      );
      const tags = tagSelector(input.tags);
      // Conditions on the item's own columns (tags): the counts join the items too.
      let itemConditions = false;
      if (tags) {
        if (Object.keys(tags.equal).length > 0) {
          sql.where.push(`ci.tags @> ${sql.param(JSON.stringify(tags.equal))}::jsonb`);
          itemConditions = true;
        }
        for (const [key, value] of tags.notEqual) {
          sql.where.push(`ci.tags ->> ${sql.param(key)} IS DISTINCT FROM ${sql.param(value)}`);
          itemConditions = true;
        }
      }
      const from = parseTime(input.from, 'from');
      const to = parseTime(input.to, 'to');
      if (from) sql.where.push(`c.created_at >= ${sql.param(from)}`);
      if (to) sql.where.push(`c.created_at <= ${sql.param(to)}`);

      const sortBy =
        typeof input.sort_by === 'string' && input.sort_by !== '' ? input.sort_by : '-created_at';
      const descending = sortBy.startsWith('-');
      const sortColumn = CHANGE_SORT_COLUMNS[descending ? sortBy.slice(1) : sortBy];
      if (!sortColumn) throw new CatalogRequestError(`sort_by: "${sortBy}" is not a change column`);
      const pageSize = input.page_size === undefined ? DEFAULT_CHANGES_PAGE_SIZE : Number(input.page_size);
      const page = input.page === undefined ? 1 : Number(input.page);
      if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
        throw new CatalogRequestError(`page_size must be between 1 and ${MAX_PAGE_SIZE}`, 400, 'page_size');
      }
      if (!Number.isInteger(page) || page < 1 || page > MAX_PAGE)
        throw new CatalogRequestError(
          `page must be a whole number from 1 to ${MAX_PAGE.toLocaleString('en')}`,
          400,
          'page',
        );

      // Every change has its item (a foreign key): the page joins it for its columns. The page reads
      // the related items' ids as an init plan's array: the planner, not knowing how many, reads
      // each item's changes through the config_id index; seeing a thousand ids among ten million
      // changes, it walked the created_at index backwards instead (475 ms against 50 at depth 5).
      // The counts take the ids as they are (a bitmap of their changes: 26 ms against 58).
      const pageWhere = [
        ...(relatedIds ? [`c.config_id = ANY (ARRAY(SELECT unnest(${relatedIds}::uuid[])))`] : []),
        ...sql.where,
        ...(liveOnly ? ['ci.deleted_at IS NULL'] : []),
      ];
      const from_ = `FROM config_changes c JOIN config_items ci ON ci.id = c.config_id${
        pageWhere.length > 0 ? ` WHERE ${pageWhere.join(' AND ')}` : ''
      }`;
      // The counts read the changes alone unless the item's columns are filtered: live items are
      // those not among the deleted ones (few, and indexed by type and id), so no change is joined
      // to its item. With a config_type filter the deleted items of the change's type are enough
      // (config_type is the item's type).
      let countFrom = from_;
      if (!itemConditions) {
        const countWhere = [
          ...(relatedIds ? [`c.config_id = ANY (${relatedIds}::uuid[])`] : []),
          ...sql.where,
        ];
        if (liveOnly)
          countWhere.push(
            `NOT EXISTS (SELECT 1 FROM config_items d WHERE d.id = c.config_id AND d.deleted_at IS NOT NULL${
              configTypes && configTypes.include.length > 0 ? ' AND d.type = c.config_type' : ''
            })`,
          );
        countFrom = `FROM config_changes c${countWhere.length > 0 ? ` WHERE ${countWhere.join(' AND ')}` : ''}`;
      }
      const limit = sql.param(pageSize);
      const offset = sql.param((page - 1) * pageSize);
      // The counts and the page are independent reads: run side by side.
      const [summary, list] = await Promise.all([
        pool.query<{ change_type: string | null; n: number }>(
          `SELECT c.change_type, count(*)::integer AS n ${countFrom} GROUP BY c.change_type`,
          sql.values.slice(0, -2),
        ),
        pool.query<Record<string, unknown>>(
          `SELECT c.id, c.config_id, ci.name, ci.deleted_at, ci.type, ci.config_class, ci.tags,
                  c.external_created_by, c.created_at, c.severity, c.change_type, c.source, c.summary,
                  c.created_by, c.count, c.first_observed, ci.agent_id
           ${from_}
           ORDER BY ${sortColumn} ${descending ? 'DESC' : 'ASC'}${NOT_NULL_CHANGE_COLUMNS.has(sortColumn) ? '' : ' NULLS LAST'}, c.id
           LIMIT ${limit} OFFSET ${offset}`,
          sql.values,
        ),
      ]);
      const counts: Record<string, number> = {};
      let total = 0;
      for (const row of summary.rows) {
        counts[row.change_type ?? ''] = row.n;
        total += row.n;
      }
      return { summary: counts, changes: list.rows, total };
    },
  };
}
