/**
 * The typed query tree the parser produces. It holds names as written by the client, never SQL.
 *
 * Values (filter operands, list items, limits inside embeds) are stored out of the tree, in
 * `ParsedQuery.values`, and the tree refers to them by slot. The planner only ever sees the
 * slots, so a plan cached for one request is valid for every request with the same shape: the
 * shape string covers everything in the tree except the values.
 */

export interface ValueRef {
  readonly slot: number;
}

export type ParamValue = string | number | readonly string[];

export interface JsonStep {
  readonly arrow: '->' | '->>';
  readonly key: string;
  /** An all-digit key after `->`/`->>` indexes a JSON array, as in PostgREST. */
  readonly isIndex: boolean;
}

export interface FieldRef {
  readonly column: string;
  readonly json: readonly JsonStep[];
}

export type AggregateFunction = 'count' | 'sum' | 'avg' | 'min' | 'max';

export type SelectNode =
  | { readonly kind: 'star' }
  | {
      readonly kind: 'column';
      /** `count()` without a column has `field.column === '*'`. */
      readonly field: FieldRef;
      readonly alias: string | null;
      /** Cast of the column (the aggregate's input when there is an aggregate): `amount::int`. */
      readonly cast: string | null;
      /** `amount.sum()`: the other non-aggregate items of the level become its GROUP BY. */
      readonly aggregate: AggregateFunction | null;
      /** Cast of the aggregate's result: `amount.avg()::int`. */
      readonly aggregateCast: string | null;
    }
  | {
      readonly kind: 'embed';
      readonly name: string;
      readonly alias: string | null;
      readonly hint: string | null;
      readonly join: 'inner' | 'left' | null;
      readonly spread: boolean;
      readonly select: readonly SelectNode[];
    };

export type SimpleOperator =
  | 'eq'
  | 'neq'
  | 'gt'
  | 'gte'
  | 'lt'
  | 'lte'
  | 'like'
  | 'ilike'
  | 'match'
  | 'imatch'
  | 'isdistinct'
  | 'cs'
  | 'cd'
  | 'ov'
  | 'sl'
  | 'sr'
  | 'nxr'
  | 'nxl'
  | 'adj';

export type FtsOperator = 'fts' | 'plfts' | 'phfts' | 'wfts';
export type IsValue = 'null' | 'not_null' | 'true' | 'false' | 'unknown';

export type Predicate =
  | {
      readonly kind: 'op';
      readonly op: SimpleOperator;
      /** `eq(any).{a,b}`: the value is an array literal compared with ANY/ALL. */
      readonly quantifier: 'any' | 'all' | null;
      readonly value: ValueRef;
    }
  | { readonly kind: 'in'; readonly values: ValueRef }
  | { readonly kind: 'is'; readonly value: IsValue }
  | {
      readonly kind: 'fts';
      readonly op: FtsOperator;
      readonly language: ValueRef | null;
      readonly value: ValueRef;
    };

export type TriStateToken =
  | { readonly kind: 'eq'; readonly exclude: boolean; readonly value: ValueRef }
  /** `value` holds a LIKE pattern already (`*` → `%`, literal `%`/`_` escaped). */
  | { readonly kind: 'glob'; readonly exclude: boolean; readonly value: ValueRef }
  /** `>now-1h`: meaningful on timestamp and numeric columns; elsewhere `raw` is matched as text. */
  | {
      readonly kind: 'compare';
      readonly exclude: boolean;
      readonly op: '>' | '>=' | '<' | '<=';
      readonly value: ValueRef;
      readonly raw: ValueRef;
    }
  | {
      readonly kind: 'range';
      readonly exclude: boolean;
      readonly from: ValueRef;
      readonly to: ValueRef;
      readonly raw: ValueRef;
    };

export type Condition =
  | {
      readonly kind: 'filter';
      readonly field: FieldRef;
      readonly negate: boolean;
      readonly predicate: Predicate;
    }
  | {
      readonly kind: 'logic';
      readonly op: 'and' | 'or';
      readonly negate: boolean;
      readonly children: readonly Condition[];
    }
  | { readonly kind: 'tristate'; readonly field: FieldRef; readonly tokens: readonly TriStateToken[] }
  /** `embed=is.null` / `embed=not.is.null` on an embedded resource (anti-join / semi-join). */
  | { readonly kind: 'embedNull'; readonly embed: string; readonly isNull: boolean };

export interface OrderTerm {
  /** Set when ordering by a column of a to-one embed: `order=created_by(name).desc`. */
  readonly relation: string | null;
  readonly field: FieldRef;
  readonly direction: 'asc' | 'desc' | null;
  readonly nulls: 'first' | 'last' | null;
}

/** Conditions, order and paging for the root (path '') or one embed (path 'a.b'). */
export interface QueryScope {
  readonly conditions: Condition[];
  order: OrderTerm[] | null;
  limit: ValueRef | null;
  offset: ValueRef | null;
}

export interface ParsedQuery {
  /** Merged `select=` parameters; `[star]` when absent. */
  readonly select: readonly SelectNode[];
  readonly selectGiven: boolean;
  /** Keyed by embed path ('' is the root), as written: `hypotheses.evidences`. */
  readonly scopes: ReadonlyMap<string, QueryScope>;
  /** Root limit/offset from the query string (numbers; combined with Range and maxRows later). */
  readonly limit: number | null;
  readonly offset: number | null;
  readonly columns: readonly string[] | null;
  readonly onConflict: readonly string[] | null;
  /** GET rpc: function arguments given in the query string, in query order. */
  readonly rpcArgs: ReadonlyMap<string, string>;
  readonly values: readonly ParamValue[];
  /** Everything above except values, as one string: the plan cache key. */
  readonly shape: string;
}

export type CountPreference = 'exact' | 'planned' | 'estimated';
export type ReturnPreference = 'minimal' | 'representation' | 'headers-only';

export interface Preferences {
  readonly return: ReturnPreference | null;
  readonly count: CountPreference | null;
  readonly resolution: 'merge-duplicates' | 'ignore-duplicates' | null;
  readonly missing: 'default' | 'null' | null;
  readonly handling: 'strict' | 'lenient' | null;
  readonly maxAffected: number | null;
  readonly tx: 'commit' | 'rollback' | null;
  readonly params: 'single-object' | null;
  /** Canonical forms of the preferences we honour, for Preference-Applied. */
  readonly applied: readonly string[];
  readonly invalid: readonly string[];
}

export type MediaType = 'json' | 'object' | 'csv';

export interface AcceptedMedia {
  readonly type: MediaType;
  /** `;nulls=stripped` (postgrest-js `stripNulls()`). */
  readonly stripNulls: boolean;
}

export interface RangeRequest {
  readonly from: number;
  readonly to: number | null;
}
