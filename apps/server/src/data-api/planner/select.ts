/** GET / HEAD: one read statement (rows as JSON text, page size and the count PostgREST asks for). */
import type { RelationPolicy } from '../allowlist.js';
import type { CatalogRelation } from '../catalog.js';
import type { AcceptedMedia, Preferences } from '../query-tree.js';
import type { Builder } from './common.js';
import {
  type Plan,
  type PlanRequest,
  type StatementTemplate,
  kindOf,
  readSourceSql,
  requireAction,
} from './common.js';
import { type LevelResult, buildLevel, checkScopesConsumed, levelSelect, rowJson } from './select-tree.js';

// ---------------------------------------------------------------------------------------------
// GET / HEAD

export function rootLevel(
  b: Builder,
  relation: CatalogRelation,
  source: string,
  alias: string,
  hidden: ReadonlySet<string>,
  rowFilter: string,
  allowEmbeds = true,
): LevelResult {
  return buildLevel(b, {
    relation,
    hidden,
    source,
    alias,
    nodes: b.query.select,
    path: '',
    sourceJoins: '',
    joinConditions: [],
    rowFilter,
    allowEmbeds,
  });
}

export function bodyExpression(
  b: Builder,
  level: LevelResult,
  rowAlias: string,
  media: AcceptedMedia,
): string {
  const agg = `json_agg(${rowJson(b, level, rowAlias, true)})`;
  return media.stripNulls ? `coalesce(json_strip_nulls(${agg}), '[]')::text` : `coalesce(${agg}, '[]')::text`;
}

export function countExpression(
  b: Builder,
  level: LevelResult,
  count: Preferences['count'],
  maxRows: number,
): string {
  if (count !== 'exact' && count !== 'estimated') return 'NULL::int8';
  let counted = `${level.countFrom} WHERE ${level.where}`;
  if (level.grouped) {
    // A grouped level answers one row per group: count the groups.
    const keys = level.outputs.filter((o) => !o.aggregate).map((o) => o.expr);
    const groupBy = keys.length > 0 ? ` GROUP BY ${keys.map((_, i) => i + 1).join(', ')}` : '';
    counted = `(SELECT ${[...keys, 'count(*)'].join(', ')} FROM ${level.from} WHERE ${level.where}${groupBy}) AS "pgrst_groups"`;
  }
  if (count === 'exact') return `(SELECT count(*) FROM ${counted})`;
  return `(SELECT count(*) FROM (SELECT 1 FROM ${counted} LIMIT ${b.constant(maxRows + 1)}) AS "pgrst_capped")`;
}

/**
 * `count=planned|estimated`: the planner's estimate of the rows under the statement's LIMIT.
 * EXPLAIN of the very statement (same parameters) keeps the numbering of every parameter intact.
 */
export function plannedCountTemplate(main: StatementTemplate): StatementTemplate {
  return { text: `EXPLAIN (FORMAT JSON) ${main.text}`, params: main.params, slots: main.slots };
}

export function planRead(
  b: Builder,
  request: PlanRequest,
  relation: CatalogRelation,
  policy: RelationPolicy,
): Plan {
  requireAction(policy, 'read', request.method);
  b.touch(relation.name, kindOf(relation), 'read');
  const hidden = b.hidden(relation);
  const level = rootLevel(
    b,
    relation,
    readSourceSql(b, relation),
    't0',
    hidden,
    b.rowFilter(relation, 't0', 'and'),
  );
  checkScopesConsumed(b);
  const total = countExpression(b, level, request.prefs.count, request.maxRows);
  const inner = levelSelect(level, null, b.param({ kind: 'limit' }), b.param({ kind: 'offset' }));
  const body =
    request.method === 'HEAD' ? 'NULL::text' : bodyExpression(b, level, 'pgrst_row', request.media);
  const text = `SELECT ${total} AS "total", count(*) AS "page", ${body} AS "body" FROM (${inner}) AS "pgrst_row"`;
  const main = b.template(text);
  const plannedCount =
    request.prefs.count === 'planned' || request.prefs.count === 'estimated'
      ? plannedCountTemplate(main)
      : null;
  return {
    kind: 'read',
    target: relation.name,
    touched: [...b.touched.values()],
    main,
    plannedCount,
    readOnly: true,
    result: 'rows',
    outputKeys: level.outputs.map((o) => o.key),
    locationColumns: [],
    hasRootLimit: true,
    finalized: new Map(),
  };
}
