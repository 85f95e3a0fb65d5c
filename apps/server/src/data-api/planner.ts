/**
 * Stage 2: query tree + live catalog → one SQL statement with bound parameters.
 *
 * Every identifier in the SQL comes from the catalog (quoted); every client-supplied value,
 * including JSON keys and output names that are not catalog identifiers, is a parameter. The
 * plan refers to request values by slot only, so it is cached by request shape and reused.
 *
 * Row-level restrictions are not known when a plan is made (they depend on the user): the
 * statement carries a marker where each relation's restriction goes, and `finalizePlan`
 * replaces the markers with compiled, parameterised SQL (cached by the restrictions' shape).
 */
import type { DataApiAction, DataApiAllowlist, RelationPolicy } from './allowlist.js';
import {
  quoteIdent,
  type Catalog,
  type CatalogColumn,
  type CatalogFunction,
  type CatalogRelation,
  type Relationship,
} from './catalog.js';
import { ApiError, closestName, unknownColumn, unknownRelation, unknownWriteColumn } from './errors.js';
import type {
  AcceptedMedia,
  AggregateFunction,
  Condition,
  FieldRef,
  OrderTerm,
  ParsedQuery,
  Predicate,
  Preferences,
  QueryScope,
  SelectNode,
  TriStateToken,
  ValueRef,
} from './query-tree.js';
import type { RowFilter } from './row-filters.js';

export type ParamSource =
  | { readonly kind: 'value'; readonly slot: number }
  /** A tri-state bound on a timestamp column: date math evaluated at bind time. */
  | { readonly kind: 'timestamp'; readonly slot: number }
  | { readonly kind: 'const'; readonly value: string | number | null }
  | { readonly kind: 'body' }
  | { readonly kind: 'args' }
  | { readonly kind: 'limit' }
  | { readonly kind: 'offset' }
  | {
      readonly kind: 'rowFilter';
      readonly relation: string;
      readonly index: number;
      readonly convert: RowFilterConvert;
    };

export type RowFilterConvert = 'text' | 'json' | 'array';

export interface RowFilterSlot {
  readonly id: number;
  readonly relation: CatalogRelation;
  readonly alias: string;
  /** 'and': restrict the rows read or changed; 'violation': true for a written row outside the restriction. */
  readonly mode: 'and' | 'violation';
}

export interface StatementTemplate {
  readonly text: string;
  readonly params: readonly ParamSource[];
  readonly slots: readonly RowFilterSlot[];
}

export interface FinalStatement {
  readonly text: string;
  readonly params: readonly ParamSource[];
}

export interface FinalizedPlan {
  readonly main: FinalStatement;
  readonly plannedCount: FinalStatement | null;
  /** Prepared-statement name of `main` (unique in the process). */
  readonly name: string;
  /** Times bound: a statement is prepared once it is used again. */
  uses: number;
}

export interface Touched {
  readonly relation: string;
  readonly kind: 'table' | 'view' | 'function';
  readonly action: DataApiAction;
}

export type PlanKind = 'read' | 'insert' | 'put' | 'update' | 'delete' | 'rpc';

export interface Plan {
  readonly kind: PlanKind;
  readonly target: string;
  readonly touched: readonly Touched[];
  readonly main: StatementTemplate;
  /** `Prefer: count=planned|estimated`: an EXPLAIN of the counted rows. */
  readonly plannedCount: StatementTemplate | null;
  readonly readOnly: boolean;
  /** rows: JSON array body; single: one object (rpc returning one row); scalar; void. */
  readonly result: 'rows' | 'single' | 'scalar' | 'void';
  /** Output keys of the root rows (the CSV header). */
  readonly outputKeys: readonly string[];
  /** Columns of the Location header (headers-only inserts). */
  readonly locationColumns: readonly string[];
  readonly hasRootLimit: boolean;
  /** Finalized statements by row-filter shape. */
  readonly finalized: Map<string, FinalizedPlan>;
}

export interface BodyShape {
  /** Columns written: `columns=` or the keys of the payload objects. */
  readonly columns: readonly string[];
  readonly rows: number;
}

export interface PlanRequest {
  readonly method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly target: { readonly kind: 'relation' | 'function'; readonly name: string };
  readonly query: ParsedQuery;
  readonly prefs: Preferences;
  readonly media: AcceptedMedia;
  readonly body: BodyShape | null;
  /** rpc: the function chosen for the request's argument names. */
  readonly rpc: RpcBinding | null;
  readonly maxRows: number;
}

const MARK = '\u0000';

export function planRequest(catalog: Catalog, allowlist: DataApiAllowlist, request: PlanRequest): Plan {
  const builder = new Builder(catalog, allowlist, request.query);
  if (request.target.kind === 'function') return planRpc(builder, request);
  const relation = resolveRelation(catalog, allowlist, request.target.name);
  const policy = allowlist.relation(relation.name)!;
  switch (request.method) {
    case 'GET':
    case 'HEAD':
      return planRead(builder, request, relation, policy);
    case 'POST':
      return planInsert(builder, request, relation, policy);
    case 'PUT':
      return planPut(builder, request, relation, policy);
    case 'PATCH':
    case 'DELETE':
      return planUpdateOrDelete(builder, request, relation, policy);
  }
}

export function resolveRelation(
  catalog: Catalog,
  allowlist: DataApiAllowlist,
  name: string,
): CatalogRelation {
  const policy = allowlist.relation(name);
  const relation = catalog.relations.get(name);
  if (!policy || !relation || relation.kind === 'composite_type') throw unknownRelation(catalog.schema, name);
  return relation;
}

function requireAction(
  policy: RelationPolicy,
  action: 'read' | 'insert' | 'update' | 'delete',
  method: string,
): void {
  if (!policy.actions.has(action)) {
    throw new ApiError(
      405,
      'PGRST117',
      `Unsupported HTTP method: ${method}`,
      `'${policy.name}' does not allow ${action === 'read' ? 'reading' : action === 'insert' ? 'inserting' : action === 'update' ? 'updating' : 'deleting'} through the data API`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// builder state

class Builder {
  readonly params: ParamSource[] = [];
  readonly slots: RowFilterSlot[] = [];
  readonly touched = new Map<string, Touched>();
  readonly consumedScopes = new Set<string>();
  private aliasCounter = 0;
  private readonly sharedConstants = new Map<string, string>();
  private readonly hiddenCache = new Map<string, ReadonlySet<string>>();

  constructor(
    readonly catalog: Catalog,
    readonly allowlist: DataApiAllowlist,
    /** Replaced (not mutated) once the root filters of an UPDATE/DELETE are compiled. */
    public query: ParsedQuery,
  ) {}

  param(source: ParamSource): string {
    this.params.push(source);
    return `$${this.params.length}`;
  }

  value(ref: ValueRef): string {
    return this.param({ kind: 'value', slot: ref.slot });
  }

  /**
   * A constant parameter. Equal text constants (JSON keys, output names) share one parameter, so
   * the same JSON path in the select list, GROUP BY and ORDER BY is the same expression.
   */
  constant(value: string | number | null): string {
    if (typeof value !== 'string') return this.param({ kind: 'const', value });
    let placeholder = this.sharedConstants.get(value);
    if (!placeholder) {
      placeholder = this.param({ kind: 'const', value });
      this.sharedConstants.set(value, placeholder);
    }
    return placeholder;
  }

  alias(prefix: string): string {
    this.aliasCounter++;
    return `${prefix}${this.aliasCounter}`;
  }

  rowFilter(relation: CatalogRelation, alias: string, mode: 'and' | 'violation'): string {
    const id = this.slots.length;
    this.slots.push({ id, relation, alias, mode });
    return `${MARK}${id}${MARK}`;
  }

  touch(relation: string, kind: Touched['kind'], action: DataApiAction): void {
    const key = `${relation}\u0001${action}`;
    if (!this.touched.has(key)) this.touched.set(key, { relation, kind, action });
  }

  template(text: string): StatementTemplate {
    return { text, params: [...this.params], slots: [...this.slots] };
  }

  /** Hidden columns: the policy's, those hidden everywhere, and view columns showing a hidden base column. */
  hidden(relation: CatalogRelation, extra?: ReadonlySet<string>): ReadonlySet<string> {
    const key = relation.name;
    let set = extra ? undefined : this.hiddenCache.get(key);
    if (set) return set;
    const out = new Set<string>(this.allowlist.hiddenEverywhere);
    for (const c of this.allowlist.relation(relation.name)?.hiddenColumns ?? []) out.add(c);
    for (const c of extra ?? []) out.add(c);
    const origins = this.catalog.viewColumnOrigins.get(relation.name);
    if (origins) {
      for (const [column, origin] of origins) {
        const basePolicy = this.allowlist.relation(origin.relation);
        if (
          this.allowlist.hiddenEverywhere.has(origin.column) ||
          basePolicy?.hiddenColumns.has(origin.column)
        )
          out.add(column);
      }
    }
    set = out;
    if (!extra) this.hiddenCache.set(key, set);
    return set;
  }
}

function relationSql(catalog: Catalog, relation: CatalogRelation): string {
  return `${quoteIdent(catalog.schema)}.${quoteIdent(relation.name)}`;
}

function kindOf(relation: CatalogRelation): 'table' | 'view' {
  return relation.kind === 'table' || relation.kind === 'foreign_table' ? 'table' : 'view';
}

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

interface LevelResult {
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

function buildLevel(b: Builder, input: LevelInput): LevelResult {
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
          source: relationSql(b.catalog, target),
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
            embedLimit(b, child.scope),
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

function embedLimit(b: Builder, scope: QueryScope | undefined): string | null {
  return scope?.limit ? b.value(scope.limit) : null;
}

function embedOffset(b: Builder, scope: QueryScope | undefined): string | null {
  return scope?.offset ? b.value(scope.offset) : null;
}

/** `SELECT outputs FROM … WHERE … ORDER BY … LIMIT … OFFSET …`; output columns named by key or positionally. */
function levelSelect(
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
function rowJson(b: Builder, level: LevelResult, rowAlias: string, forAggregate: boolean): string {
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

const OPERATOR_SQL: Record<string, string> = {
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

function compileCondition(b: Builder, condition: Condition, ctx: ConditionContext): string {
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
      const sql = predicateSql(b, ctx.alias, column, field, predicate);
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
        case 'eq':
          sql = `${textLhs} = ${b.value(token.value)}`;
          break;
        default:
          sql = `${textLhs} = ${b.value(token.raw)}`;
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
        expr = `(SELECT ${fieldSql(b, orderAlias, column, term.field)} FROM ${relationSql(b.catalog, target)} AS ${quoteIdent(orderAlias)} WHERE ${conditions.join(' AND ')}${b.rowFilter(target, orderAlias, 'and')} LIMIT 1)`;
      } else {
        const column = resolveColumn(ctx.relation, ctx.hidden, term.field.column);
        expr = fieldSql(b, ctx.alias, column, term.field);
      }
      return `${expr}${term.direction === 'desc' ? ' DESC' : term.direction === 'asc' ? ' ASC' : ''}${term.nulls === 'first' ? ' NULLS FIRST' : term.nulls === 'last' ? ' NULLS LAST' : ''}`;
    })
    .join(', ');
}

function checkScopesConsumed(b: Builder): void {
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

// ---------------------------------------------------------------------------------------------
// GET / HEAD

function rootLevel(
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

function bodyExpression(b: Builder, level: LevelResult, rowAlias: string, media: AcceptedMedia): string {
  const agg = `json_agg(${rowJson(b, level, rowAlias, true)})`;
  return media.stripNulls ? `coalesce(json_strip_nulls(${agg}), '[]')::text` : `coalesce(${agg}, '[]')::text`;
}

function countExpression(
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
function plannedCountTemplate(main: StatementTemplate): StatementTemplate {
  return { text: `EXPLAIN (FORMAT JSON) ${main.text}`, params: main.params, slots: main.slots };
}

function planRead(b: Builder, request: PlanRequest, relation: CatalogRelation, policy: RelationPolicy): Plan {
  requireAction(policy, 'read', request.method);
  b.touch(relation.name, kindOf(relation), 'read');
  const hidden = b.hidden(relation);
  const level = rootLevel(
    b,
    relation,
    relationSql(b.catalog, relation),
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

// ---------------------------------------------------------------------------------------------
// writes

function writableColumns(
  b: Builder,
  relation: CatalogRelation,
  policy: RelationPolicy,
  columns: readonly string[],
): CatalogColumn[] {
  const hidden = b.hidden(relation);
  return columns.map((name) => {
    const column = relation.columnByName.get(name);
    if (!column || hidden.has(name)) throw unknownWriteColumn(relation.name, name);
    if (policy.writableColumns && !policy.writableColumns.has(name)) {
      throw new ApiError(
        403,
        '42501',
        `permission denied to write column "${name}" of "${relation.name}"`,
        null,
        `Writable columns of '${relation.name}': ${[...policy.writableColumns].join(', ') || '(none)'}`,
      );
    }
    return column;
  });
}

/** The mutated rows (`pgrst_mut`) as the root of the response: representation, counts, checks. */
function mutationResult(
  b: Builder,
  request: PlanRequest,
  relation: CatalogRelation,
  mutationCte: string,
  checkViolations: boolean,
): { text: string; level: LevelResult | null } {
  const hidden = b.hidden(relation);
  const wantsBody = request.prefs.return === 'representation';
  const violations = checkViolations
    ? `(SELECT count(*) FROM "pgrst_mut" AS "pgrst_chk" WHERE ${b.rowFilter(relation, 'pgrst_chk', 'violation')})`
    : '0::int8';
  const pk = relation.primaryKey.filter((c) => !hidden.has(c));
  const location =
    request.prefs.return === 'headers-only' && pk.length > 0
      ? `(SELECT json_build_array(${pk.map((c) => `"pgrst_loc".${quoteIdent(c)}`).join(', ')})::text FROM "pgrst_mut" AS "pgrst_loc" LIMIT 1)`
      : 'NULL::text';
  if (!wantsBody) {
    checkScopesConsumedForWrite(b);
    return {
      text: `${mutationCte} SELECT count(*) AS "total", count(*) AS "page", NULL::text AS "body", ${violations} AS "violations", ${location} AS "location" FROM "pgrst_mut"`,
      level: null,
    };
  }
  const level = rootLevel(b, relation, '"pgrst_mut"', 't0', hidden, '');
  checkScopesConsumed(b);
  const inner = levelSelect(level, null, null, null);
  return {
    text: `${mutationCte} SELECT count(*) AS "total", count(*) AS "page", ${bodyExpression(b, level, 'pgrst_row', request.media)} AS "body", ${violations} AS "violations", ${location} AS "location" FROM (${inner}) AS "pgrst_row"`,
    level,
  };
}

/** Without a representation only the root scope is used; filters on embeds would be ignored silently. */
function checkScopesConsumedForWrite(b: Builder): void {
  b.consumedScopes.add('');
  checkScopesConsumed(b);
}

/**
 * PUT: a single-row upsert addressed by its primary key. The filters must be exactly `pk=eq.value`
 * for every primary-key column (PGRST105); no limit/offset (PGRST114). The engine checks that the
 * payload's key values equal the filters' (PGRST115).
 */
function planPut(b: Builder, request: PlanRequest, relation: CatalogRelation, policy: RelationPolicy): Plan {
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

function planInsert(
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

function planUpdateOrDelete(
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

function withoutRootConditions(scopes: ReadonlyMap<string, QueryScope>): ReadonlyMap<string, QueryScope> {
  const out = new Map(scopes);
  out.set('', { conditions: [], order: null, limit: null, offset: null });
  return out;
}

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

export interface RpcBinding {
  /** The function resolved for this request (from argument names). */
  readonly fn: CatalogFunction;
  /** Argument names in the JSON object passed as the `args` parameter (or 'body' for one unnamed json arg). */
  readonly argNames: readonly string[];
  readonly wholeBody: boolean;
}

function planRpc(b: Builder, request: PlanRequest): Plan {
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

// ---------------------------------------------------------------------------------------------
// row filters → SQL at the markers

/** Replaces the markers of a template with the compiled restrictions (parameters appended). */
export function finalizeTemplate(
  catalog: Catalog,
  template: StatementTemplate,
  rowFilters: ReadonlyMap<string, readonly RowFilter[]>,
): FinalStatement {
  if (template.slots.length === 0) return { text: template.text, params: template.params };
  const params = [...template.params];
  const compiled = new Map<number, string>();
  const pieces = template.text.split(MARK);
  const present = new Set<number>();
  for (let i = 1; i < pieces.length; i += 2) present.add(Number(pieces[i]));
  for (const slot of template.slots) {
    // A slot whose marker is not in this statement must not bind parameters.
    if (!present.has(slot.id)) continue;
    const filters = rowFilters.get(slot.relation.name) ?? [];
    if (filters.length === 0) {
      compiled.set(slot.id, slot.mode === 'and' ? '' : 'FALSE');
      continue;
    }
    // Each slot binds its own copy of the relation's values, from index 0.
    const compiler = new RowFilterCompiler(catalog, slot.relation, slot.alias, params);
    const sql = filters.map((f) => compiler.compile(f)).join(' AND ');
    compiled.set(slot.id, slot.mode === 'and' ? ` AND (${sql})` : `NOT coalesce((${sql}), FALSE)`);
  }
  // Markers are NUL-delimited ids (NUL cannot occur in identifiers or in our SQL): odd pieces are ids.
  const text = pieces.map((piece, i) => (i % 2 === 1 ? (compiled.get(Number(piece)) ?? '') : piece)).join('');
  return { text, params };
}

class RowFilterCompiler {
  private index = 0;
  private aliasCounter = 0;
  constructor(
    private readonly catalog: Catalog,
    private readonly relation: CatalogRelation,
    private readonly alias: string,
    private readonly params: ParamSource[],
  ) {}

  private bind(convert: RowFilterConvert): string {
    this.params.push({ kind: 'rowFilter', relation: this.relation.name, index: this.index++, convert });
    return `$${this.params.length}`;
  }

  compile(filter: RowFilter, relation: CatalogRelation = this.relation, alias: string = this.alias): string {
    const column = (name: string): string => {
      if (!relation.columnByName.has(name)) {
        throw new Error(`row filter names column "${name}" that ${relation.name} does not have`);
      }
      return `${quoteIdent(alias)}.${quoteIdent(name)}`;
    };
    switch (filter.kind) {
      case 'compare':
        return `${column(filter.column)} ${OPERATOR_SQL[filter.op]} ${this.bind('text')}`;
      case 'in':
        return `${column(filter.column)} = ANY(${this.bind('array')})`;
      case 'is': {
        const test = filter.value === null ? 'NULL' : filter.value ? 'TRUE' : 'FALSE';
        return `${column(filter.column)} IS ${filter.negate ? 'NOT ' : ''}${test}`;
      }
      case 'contains': {
        const col = relation.columnByName.get(filter.column);
        if (col?.category === 'json') return `${column(filter.column)}::jsonb @> ${this.bind('json')}::jsonb`;
        return `${column(filter.column)} @> ${this.bind('array')}`;
      }
      case 'like':
        return `${column(filter.column)}::text LIKE ${this.bind('text')}::text`;
      case 'hasKey':
        return `${column(filter.column)}::jsonb ? ${this.bind('text')}::text`;
      case 'and':
      case 'or':
        if (filter.filters.length === 0) return filter.kind === 'and' ? 'TRUE' : 'FALSE';
        return `(${filter.filters.map((f) => this.compile(f, relation, alias)).join(filter.kind === 'and' ? ' AND ' : ' OR ')})`;
      case 'not':
        // A row the inner filter cannot decide (NULL) is not excluded by it.
        return `NOT coalesce((${this.compile(filter.filter, relation, alias)}), FALSE)`;
      case 'constant':
        return filter.value ? 'TRUE' : 'FALSE';
      case 'exists': {
        const other = this.catalog.relations.get(filter.relation);
        if (!other) throw new Error(`row filter names relation "${filter.relation}" that does not exist`);
        const otherAlias = `rf${++this.aliasCounter}`;
        const on = filter.on.map(([otherColumn, ownColumn]) => {
          if (!other.columnByName.has(otherColumn))
            throw new Error(`row filter names column "${otherColumn}" that ${other.name} does not have`);
          return `${quoteIdent(otherAlias)}.${quoteIdent(otherColumn)} = ${column(ownColumn)}`;
        });
        const where = (filter.where ?? []).map((f) => this.compile(f, other, otherAlias));
        return `EXISTS (SELECT 1 FROM ${relationSql(this.catalog, other)} AS ${quoteIdent(otherAlias)} WHERE ${[...on, ...where].join(' AND ') || 'TRUE'})`;
      }
    }
  }
}
