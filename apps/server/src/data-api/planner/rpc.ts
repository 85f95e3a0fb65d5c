/** rpc/<fn>: resolving the function from its argument names and calling it. */
import type { DataApiAllowlist } from '../allowlist.js';
import { quoteIdent, type Catalog, type CatalogFunction, type CatalogRelation } from '../catalog.js';
import { ApiError } from '../errors.js';
import type { Builder } from './common.js';
import { type Plan, type PlanRequest, kindOf } from './common.js';
import { bodyExpression, countExpression, plannedCountTemplate, rootLevel } from './select.js';
import { checkScopesConsumed, levelSelect } from './select-tree.js';

// ---------------------------------------------------------------------------------------------
// rpc

export function resolveFunction(
  catalog: Catalog,
  allowlist: DataApiAllowlist,
  name: string,
  argNames: readonly string[],
  singleUnnamed: boolean,
): CatalogFunction {
  const policy = allowlist.function(name);
  const overloads = policy ? (catalog.functions.get(name) ?? []) : [];
  const given = new Set(argNames);
  const matches = overloads.filter((fn) => {
    if (singleUnnamed)
      return (
        fn.args.length === 1 &&
        fn.args[0].name === '' &&
        (fn.args[0].type === 'json' || fn.args[0].type === 'jsonb')
      );
    const names = new Set(fn.args.map((a) => a.name));
    for (const g of given) if (!names.has(g)) return false;
    return fn.args.every((a) => a.hasDefault || given.has(a.name));
  });
  if (matches.length === 1) return matches[0];
  const signature = `${catalog.schema}.${name}(${argNames.join(', ')})`;
  if (matches.length === 0) {
    throw new ApiError(
      404,
      'PGRST202',
      `Could not find the function ${signature} in the schema cache`,
      `Searched for the function ${catalog.schema}.${name} with ${argNames.length > 0 ? `parameters ${argNames.join(', ')}` : 'no parameters'} or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.`,
      null,
    );
  }
  throw new ApiError(
    300,
    'PGRST203',
    `Could not choose the best candidate function between: ${matches.map((fn) => `${catalog.schema}.${name}(${fn.args.map((a) => `${a.name} => ${a.type}`).join(', ')})`).join(', ')}`,
    null,
    'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
  );
}

export function planRpc(b: Builder, request: PlanRequest): Plan {
  if (!request.rpc) throw new Error('rpc request planned without a resolved function');
  const binding = request.rpc;
  const fn = binding.fn;
  b.touch(fn.name, 'function', 'execute');
  const fnSql = `${quoteIdent(b.catalog.schema)}.${quoteIdent(fn.name)}`;
  const argsSource = request.method === 'POST' ? ({ kind: 'body' } as const) : ({ kind: 'args' } as const);
  let call: string;
  let argsFrom: string | null = null;
  if (binding.wholeBody) {
    call = `${fnSql}(${b.param(argsSource)}::${fn.args[0].type})`;
  } else if (binding.argNames.length === 0) {
    call = `${fnSql}()`;
  } else {
    const args = binding.argNames.map((n) => fn.args.find((a) => a.name === n)!);
    const definitions = args.map((a) => `${quoteIdent(a.name)} ${a.type}`).join(', ');
    argsFrom = `json_to_record(${b.param(argsSource)}::json) AS "pgrst_args"(${definitions})`;
    call = `${fnSql}(${args.map((a) => `${a.variadic ? 'VARIADIC ' : ''}${quoteIdent(a.name)} := "pgrst_args".${quoteIdent(a.name)}`).join(', ')})`;
  }
  const readOnly = request.method !== 'POST';
  const returns = fn.returns;
  const base = (): Omit<Plan, 'main' | 'plannedCount' | 'result' | 'outputKeys' | 'hasRootLimit'> => ({
    kind: 'rpc',
    target: fn.name,
    touched: [...b.touched.values()],
    readOnly,
    locationColumns: [],
    finalized: new Map(),
  });
  if (returns.kind === 'void' || (returns.kind === 'scalar' && !fn.returnsSet)) {
    const hasFilters = [...b.query.scopes.values()].some((s) => s.conditions.length > 0 || s.order);
    if (b.query.selectGiven || hasFilters) {
      throw new ApiError(
        400,
        'PGRST100',
        `'${fn.name}' returns ${returns.kind === 'void' ? 'nothing' : 'a scalar'}: select, filters and order do not apply`,
      );
    }
    const from = argsFrom ? ` FROM ${argsFrom}` : '';
    const text =
      returns.kind === 'void'
        ? `SELECT NULL::int8 AS "total", count(*) AS "page", NULL::text AS "body" FROM (SELECT ${call}${from}) AS "pgrst_call"`
        : `SELECT NULL::int8 AS "total", 1 AS "page", to_json(${call})::text AS "body"${from}`;
    return {
      ...base(),
      main: b.template(text),
      plannedCount: null,
      result: returns.kind === 'void' ? 'void' : 'scalar',
      outputKeys: [],
      hasRootLimit: false,
    };
  }
  const source = argsFrom ? `${argsFrom} CROSS JOIN LATERAL ${call}` : call;
  if (returns.kind === 'scalar') {
    const hasFilters = [...b.query.scopes.values()].some((s) => s.conditions.length > 0 || s.order);
    if (b.query.selectGiven || hasFilters) {
      throw new ApiError(
        400,
        'PGRST100',
        `'${fn.name}' returns a set of scalars: select, filters and order do not apply`,
      );
    }
    const text = `SELECT NULL::int8 AS "total", count(*) AS "page", coalesce(json_agg("pgrst_row"."v"), '[]')::text AS "body" FROM (SELECT "pgrst_scalar"."v" FROM ${source} AS "pgrst_scalar"("v") LIMIT ${b.param({ kind: 'limit' })} OFFSET ${b.param({ kind: 'offset' })}) AS "pgrst_row"`;
    return {
      ...base(),
      main: b.template(text),
      plannedCount: null,
      result: 'rows',
      outputKeys: [],
      hasRootLimit: true,
    };
  }
  const relation: CatalogRelation =
    returns.kind === 'relation'
      ? returns.relation
      : {
          oid: 0,
          name: fn.name,
          kind: 'composite_type',
          columns: returns.columns,
          columnByName: new Map(returns.columns.map((c) => [c.name, c])),
          primaryKey: [],
          uniqueKeys: [],
        };
  const fnPolicy = b.allowlist.function(fn.name);
  const hidden = b.hidden(relation, fnPolicy?.hiddenColumns ?? new Set());
  const exposedRelation = returns.kind === 'relation' && b.allowlist.relation(relation.name) !== null;
  if (exposedRelation) b.touch(relation.name, kindOf(relation), 'read');
  const level = rootLevel(
    b,
    relation,
    source,
    't0',
    hidden,
    exposedRelation ? b.rowFilter(relation, 't0', 'and') : '',
    relation.kind !== 'composite_type',
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
    ...base(),
    touched: [...b.touched.values()],
    main,
    plannedCount,
    result: fn.returnsSet ? 'rows' : 'single',
    outputKeys: level.outputs.map((o) => o.key),
    hasRootLimit: true,
  };
}
