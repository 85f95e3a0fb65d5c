import {
  DEFAULT_CHANGE_DEPTH,
  DEFAULT_CHANGES_PAGE_SIZE,
  type ChangeSearchRequest,
  type ChangeSortField,
} from '@opsdeck/contracts';
import type { Pool } from '../../platform/db/pool.js';
import { CatalogSql, isTrue, parseTime, parseTristate, tagSelector } from './catalog-filters.js';
import { HttpError } from '../../platform/http/errors.js';

export { DEFAULT_CHANGE_DEPTH, DEFAULT_CHANGES_PAGE_SIZE };

/** The SQL of each sort field of the contract. */
const CHANGE_SORT_COLUMNS: Readonly<Record<ChangeSortField, string>> = {
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

export interface ChangeSearchResult {
  summary: Record<string, number>;
  changes: Array<Record<string, unknown>>;
  total: number;
}

/**
 * POST /api/catalog/changes: changes filtered by item (`id`, optionally with its related items
 * when `recursive` is upstream, downstream or all, to `depth`), config_type, change type,
 * severity, created_by (tri-state), tags, time range, deleted items; sorted by sort_by
 * (`-` for descending, default -created_at); paged by page (from 1) and page_size.
 */
export async function searchChanges(pool: Pool, input: ChangeSearchRequest): Promise<ChangeSearchResult> {
  const sql = new CatalogSql();
  // The related items' ids (a parameter), when the search follows relationships.
  let relatedIds: string | undefined;
  if (input.id !== undefined && input.id !== null && input.id !== '') {
    // The route's contract schema has checked id, recursive, depth, sort_by and the page (and
    // their messages are its own): what follows reads them.
    const recursive = input.recursive ?? '';
    const depth =
      input.depth === undefined || input.depth === null || input.depth === ''
        ? DEFAULT_CHANGE_DEPTH
        : Number(input.depth);
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
      throw new HttpError(400, 'recursive must be one of upstream, downstream, all, none');
    }
  }
  const liveOnly = !isTrue(input.include_deleted_configs);
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

  const sortBy = typeof input.sort_by === 'string' && input.sort_by !== '' ? input.sort_by : '-created_at';
  const descending = sortBy.startsWith('-');
  const sortColumn = (CHANGE_SORT_COLUMNS as Readonly<Record<string, string>>)[
    descending ? sortBy.slice(1) : sortBy
  ];
  if (!sortColumn) throw new HttpError(400, `sort_by: "${sortBy}" is not a change column`);
  const pageSize = input.page_size === undefined ? DEFAULT_CHANGES_PAGE_SIZE : Number(input.page_size);
  const page = input.page === undefined ? 1 : Number(input.page);

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
    const countWhere = [...(relatedIds ? [`c.config_id = ANY (${relatedIds}::uuid[])`] : []), ...sql.where];
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
}
