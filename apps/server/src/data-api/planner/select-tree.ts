/** The select tree of every statement that returns rows: levels (root and embeds), embedding, conditions (filters, logic trees, tri-state) and order. */
import { quoteIdent, type CatalogColumn, type CatalogRelation, type Relationship } from '../catalog.js';
import { ApiError, closestName, unknownColumn } from '../errors.js';
import type {
  AggregateFunction,
  Condition,
  FieldRef,
  OrderTerm,
  Predicate,
  QueryScope,
  SelectNode,
  TriStateToken,
  ValueRef,
} from '../query-tree.js';
import type { Builder } from './common.js';
import { kindOf, readSourceSql, relationSql } from './common.js';

// ---------------------------------------------------------------------------------------------
// levels: one relation in the select tree (the root, or an embed)

interface LevelInput {
  readonly relation: CatalogRelation;
  readonly hidden: ReadonlySet<string>;
  /** FROM item without alias: a relation, the mutation CTE, or a function call. */
  readonly source: string;
  readonly alias: string;
  readonly nodes: readonly SelectNode[];
  readonly path: string;
  /** Joins right after the source (many-to-many junction). */
  readonly sourceJoins: string;
  readonly joinConditions: readonly string[];
  /** Row-filter marker for the source relation ('' when the source is not a relation). */
  readonly rowFilter: string;
  readonly allowEmbeds: boolean;
  /**
   * Spread embeds: aggregates of this level apply in the level the spread is part of, so this
   * level selects their inputs and does not group.
   */
  readonly deferAggregates?: boolean;
}

interface AggregateSpec {
  readonly fn: AggregateFunction;
  /** `count()`: counts rows, the expression is not an input. */
  readonly star: boolean;
  /** Resolved type of the result cast, or null. */
  readonly cast: string | null;
}

interface LevelOutput {
  readonly key: string;
  /** The value, or the aggregate's input when `aggregate` is set. */
  readonly expr: string;
  readonly aggregate: AggregateSpec | null;
}

interface LevelEmbed {
  readonly key: string;
  readonly relationship: Relationship;
  readonly toOne: boolean;
  readonly lateralAlias: string;
}

export interface LevelResult {
  readonly outputs: LevelOutput[];
  readonly keysSafe: boolean;
  /** Some outputs are aggregates: the others are the GROUP BY. */
  readonly grouped: boolean;
  readonly from: string;
  readonly countFrom: string;
  readonly where: string;
  readonly orderBy: string;
  readonly scope: QueryScope | undefined;
}

function isToOne(relationship: Relationship): boolean {
  return relationship.cardinality === 'many-to-one' || relationship.cardinality === 'one-to-one';
}

export function buildLevel(b: Builder, input: LevelInput): LevelResult {
  const { relation, alias } = input;
  const scope = b.query.scopes.get(input.path);
  b.consumedScopes.add(input.path);
  const outputs: LevelOutput[] = [];
  const laterals: string[] = [];
  const filteringLaterals: string[] = [];
  const embeds = new Map<string, LevelEmbed>();
  const extraWhere: string[] = [];
  let keysSafe = true;

  const addOutput = (
    key: string,
    expr: string,
    fromCatalog: boolean,
    aggregate: AggregateSpec | null = null,
  ): void => {
    if (!fromCatalog) keysSafe = false;
    outputs.push({ key, expr, aggregate });
  };
  /** Embedded resources (json) are grouping columns when the level aggregates: grouped as jsonb. */
  const embedOutputs: number[] = [];

  for (const node of input.nodes) {
    switch (node.kind) {
      case 'star':
        for (const column of relation.columns) {
          if (input.hidden.has(column.name)) continue;
          addOutput(column.name, `${quoteIdent(alias)}.${quoteIdent(column.name)}`, true);
        }
        break;
      case 'column': {
        const legacyCount =
          node.aggregate === null &&
          node.field.column === 'count' &&
          node.field.json.length === 0 &&
          !relation.columnByName.has('count');
        if ((node.aggregate === 'count' && node.field.column === '*') || legacyCount) {
          // `count()`, and PostgREST's older `count` (no parentheses, no such column).
          const key = node.alias ?? 'count';
          const cast = legacyCount ? node.cast : node.aggregateCast;
          addOutput(key, 'NULL', key === 'count' || relation.columnByName.has(key), {
            fn: 'count',
            star: true,
            cast: cast ? resolveCast(b, cast) : null,
          });
          break;
        }
        const column = resolveColumn(relation, input.hidden, node.field.column);
        let expr = fieldSql(b, alias, column, node.field);
        if (node.cast) expr = `CAST(${expr} AS ${resolveCast(b, node.cast)})`;
        if (node.aggregate) {
          const key = node.alias ?? node.aggregate;
          addOutput(key, expr, key === node.aggregate || relation.columnByName.has(key), {
            fn: node.aggregate,
            star: false,
            cast: node.aggregateCast ? resolveCast(b, node.aggregateCast) : null,
          });
          break;
        }
        const key =
          node.alias ??
          (node.field.json.length > 0 ? node.field.json[node.field.json.length - 1].key : column.name);
        addOutput(key, expr, key === column.name || relation.columnByName.has(key));
        break;
      }
      case 'embed': {
        if (!input.allowEmbeds) {
          throw new ApiError(
            400,
            'PGRST200',
            `Could not find a relationship between '${relation.name}' and '${node.name}' in the schema cache`,
            `'${relation.name}' is not a relation with foreign keys`,
          );
        }
        const relationship = resolveEmbed(b, relation, node);
        const toOne = isToOne(relationship);
        const key = node.alias ?? node.name;
        const childPath = input.path === '' ? key : `${input.path}.${key}`;
        const lateralAlias = b.alias('e');
        const childAlias = b.alias('t');
        const target = relationship.target;
        b.touch(target.name, kindOf(target), 'read');
        let sourceJoins = '';
        const joinConditions: string[] = [];
        if (relationship.junction) {
          const junction = relationship.junction;
          b.touch(junction.relation.name, kindOf(junction.relation), 'read');
          const junctionAlias = b.alias('j');
          const on = junction.targetKey.fromColumns.map(
            (c, i) =>
              `${quoteIdent(junctionAlias)}.${quoteIdent(c)} = ${quoteIdent(childAlias)}.${quoteIdent(junction.targetKey.toColumns[i])}`,
          );
          sourceJoins = ` JOIN ${relationSql(b.catalog, junction.relation)} AS ${quoteIdent(junctionAlias)} ON ${on.join(' AND ')}${b.rowFilter(junction.relation, junctionAlias, 'and')}`;
          for (let i = 0; i < junction.sourceKey.fromColumns.length; i++) {
            joinConditions.push(
              `${quoteIdent(junctionAlias)}.${quoteIdent(junction.sourceKey.fromColumns[i])} = ${quoteIdent(alias)}.${quoteIdent(junction.sourceKey.toColumns[i])}`,
            );
          }
        } else {
          for (let i = 0; i < relationship.sourceColumns.length; i++) {
            joinConditions.push(
              `${quoteIdent(childAlias)}.${quoteIdent(relationship.targetColumns[i])} = ${quoteIdent(alias)}.${quoteIdent(relationship.sourceColumns[i])}`,
            );
          }
        }
        const child = buildLevel(b, {
          relation: target,
          hidden: b.hidden(target),
          source: readSourceSql(b, target),
          alias: childAlias,
          nodes: node.select,
          path: childPath,
          sourceJoins,
          joinConditions,
          rowFilter: b.rowFilter(target, childAlias, 'and'),
          allowEmbeds: true,
          deferAggregates: node.spread,
        });
        const inner = node.join === 'inner';
        const rowAlias = b.alias('s');
        if (node.spread) {
          if (!toOne) {
            throw new ApiError(
              400,
              'PGRST119',
              `A spread operation on '${node.name}' is not possible`,
              `'${relation.name}' and '${target.name}' do not form a many-to-one or one-to-one relationship`,
            );
          }
          const positional = child.outputs.map((o, i) => ({ key: o.key, expr: o.expr, column: `c${i}` }));
          const childSelect = levelSelect(
            child,
            positional.map((p) => ({ key: p.column, expr: p.expr })),
            null,
            null,
          );
          laterals.push(
            `${inner ? 'JOIN' : 'LEFT JOIN'} LATERAL (${childSelect}) AS ${quoteIdent(lateralAlias)} ON TRUE`,
          );
          if (inner) filteringLaterals.push(laterals[laterals.length - 1]);
          // Aggregates of a spread resource apply here, over its columns (they were not grouped there).
          child.outputs.forEach((o, i) =>
            addOutput(
              o.key,
              `${quoteIdent(lateralAlias)}.${quoteIdent(positional[i].column)}`,
              child.keysSafe,
              o.aggregate,
            ),
          );
        } else {
          const childSelect = levelSelect(
            child,
            null,
            embedLimit(b, child.scope, !toOne),
            embedOffset(b, child.scope),
          );
          const json = rowJson(b, child, rowAlias, !toOne);
          const lateral = toOne
            ? `${inner ? 'JOIN' : 'LEFT JOIN'} LATERAL (SELECT ${json} AS "v" FROM (${childSelect}) AS ${quoteIdent(rowAlias)}) AS ${quoteIdent(lateralAlias)} ON TRUE`
            : `${inner ? 'JOIN' : 'LEFT JOIN'} LATERAL (SELECT json_agg(${json}) AS "v" FROM (${childSelect}) AS ${quoteIdent(rowAlias)}) AS ${quoteIdent(lateralAlias)} ON ${inner ? `${quoteIdent(lateralAlias)}."v" IS NOT NULL` : 'TRUE'}`;
          laterals.push(lateral);
          if (inner) filteringLaterals.push(lateral);
          const keyFromCatalog = node.alias === null || node.alias === node.name;
          embedOutputs.push(outputs.length);
          addOutput(
            key,
            toOne
              ? `${quoteIdent(lateralAlias)}."v"`
              : `coalesce(${quoteIdent(lateralAlias)}."v", '[]'::json)`,
            keyFromCatalog,
          );
        }
        embeds.set(key, { key, relationship, toOne, lateralAlias });
        break;
      }
    }
  }

  const conditions: string[] = [...input.joinConditions];
  for (const condition of scope?.conditions ?? []) {
    const compiled = compileCondition(b, condition, {
      relation,
      hidden: input.hidden,
      alias,
      embeds,
      laterals,
      filteringLaterals,
    });
    conditions.push(compiled);
  }
  conditions.push(...extraWhere);
  const where = (conditions.length > 0 ? conditions.join(' AND ') : 'TRUE') + input.rowFilter;
  const orderBy = compileOrder(b, scope?.order ?? null, { relation, hidden: input.hidden, alias, embeds });
  const base = `${input.source} AS ${quoteIdent(alias)}${input.sourceJoins}`;
  const grouped = !input.deferAggregates && outputs.some((o) => o.aggregate !== null);
  if (grouped) {
    for (const index of embedOutputs) {
      outputs[index] = { ...outputs[index], expr: `(${outputs[index].expr})::jsonb` };
    }
  }
  return {
    outputs,
    keysSafe,
    grouped,
    from: [base, ...laterals].join(' '),
    countFrom: [base, ...filteringLaterals].join(' '),
    where,
    orderBy,
    scope,
  };
}

/** An embed's `limit`; a to-many embed (an array) holds at most `maxRows` rows whatever it asks. */
function embedLimit(b: Builder, scope: QueryScope | undefined, toMany: boolean): string | null {
  const cap = toMany && Number.isFinite(b.maxRows) ? b.constant(b.maxRows) : null;
  const asked = scope?.limit ? b.value(scope.limit) : null;
  if (cap && asked) return `LEAST(${asked}::bigint, ${cap}::bigint)`;
  return asked ?? cap;
}

function embedOffset(b: Builder, scope: QueryScope | undefined): string | null {
  return scope?.offset ? b.value(scope.offset) : null;
}

/** `SELECT outputs FROM … WHERE … ORDER BY … LIMIT … OFFSET …`; output columns named by key or positionally. */
export function levelSelect(
  level: LevelResult,
  columns: ReadonlyArray<{ key: string; expr: string }> | null,
  limit: string | null,
  offset: string | null,
): string {
  const items = columns ?? selectColumns(level);
  const list = items.map((c) => `${c.expr} AS ${quoteIdent(c.key)}`).join(', ');
  return (
    `SELECT ${list} FROM ${level.from} WHERE ${level.where}` +
    (columns ? '' : groupByClause(level)) +
    (level.orderBy ? ` ORDER BY ${level.orderBy}` : '') +
    (limit ? ` LIMIT ${limit}` : '') +
    (offset ? ` OFFSET ${offset}` : '')
  );
}

/** Output columns as the subquery names them: by key when every key is a catalog name, else c0, c1, … */
function selectColumns(level: LevelResult): Array<{ key: string; expr: string }> {
  return level.outputs.map((o, i) => ({
    key: level.keysSafe ? o.key : `c${i}`,
    expr: level.grouped ? outputSql(o) : o.expr,
  }));
}

/** An output's value: its expression, or the aggregate over it. */
function outputSql(output: LevelOutput): string {
  const aggregate = output.aggregate;
  if (!aggregate) return output.expr;
  const call = `${aggregate.fn}(${aggregate.star ? '*' : output.expr})`;
  return aggregate.cast ? `CAST(${call} AS ${aggregate.cast})` : call;
}

/** ` GROUP BY 1, 3`: every non-aggregate output of a grouped level, by position in the select list. */
function groupByClause(level: LevelResult): string {
  if (!level.grouped) return '';
  const positions: number[] = [];
  level.outputs.forEach((o, i) => {
    if (!o.aggregate) positions.push(i + 1);
  });
  return positions.length > 0 ? ` GROUP BY ${positions.join(', ')}` : '';
}

function resolveCast(b: Builder, name: string): string {
  const type = b.catalog.resolveType(name);
  if (!type) throw new ApiError(400, '42704', `type "${name}" does not exist`);
  return type;
}

const MAX_PAIRS = 50; // json_build_object takes at most 100 arguments

/** The JSON object for one row of a level subquery aliased `rowAlias`. */
export function rowJson(b: Builder, level: LevelResult, rowAlias: string, forAggregate: boolean): string {
  if (level.keysSafe) return forAggregate ? quoteIdent(rowAlias) : `row_to_json(${quoteIdent(rowAlias)})`;
  const pairs = level.outputs.map(
    (o, i) => `${b.constant(o.key)}::text, ${quoteIdent(rowAlias)}.${quoteIdent(`c${i}`)}`,
  );
  if (pairs.length === 0) return `'{}'::json`;
  if (pairs.length <= MAX_PAIRS) return `json_build_object(${pairs.join(', ')})`;
  const chunks: string[] = [];
  for (let i = 0; i < pairs.length; i += MAX_PAIRS)
    chunks.push(`jsonb_build_object(${pairs.slice(i, i + MAX_PAIRS).join(', ')})`);
  return `(${chunks.join(' || ')})::json`;
}

function resolveColumn(relation: CatalogRelation, hidden: ReadonlySet<string>, name: string): CatalogColumn {
  const column = relation.columnByName.get(name);
  if (!column || hidden.has(name)) {
    const visible = relation.columns.filter((c) => !hidden.has(c.name)).map((c) => c.name);
    throw unknownColumn(relation.name, name, closestName(name, visible));
  }
  return column;
}

/** `"t"."col"` followed by its JSON path; keys are parameters. */
function fieldSql(
  b: Builder,
  alias: string,
  column: CatalogColumn,
  field: FieldRef,
  forceText = false,
): string {
  let expr = `${quoteIdent(alias)}.${quoteIdent(column.name)}`;
  if (field.json.length === 0) return expr;
  if (column.category !== 'json') {
    throw new ApiError(
      404,
      '42883',
      `operator does not exist: ${column.type} ${field.json[0].arrow} unknown`,
      null,
      `'${column.name}' is not a json column; "->" and "->>" apply to json and jsonb columns only.`,
    );
  }
  field.json.forEach((step, i) => {
    const arrow = forceText && i === field.json.length - 1 ? '->>' : step.arrow;
    const key = `${b.constant(step.key)}::${step.isIndex ? 'int' : 'text'}`;
    expr = `${expr}${arrow}${key}`;
  });
  return `(${expr})`;
}

function fieldIsText(column: CatalogColumn, field: FieldRef): boolean {
  if (field.json.length > 0) return field.json[field.json.length - 1].arrow === '->>';
  return column.category === 'string';
}

// ---------------------------------------------------------------------------------------------
// embedding: which relationship does `name!hint` mean?

function resolveEmbed(
  b: Builder,
  source: CatalogRelation,
  node: Extract<SelectNode, { kind: 'embed' }>,
): Relationship {
  if (source.kind === 'composite_type') {
    throw new ApiError(
      400,
      'PGRST200',
      `Could not find a relationship between '${source.name}' and '${node.name}' in the schema cache`,
      null,
    );
  }
  const exposed = (relation: CatalogRelation): boolean => {
    const policy = b.allowlist.relation(relation.name);
    return policy !== null && policy.actions.has('read');
  };
  const all = b.catalog
    .relationships(source)
    .filter((r) => exposed(r.target) && (!r.junction || exposed(r.junction.relation)));
  let candidates = all.filter(
    (r) =>
      r.target.name === node.name ||
      (r.fkOnSource && !r.junction && r.sourceColumns.length === 1 && r.sourceColumns[0] === node.name),
  );
  if (node.hint) {
    const hint = node.hint;
    candidates = candidates.filter((r) => {
      // As PostgREST: a many-to-many only by its junction's name; any other relationship by its
      // constraint name, or, for a single-column key, by the column on either end.
      if (r.junction) return r.junction.relation.name === hint;
      return (
        r.foreignKey.name === hint ||
        (r.foreignKey.fromColumns.length === 1 &&
          (r.foreignKey.fromColumns[0] === hint || r.foreignKey.toColumns[0] === hint))
      );
    });
  }
  if (candidates.length > 1) {
    // As PostgREST 10 and later: where a table's own foreign key resolves the embed, the views
    // over that table (which inherit the key) are not offered beside it. Naming a view still
    // embeds the view.
    const direct = candidates.filter((r) => !r.junction && r.target.kind === 'table');
    if (direct.length > 0 && direct.length < candidates.length) candidates = direct;
  }
  if (candidates.length === 1) return candidates[0];
  if (candidates.length === 0) {
    const names = new Set(all.map((r) => r.target.name));
    const suggestion = closestName(node.name, names);
    throw new ApiError(
      400,
      'PGRST200',
      `Could not find a relationship between '${source.name}' and '${node.name}' in the schema cache`,
      `Searched for a foreign key relationship between '${source.name}' and '${node.name}'${node.hint ? ` using the hint '${node.hint}'` : ''} in the schema '${b.catalog.schema}', but no matches were found.`,
      suggestion ? `Perhaps you meant '${suggestion}' instead of '${node.name}'.` : null,
    );
  }
  const details = candidates.map((r) => ({
    cardinality: r.cardinality,
    embedding: `${source.name} with ${r.target.name}`,
    relationship: r.junction
      ? `${r.junction.relation.name} using ${r.junction.sourceKey.name}(${r.junction.sourceKey.fromColumns.join(', ')}) and ${r.junction.targetKey.name}(${r.junction.targetKey.fromColumns.join(', ')})`
      : `${r.foreignKey.name} using ${r.foreignKey.from.name}(${r.foreignKey.fromColumns.join(', ')}) and ${r.foreignKey.to.name}(${r.foreignKey.toColumns.join(', ')})`,
  }));
  const hints = candidates.map(
    (r) => `'${node.name}!${r.junction ? r.junction.relation.name : r.foreignKey.name}'`,
  );
  throw new ApiError(
    300,
    'PGRST201',
    `Could not embed because more than one relationship was found for '${source.name}' and '${node.name}'`,
    details,
    `Try changing '${node.name}' to one of the following: ${[...new Set(hints)].join(', ')}. Find the desired relationship in the 'details' key.`,
  );
}

// ---------------------------------------------------------------------------------------------
// conditions

interface ConditionContext {
  readonly relation: CatalogRelation;
  readonly hidden: ReadonlySet<string>;
  readonly alias: string;
  readonly embeds: ReadonlyMap<string, LevelEmbed>;
  readonly laterals: string[];
  readonly filteringLaterals: string[];
}

export const OPERATOR_SQL: Record<string, string> = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  like: 'LIKE',
  ilike: 'ILIKE',
  match: '~',
  imatch: '~*',
  isdistinct: 'IS DISTINCT FROM',
  cs: '@>',
  cd: '<@',
  ov: '&&',
  sl: '<<',
  sr: '>>',
  nxr: '&<',
  nxl: '&>',
  adj: '-|-',
};

const TEXT_OPERATORS = new Set(['like', 'ilike', 'match', 'imatch']);

export function compileCondition(b: Builder, condition: Condition, ctx: ConditionContext): string {
  switch (condition.kind) {
    case 'logic': {
      const parts = condition.children.map((child) => compileCondition(b, child, ctx));
      const joined = `(${parts.join(condition.op === 'and' ? ' AND ' : ' OR ')})`;
      return condition.negate ? `NOT ${joined}` : joined;
    }
    case 'tristate':
      return compileTriState(b, condition.field, condition.tokens, ctx);
    case 'embedNull':
      return embedNullSql(condition.embed, condition.isNull, ctx);
    case 'filter': {
      const { field, predicate } = condition;
      if (
        field.json.length === 0 &&
        predicate.kind === 'is' &&
        (predicate.value === 'null' || predicate.value === 'not_null') &&
        ctx.embeds.has(field.column) &&
        !ctx.relation.columnByName.has(field.column)
      ) {
        const isNull = (predicate.value === 'null') !== condition.negate;
        return embedNullSql(field.column, isNull, ctx);
      }
      const column = resolveColumn(ctx.relation, ctx.hidden, field.column);
      let sql = predicateSql(b, ctx.alias, column, field, predicate);
      if (
        (predicate.kind === 'in' ||
          (predicate.kind === 'op' && predicate.op === 'eq' && !predicate.quantifier)) &&
        containmentApplies(b, ctx.relation, column, field, false)
      ) {
        sql = withContainment(
          b,
          ctx.alias,
          column,
          field,
          sql,
          predicate.kind === 'in' ? predicate.values : predicate.value,
        );
      }
      return condition.negate ? `NOT (${sql})` : sql;
    }
  }
}

function embedNullSql(embed: string, isNull: boolean, ctx: ConditionContext): string {
  const found = ctx.embeds.get(embed);
  if (!found) {
    throw new ApiError(
      400,
      'PGRST108',
      `'${embed}' is not an embedded resource in this request`,
      null,
      `Verify that '${embed}' is included in the 'select' query parameter.`,
    );
  }
  // The lateral must be part of the counted rows too.
  const lateral = ctx.laterals.find((l) => l.includes(`AS ${quoteIdent(found.lateralAlias)} ON`));
  if (lateral && !ctx.filteringLaterals.includes(lateral)) ctx.filteringLaterals.push(lateral);
  return `${quoteIdent(found.lateralAlias)}."v" IS ${isNull ? '' : 'NOT '}NULL`;
}

/**
 * Whether `field` reads a jsonb column's object keys, the last as text (`->>`), where a GIN index
 * can answer a containment (`@>`): an equality `tags->>'env' = 'staging'` is then written with a
 * containment condition the index finds (`withContainment`). Other columns, and paths through an
 * array index, keep the plain comparison.
 */
function containmentApplies(
  b: Builder,
  relation: CatalogRelation,
  column: CatalogColumn,
  field: FieldRef,
  forceText: boolean,
): boolean {
  const last = field.json[field.json.length - 1];
  return (
    last !== undefined &&
    (forceText || last.arrow === '->>') &&
    field.json.every((step) => !step.isIndex) &&
    column.baseType === 'jsonb' &&
    b.catalog.hasContainmentIndex(relation, column.name)
  );
}

/**
 * `equality` (`<column> path ->> key = value`, or `= ANY(values)`) as
 * `(<column> @> ANY(docs) OR NULL) AND coalesce(equality, true)`, where docs are the documents a
 * row's column contains whenever the equality holds and only when the path holds a non-null
 * value (`containmentDocuments`: the value as a JSON string under the path, and the non-string
 * JSON whose text it is, so `{"n": 5}` still matches `n = '5'`).
 *
 * Exactly the equality in SQL's three-valued logic, so it stays right under NOT and inside
 * `or=`: where the equality is true the containment is too; where it is false the coalesce is
 * false; where it is NULL (no key, JSON null) the containment is not true, and `OR NULL` makes
 * it NULL rather than FALSE. In a WHERE clause PostgreSQL drops the `OR NULL` (NULL and FALSE filter
 * alike) and can use the containment as an index condition. The coalesce is for the estimates:
 * the planner rates an equality on an expression without statistics at 0.5% of the rows and a
 * coalesce at 50%, so the containment's own estimate (from the column's statistics) decides, and
 * a broad tag (a third of the items) is not mistaken for a rare one.
 */
function withContainment(
  b: Builder,
  alias: string,
  column: CatalogColumn,
  field: FieldRef,
  equality: string,
  value: ValueRef,
): string {
  const documents = b.param({ kind: 'containment', slot: value.slot, path: field.json });
  const lhs = `${quoteIdent(alias)}.${quoteIdent(column.name)}`;
  return `((${lhs} @> ANY(${documents}::jsonb[]) OR NULL) AND coalesce(${equality}, true))`;
}

function predicateSql(
  b: Builder,
  alias: string,
  column: CatalogColumn,
  field: FieldRef,
  predicate: Predicate,
): string {
  const lhs = fieldSql(b, alias, column, field);
  switch (predicate.kind) {
    case 'is':
      switch (predicate.value) {
        case 'null':
          return `${lhs} IS NULL`;
        case 'not_null':
          return `${lhs} IS NOT NULL`;
        case 'true':
          return `${lhs} IS TRUE`;
        case 'false':
          return `${lhs} IS FALSE`;
        case 'unknown':
          return `${lhs} IS UNKNOWN`;
      }
      break;
    case 'in':
      return `${lhs} = ANY(${b.value(predicate.values)})`;
    case 'fts': {
      const fn = {
        fts: 'to_tsquery',
        plfts: 'plainto_tsquery',
        phfts: 'phraseto_tsquery',
        wfts: 'websearch_to_tsquery',
      }[predicate.op];
      const language = predicate.language ? `${b.value(predicate.language)}::regconfig, ` : '';
      const vector =
        column.category === 'tsvector' && field.json.length === 0
          ? lhs
          : `to_tsvector(${language}${lhs}::text)`;
      return `${vector} @@ ${fn}(${language}${b.value(predicate.value)}::text)`;
    }
    case 'op': {
      const operand = TEXT_OPERATORS.has(predicate.op) && !fieldIsText(column, field) ? `${lhs}::text` : lhs;
      const op = OPERATOR_SQL[predicate.op];
      if (predicate.quantifier) {
        return `${operand} ${op} ${predicate.quantifier.toUpperCase()}(${b.value(predicate.value)})`;
      }
      return `${operand} ${op} ${b.value(predicate.value)}`;
    }
  }
  throw new ApiError(400, 'PGRST100', 'Unsupported filter');
}

function compileTriState(
  b: Builder,
  field: FieldRef,
  tokens: readonly TriStateToken[],
  ctx: ConditionContext,
): string {
  const column = resolveColumn(ctx.relation, ctx.hidden, field.column);
  const onJsonPath = field.json.length > 0;
  const lhs = fieldSql(b, ctx.alias, column, field, true);
  const category = onJsonPath ? 'string' : column.category;
  const textLhs = category === 'string' ? lhs : `${lhs}::text`;
  const containment = onJsonPath && containmentApplies(b, ctx.relation, column, field, true);
  const includes: string[] = [];
  const excludes: string[] = [];
  for (const token of tokens) {
    let sql: string;
    if (category === 'datetime') {
      switch (token.kind) {
        case 'compare':
          sql = `${lhs} ${token.op} ${b.param({ kind: 'timestamp', slot: token.value.slot })}::timestamptz`;
          break;
        case 'range':
          sql = `${lhs} BETWEEN ${b.param({ kind: 'timestamp', slot: token.from.slot })}::timestamptz AND ${b.param({ kind: 'timestamp', slot: token.to.slot })}::timestamptz`;
          break;
        case 'glob':
          sql = `${textLhs} LIKE ${b.value(token.value)}`;
          break;
        case 'eq':
          sql = `${lhs} = ${b.param({ kind: 'timestamp', slot: token.value.slot })}::timestamptz`;
          break;
      }
    } else if (category === 'numeric') {
      switch (token.kind) {
        case 'compare':
          sql = `${lhs} ${token.op} ${b.value(token.value)}`;
          break;
        case 'range':
          sql = `${lhs} BETWEEN ${b.value(token.from)} AND ${b.value(token.to)}`;
          break;
        case 'glob':
          sql = `${textLhs} LIKE ${b.value(token.value)}`;
          break;
        case 'eq':
          sql = `${lhs} = ${b.value(token.value)}`;
          break;
      }
    } else if (category === 'array') {
      const element = `${quoteIdent(b.alias('u'))}`;
      switch (token.kind) {
        case 'glob':
          sql = `EXISTS (SELECT 1 FROM unnest(${lhs}) AS ${element}(x) WHERE ${element}.x::text LIKE ${b.value(token.value)})`;
          break;
        case 'eq':
          sql = `${b.value(token.value)} = ANY(${lhs}::text[])`;
          break;
        default:
          sql = `${b.value(token.raw)} = ANY(${lhs}::text[])`;
      }
    } else if (category === 'json') {
      // `labels.filter=app____nginx` (app:nginx): a key/value pair of the object; a bare key: the key exists.
      const value = token.kind === 'glob' || token.kind === 'eq' ? token.value : token.raw;
      const pair = b.param({ kind: 'value', slot: value.slot });
      const op = token.kind === 'glob' ? 'LIKE' : '=';
      sql = `(CASE WHEN strpos(${pair}::text, ':') > 0 THEN (${lhs}::jsonb ->> split_part(${pair}::text, ':', 1)) ${op} substr(${pair}::text, strpos(${pair}::text, ':') + 1) ELSE ${lhs}::jsonb ? ${pair}::text END)`;
    } else {
      switch (token.kind) {
        case 'glob':
          sql = `${textLhs} LIKE ${b.value(token.value)}`;
          break;
        default: {
          const value = token.kind === 'eq' ? token.value : token.raw;
          sql = `${textLhs} = ${b.value(value)}`;
          if (containment) sql = withContainment(b, ctx.alias, column, field, sql, value);
        }
      }
    }
    if (token.exclude) excludes.push(`NOT (${sql})`);
    else includes.push(sql);
  }
  const parts: string[] = [];
  if (includes.length > 0) parts.push(`(${includes.join(' OR ')})`);
  parts.push(...excludes);
  return parts.length > 0 ? `(${parts.join(' AND ')})` : 'TRUE';
}

// ---------------------------------------------------------------------------------------------
// order

interface OrderContext {
  readonly relation: CatalogRelation;
  readonly hidden: ReadonlySet<string>;
  readonly alias: string;
  readonly embeds: ReadonlyMap<string, LevelEmbed>;
}

function compileOrder(b: Builder, terms: readonly OrderTerm[] | null, ctx: OrderContext): string {
  if (!terms || terms.length === 0) return '';
  return terms
    .map((term) => {
      let expr: string;
      if (term.relation) {
        const embed = ctx.embeds.get(term.relation);
        if (!embed) {
          throw new ApiError(
            400,
            'PGRST108',
            `'${term.relation}' is not an embedded resource in this request`,
            null,
            `Verify that '${term.relation}' is included in the 'select' query parameter.`,
          );
        }
        if (!embed.toOne || embed.relationship.junction) {
          throw new ApiError(
            400,
            'PGRST118',
            `A related order on '${term.relation}' is not possible`,
            `'${ctx.relation.name}' and '${embed.relationship.target.name}' do not form a many-to-one or one-to-one relationship`,
          );
        }
        const target = embed.relationship.target;
        const column = resolveColumn(target, b.hidden(target), term.field.column);
        const orderAlias = b.alias('o');
        const conditions = embed.relationship.targetColumns.map(
          (c, i) =>
            `${quoteIdent(orderAlias)}.${quoteIdent(c)} = ${quoteIdent(ctx.alias)}.${quoteIdent(embed.relationship.sourceColumns[i])}`,
        );
        expr = `(SELECT ${fieldSql(b, orderAlias, column, term.field)} FROM ${readSourceSql(b, target)} AS ${quoteIdent(orderAlias)} WHERE ${conditions.join(' AND ')}${b.rowFilter(target, orderAlias, 'and')} LIMIT 1)`;
      } else {
        const column = resolveColumn(ctx.relation, ctx.hidden, term.field.column);
        expr = fieldSql(b, ctx.alias, column, term.field);
      }
      return `${expr}${term.direction === 'desc' ? ' DESC' : term.direction === 'asc' ? ' ASC' : ''}${term.nulls === 'first' ? ' NULLS FIRST' : term.nulls === 'last' ? ' NULLS LAST' : ''}`;
    })
    .join(', ');
}

export function checkScopesConsumed(b: Builder): void {
  for (const path of b.query.scopes.keys()) {
    if (!b.consumedScopes.has(path)) {
      const first =
        path.split('.').find((_, i, parts) => !b.consumedScopes.has(parts.slice(0, i + 1).join('.'))) ?? path;
      throw new ApiError(
        400,
        'PGRST108',
        `'${first}' is not an embedded resource in this request`,
        null,
        `Verify that '${first}' is included in the 'select' query parameter.`,
      );
    }
  }
}
