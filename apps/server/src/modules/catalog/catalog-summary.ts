import {
  CATALOG_SUMMARY_GROUP_COLUMNS,
  isCatalogSummaryGroup,
  type CatalogSummaryRequest,
} from '@opsdeck/contracts';
import type { Pool } from '../../platform/db/pool.js';
import { CatalogSql, isTrue, parseTime, parseTristate, stringMap, tagSelector } from './catalog-filters.js';
import { HttpError } from '../../platform/http/errors.js';

/** Columns a summary can be grouped by. */
export const SUMMARY_GROUP_COLUMNS = CATALOG_SUMMARY_GROUP_COLUMNS;
/** Groupings the per-group rows of config_item_summary answer without reading every item. */
const ROLLUP_GROUP_COLUMNS = ['type', 'config_class', 'status', 'health'] as const;
/** Delta rows of config_item_summary_deltas a summary reads before it folds them. */
const SUMMARY_FOLD_THRESHOLD = 2000;

/**
 * The SQL of one groupBy entry: a column; `tag:<key>` or `label:<key>` (the keys of
 * `config_tags_labels_keys`); else a bare tag key.
 */
function groupExpression(name: string): { sql: string; alias: string } {
  if ((SUMMARY_GROUP_COLUMNS as readonly string[]).includes(name)) return { sql: `ci.${name}`, alias: name };
  const prefixed = /^(tag|label):(.+)$/.exec(name);
  const column = prefixed?.[1] === 'label' ? 'labels' : 'tags';
  const key = prefixed ? prefixed[2] : name;
  // The key is inlined (GROUP BY positions need the same expression): the route's schema refused
  // any other, and this check stands for callers that did not go through it.
  if (isCatalogSummaryGroup(name)) return { sql: `ci.${column} ->> '${key}'`, alias: name };
  throw new HttpError(
    400,
    `groupBy: "${name}" is not a column (${SUMMARY_GROUP_COLUMNS.join(', ')}), tag:<key>, label:<key> or a tag key`,
  );
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

export interface CatalogSummaryOptions {
  /** Read the summary from config_item_summary when the request allows it (default true). */
  summaryRollup?: boolean;
}

/**
 * POST /api/catalog/summary: items grouped by `groupBy` (default config_class and type;
 * `tag:<key>` and `label:<key>` group by that tag or label, a bare name that is not a column by
 * that tag) with counts, health and status breakdowns, cost sums and, when asked
 * (`changes.since`, `analysis.since`), change counts and open insights per analysis type.
 */
export async function summarizeCatalog(
  pool: Pool,
  input: CatalogSummaryRequest,
  options: CatalogSummaryOptions = {},
): Promise<ConfigSummaryRow[]> {
  const groupBy = (
    Array.isArray(input.groupBy) && input.groupBy.length > 0 ? input.groupBy : ['config_class', 'type']
  ).map(String);
  const groups = groupBy.map(groupExpression);
  const sql = new CatalogSql();
  if (!isTrue(input.deleted)) sql.where.push('ci.deleted_at IS NULL');
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
  const changesSince = parseTime(input.changes?.since, 'changes.since');
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
  const analysisSince = parseTime(input.analysis?.since, 'analysis.since');
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
}
