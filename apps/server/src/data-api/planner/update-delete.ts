/** PATCH and DELETE with filters. */
import type { RelationPolicy } from '../allowlist.js';
import { quoteIdent, type CatalogRelation } from '../catalog.js';
import { ApiError } from '../errors.js';
import { type Builder, type Plan, type PlanRequest, kindOf, relationSql, requireAction } from './common.js';
import { compileCondition } from './select-tree.js';
import { mutationResult, withoutRootConditions, writableColumns } from './mutation.js';

export function planUpdateOrDelete(
  b: Builder,
  request: PlanRequest,
  relation: CatalogRelation,
  policy: RelationPolicy,
): Plan {
  const isUpdate = request.method === 'PATCH';
  const action = isUpdate ? 'update' : 'delete';
  requireAction(policy, action, request.method);
  b.touch(relation.name, kindOf(relation), action);
  if (request.prefs.return === 'representation') b.touch(relation.name, kindOf(relation), 'read');
  const rootScope = b.query.scopes.get('');
  if ((rootScope?.conditions.length ?? 0) === 0 && !policy.allowFilterlessWrite) {
    throw new ApiError(
      400,
      '21000',
      `${isUpdate ? 'UPDATE' : 'DELETE'} requires a WHERE clause`,
      `'${relation.name}' does not allow ${isUpdate ? 'updating' : 'deleting'} every row at once`,
      'Add a filter to the request, for example ?id=eq.<id>',
    );
  }
  if (b.query.limit !== null || b.query.offset !== null || rootScope?.order) {
    throw new ApiError(
      400,
      'PGRST100',
      `limit, offset and order are not supported on ${request.method}`,
      null,
      'Filter the rows to change instead, for example ?id=eq.<id>',
    );
  }
  const hidden = b.hidden(relation);
  const target = relationSql(b.catalog, relation);
  const conditions = (rootScope?.conditions ?? []).map((condition) =>
    compileCondition(b, condition, {
      relation,
      hidden,
      alias: 't0',
      embeds: new Map(),
      laterals: [],
      filteringLaterals: [],
    }),
  );
  const where =
    (conditions.length > 0 ? conditions.join(' AND ') : 'TRUE') + b.rowFilter(relation, 't0', 'and');
  let statement: string;
  if (isUpdate) {
    const body = request.body;
    if (!body) throw new ApiError(400, 'PGRST102', 'Empty or invalid json');
    const columns = writableColumns(b, relation, policy, body.columns);
    const sets = columns.map((c) => `${quoteIdent(c.name)} = "pgrst_r".${quoteIdent(c.name)}`);
    statement = `UPDATE ${target} AS "t0" SET ${sets.join(', ')} FROM (SELECT * FROM json_populate_record(NULL::${target}, ${b.param({ kind: 'body' })}::json)) AS "pgrst_r" WHERE ${where} RETURNING "t0".*`;
  } else {
    statement = `DELETE FROM ${target} AS "t0" WHERE ${where} RETURNING "t0".*`;
  }
  const cte = `WITH "pgrst_mut" AS (${statement})`;
  // The root filters chose the rows to change; applied again to the changed rows they could
  // hide them from the representation (PATCH status=closed where status=eq.open).
  b.query = { ...b.query, scopes: withoutRootConditions(b.query.scopes) };
  const result = mutationResult(b, request, relation, cte, isUpdate);
  return {
    kind: isUpdate ? 'update' : 'delete',
    target: relation.name,
    touched: [...b.touched.values()],
    main: b.template(result.text),
    plannedCount: null,
    readOnly: false,
    result: 'rows',
    outputKeys: result.level ? result.level.outputs.map((o) => o.key) : [],
    locationColumns: [],
    hasRootLimit: false,
    finalized: new Map(),
  };
}
