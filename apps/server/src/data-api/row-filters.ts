/**
 * Row-level restrictions the authorize hook returns. They are compiled into the SQL of the
 * relation they were given for (AND-ed into its WHERE; for inserts and updates, every written
 * row must satisfy them or the statement is rolled back with 42501). Column and relation names
 * are checked against the catalog; values are always bound parameters.
 */

export type RowFilterScalar = string | number | boolean;
export type JsonValue =
  null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

export type RowFilter =
  | {
      readonly kind: 'compare';
      readonly column: string;
      readonly op: 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte';
      readonly value: RowFilterScalar;
    }
  | { readonly kind: 'in'; readonly column: string; readonly values: readonly RowFilterScalar[] }
  | {
      readonly kind: 'is';
      readonly column: string;
      readonly value: null | boolean;
      readonly negate?: boolean;
    }
  /** jsonb `@>` for json columns, array `@>` for array columns. */
  | { readonly kind: 'contains'; readonly column: string; readonly value: JsonValue }
  /** `column LIKE pattern` (text). */
  | { readonly kind: 'like'; readonly column: string; readonly pattern: string }
  /** The json(b) object in `column` has the key. */
  | { readonly kind: 'hasKey'; readonly column: string; readonly key: string }
  | { readonly kind: 'and'; readonly filters: readonly RowFilter[] }
  | { readonly kind: 'or'; readonly filters: readonly RowFilter[] }
  | { readonly kind: 'not'; readonly filter: RowFilter }
  /**
   * A matching row exists in another relation of the schema, joined on column pairs
   * `[column of that relation, column of the filtered relation]`.
   */
  | {
      readonly kind: 'exists';
      readonly relation: string;
      readonly on: ReadonlyArray<readonly [string, string]>;
      readonly where?: readonly RowFilter[];
    }
  /** Constant: `false` denies every row, `true` allows every row. */
  | { readonly kind: 'constant'; readonly value: boolean };

/** The filters' structure without their values: part of the plan cache key. */
export function rowFilterShape(filters: readonly RowFilter[]): string {
  return filters.map(shapeOf).join('&');
}

function shapeOf(filter: RowFilter): string {
  switch (filter.kind) {
    case 'compare':
      return `${filter.column}.${filter.op}`;
    case 'in':
      return `${filter.column}.in`;
    case 'is':
      return `${filter.column}.is.${String(filter.value)}.${filter.negate ? 'n' : ''}`;
    case 'contains':
      return `${filter.column}.cs`;
    case 'like':
      return `${filter.column}.like`;
    case 'hasKey':
      return `${filter.column}.key`;
    case 'and':
    case 'or':
      return `${filter.kind}(${filter.filters.map(shapeOf).join(',')})`;
    case 'not':
      return `not(${shapeOf(filter.filter)})`;
    case 'exists':
      return `exists(${filter.relation}:${filter.on.map(([a, b]) => `${a}=${b}`).join(',')}:${(filter.where ?? []).map(shapeOf).join(',')})`;
    case 'constant':
      return String(filter.value);
  }
}

/** Values of the filters in the order the compiler binds them. */
export function rowFilterValues(filters: readonly RowFilter[], out: unknown[] = []): unknown[] {
  for (const filter of filters) collect(filter, out);
  return out;
}

function collect(filter: RowFilter, out: unknown[]): void {
  switch (filter.kind) {
    case 'compare':
      out.push(filter.value);
      return;
    case 'in':
      out.push(filter.values.map((v) => String(v)));
      return;
    case 'is':
      return;
    case 'contains':
      out.push(filter.value);
      return;
    case 'like':
      out.push(filter.pattern);
      return;
    case 'hasKey':
      out.push(filter.key);
      return;
    case 'and':
    case 'or':
      for (const f of filter.filters) collect(f, out);
      return;
    case 'not':
      collect(filter.filter, out);
      return;
    case 'exists':
      for (const f of filter.where ?? []) collect(f, out);
      return;
    case 'constant':
      return;
  }
}
