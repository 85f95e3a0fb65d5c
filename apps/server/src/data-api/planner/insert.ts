/** POST and PUT: inserts, bulk inserts and upserts (merge or ignore duplicates, single-row PUT). */
import type { RelationPolicy } from '../allowlist.js';
import { quoteIdent, type CatalogRelation } from '../catalog.js';
import { ApiError, unknownColumn } from '../errors.js';
import { type Builder, type Plan, type PlanRequest, kindOf, relationSql, requireAction } from './common.js';
import { mutationResult, withoutRootConditions, writableColumns } from './mutation.js';

// ---------------------------------------------------------------------------------------------
// writes

/**
 * PUT: a single-row upsert addressed by its primary key. The filters must be exactly `pk=eq.value`
 * for every primary-key column (PGRST105); no limit/offset (PGRST114). The engine checks that the
 * payload's key values equal the filters' (PGRST115).
 */
export function planPut(
  b: Builder,
  request: PlanRequest,
  relation: CatalogRelation,
  policy: RelationPolicy,
): Plan {
  if (b.query.limit !== null || b.query.offset !== null) {
    throw new ApiError(400, 'PGRST114', 'limit/offset querystring parameters are not allowed for PUT');
  }
  const conditions = b.query.scopes.get('')?.conditions ?? [];
  const pk = relation.primaryKey;
  const filtered = conditions.map((c) =>
    c.kind === 'filter' &&
    !c.negate &&
    c.field.json.length === 0 &&
    c.predicate.kind === 'op' &&
    c.predicate.op === 'eq' &&
    c.predicate.quantifier === null
      ? c.field.column
      : null,
  );
  if (
    pk.length === 0 ||
    filtered.length !== pk.length ||
    filtered.some((column) => column === null || !pk.includes(column)) ||
    new Set(filtered).size !== pk.length
  ) {
    throw new ApiError(
      405,
      'PGRST105',
      "Filters must include all and only primary key columns with 'eq' operators",
      pk.length > 0
        ? `Primary key of '${relation.name}': ${pk.join(', ')}`
        : `'${relation.name}' has no primary key`,
    );
  }
  const body = request.body;
  if (body && body.rows !== 1) throw new ApiError(400, 'PGRST102', 'PUT payload must contain a single row');
  b.query = { ...b.query, scopes: withoutRootConditions(b.query.scopes), onConflict: pk };
  const plan = planInsert(
    b,
    { ...request, prefs: { ...request.prefs, resolution: 'merge-duplicates' } },
    relation,
    policy,
  );
  return { ...plan, kind: 'put' };
}

export function planInsert(
  b: Builder,
  request: PlanRequest,
  relation: CatalogRelation,
  policy: RelationPolicy,
): Plan {
  const body = request.body;
  if (!body) throw new ApiError(400, 'PGRST102', 'Empty or invalid json');
  requireAction(policy, 'insert', request.method);
  b.touch(relation.name, kindOf(relation), 'insert');
  const resolution = request.prefs.resolution;
  if (resolution === 'merge-duplicates') {
    requireAction(policy, 'update', request.method);
    b.touch(relation.name, kindOf(relation), 'update');
  }
  if (request.prefs.return === 'representation') b.touch(relation.name, kindOf(relation), 'read');
  const columns = writableColumns(b, relation, policy, body.columns);
  const target = relationSql(b.catalog, relation);
  const bodyParam = b.param({ kind: 'body' });
  let insert: string;
  if (columns.length === 0) {
    insert = `INSERT INTO ${target} SELECT FROM json_array_elements(${bodyParam}::json)`;
  } else {
    const names = columns.map((c) => quoteIdent(c.name)).join(', ');
    if (request.prefs.missing === 'default') {
      const values = columns
        .map((c) => {
          const fallback = c.defaultExpression && !c.generated ? c.defaultExpression : 'NULL';
          return `CASE WHEN "pgrst_e"."j"::jsonb ? ${b.constant(c.name)}::text THEN "pgrst_r".${quoteIdent(c.name)} ELSE ${fallback} END`;
        })
        .join(', ');
      insert = `INSERT INTO ${target} (${names}) SELECT ${values} FROM json_array_elements(${bodyParam}::json) AS "pgrst_e"("j") CROSS JOIN LATERAL json_populate_record(NULL::${target}, "pgrst_e"."j") AS "pgrst_r"`;
    } else {
      insert = `INSERT INTO ${target} (${names}) SELECT ${names} FROM json_populate_recordset(NULL::${target}, ${bodyParam}::json) AS "pgrst_r"`;
    }
  }
  if (resolution) {
    const conflictNames = b.query.onConflict ?? relation.primaryKey;
    if (conflictNames.length === 0) {
      throw new ApiError(
        400,
        'PGRST100',
        `'${relation.name}' has no primary key: give on_conflict to upsert`,
      );
    }
    const hidden = b.hidden(relation);
    const conflict = conflictNames.map((name) => {
      const column = relation.columnByName.get(name);
      if (!column || hidden.has(name)) throw unknownColumn(relation.name, name);
      return quoteIdent(column.name);
    });
    const updates = columns.map((c) => `${quoteIdent(c.name)} = EXCLUDED.${quoteIdent(c.name)}`);
    insert +=
      resolution === 'merge-duplicates' && updates.length > 0
        ? ` ON CONFLICT (${conflict.join(', ')}) DO UPDATE SET ${updates.join(', ')}`
        : ` ON CONFLICT (${conflict.join(', ')}) DO NOTHING`;
  }
  const cte = `WITH "pgrst_mut" AS (${insert} RETURNING ${target}.*)`;
  const result = mutationResult(b, request, relation, cte, true);
  return {
    kind: 'insert',
    target: relation.name,
    touched: [...b.touched.values()],
    main: b.template(result.text),
    plannedCount: null,
    readOnly: false,
    result: 'rows',
    outputKeys: result.level ? result.level.outputs.map((o) => o.key) : [],
    locationColumns: relation.primaryKey.filter((c) => !b.hidden(relation).has(c)),
    hasRootLimit: false,
    finalized: new Map(),
  };
}
