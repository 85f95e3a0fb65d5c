/** Planner state shared by every statement kind: plan and template types, the builder, relation lookup. */
import type { DataApiAction, DataApiAllowlist, RelationPolicy } from '../allowlist.js';
import { quoteIdent, type Catalog, type CatalogFunction, type CatalogRelation } from '../catalog.js';
import { ApiError, unknownRelation } from '../errors.js';
import type { AcceptedMedia, JsonStep, ParsedQuery, Preferences, ValueRef } from '../query-tree.js';

export type ParamSource =
  | { readonly kind: 'value'; readonly slot: number }
  /** A tri-state bound on a timestamp column: date math evaluated at bind time. */
  | { readonly kind: 'timestamp'; readonly slot: number }
  /**
   * The jsonb documents (a `jsonb[]`) one of which a row's column contains whenever its `path`
   * reads, as text (`->>`), the slot's value or one of the slot's values (see `containmentDocuments`).
   */
  | { readonly kind: 'containment'; readonly slot: number; readonly path: readonly JsonStep[] }
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
  /**
   * Read only inside another relation's read source (a roll-up): a caller who may not read it
   * is not refused; the statement reads none of its rows instead.
   */
  readonly optional?: boolean;
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

export const MARK = '\u0000';

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

export function requireAction(
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

export class Builder {
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
    /** The most rows of a response, and of each embedded array (PostgREST's `db-max-rows`). */
    readonly maxRows = Infinity,
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

  touch(relation: string, kind: Touched['kind'], action: DataApiAction, optional = false): void {
    const key = `${relation}\u0001${action}`;
    const existing = this.touched.get(key);
    // A relation the request reads directly is required even when a roll-up also reads it.
    if (!existing || (existing.optional && !optional))
      this.touched.set(key, optional ? { relation, kind, action, optional } : { relation, kind, action });
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

export function relationSql(catalog: Catalog, relation: CatalogRelation): string {
  return `${quoteIdent(catalog.schema)}.${quoteIdent(relation.name)}`;
}

/**
 * What a read selects FROM for `relation`: its name, or the policy's `readSource` as a subquery
 * with the restrictions of the relations it aggregates (each authorized for read).
 */
export function readSourceSql(b: Builder, relation: CatalogRelation): string {
  const source = b.allowlist.relation(relation.name)?.readSource;
  if (!source) return relationSql(b.catalog, relation);
  const lookup = (name: string): CatalogRelation => {
    const found = b.catalog.relations.get(name);
    if (!found) throw new Error(`${relation.name}'s read source names "${name}", which does not exist`);
    return found;
  };
  const sql = source({
    relation: (name) => relationSql(b.catalog, lookup(name)),
    restrict: (name, alias, options) => {
      const restricted = lookup(name);
      b.touch(restricted.name, kindOf(restricted), 'read', options?.optional ?? false);
      return b.rowFilter(restricted, alias, 'and');
    },
  });
  return `(${sql})`;
}

export function kindOf(relation: CatalogRelation): 'table' | 'view' {
  return relation.kind === 'table' || relation.kind === 'foreign_table' ? 'table' : 'view';
}

export interface RpcBinding {
  /** The function resolved for this request (from argument names). */
  readonly fn: CatalogFunction;
  /** Argument names in the JSON object passed as the `args` parameter (or 'body' for one unnamed json arg). */
  readonly argNames: readonly string[];
  readonly wholeBody: boolean;
}
