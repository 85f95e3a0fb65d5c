/**
 * The refresh's fast path: a view whose queries all read the database and whose mappings are
 * simple field reads (`row.f`, `row.f.key`, `double(...)` of those) is materialised by one
 * `INSERT ... SELECT` per query, without bringing its rows into Node (issue 28's target: 100,000
 * rows in under 2 s).
 *
 * The SQL must give what the general path (CEL per row, then `toColumnValue`) gives. What can be
 * decided from the expression and the source's column types is decided here (anything else makes
 * the translation null: the general path runs). What depends on a row's value (a tag that is not a
 * number, a missing key CEL would fail on) raises an error in SQL: the refresh then rolls back to
 * its savepoint and runs the general path, which answers exactly as it always did (a 400 naming
 * the mapping, or its converted values).
 */
import type { ViewColumnType } from '@opsdeck/contracts';
import { quoteIdent, sqlType } from './view-table.js';

/** What an expression is, as the general path would see it in JavaScript. */
type Kind = 'text' | 'number' | 'timestamptz' | 'boolean' | 'json' | 'jsonvalue';

export interface SqlValue {
  sql: string;
  kind: Kind;
}

/** One level of subexpressions computed once per row: `name` is a column of `src` above it. */
export type HoistLevel = ReadonlyArray<{ readonly name: string; readonly sql: string }>;

/**
 * Subexpressions (a JSON key's value, its text) computed once per row instead of once per use:
 * each is a column of a subquery around the source (`OFFSET 0` keeps PostgreSQL from inlining it
 * back), one subquery per level of dependence. `double(row.tags.cpu)` read `tags->'cpu'` four
 * times per row and its text three times; now once each.
 */
export class Hoister {
  readonly levels: Array<Array<{ name: string; sql: string }>> = [];
  private readonly bySql = new Map<string, string>();
  private readonly levelOf = new Map<string, number>();

  /** A reference (`src."__hN"`) to `sql` computed once per row. */
  hoist(sql: string): string {
    const known = this.bySql.get(sql);
    if (known) return known;
    const uses = [...sql.matchAll(/src\."(__h\d+)"/g)].map((match) => this.levelOf.get(match[1]) ?? 0);
    const level = uses.length > 0 ? Math.max(...uses) + 1 : 0;
    const name = `__h${this.bySql.size}`;
    (this.levels[level] ??= []).push({ name, sql });
    this.levelOf.set(name, level);
    const reference = `src.${quoteIdent(name)}`;
    this.bySql.set(sql, reference);
    return reference;
  }
}

/** The source statement with the hoisted levels around it (the select list reads it as `src`). */
export function withHoisted(text: string, levels: readonly HoistLevel[]): string {
  if (levels.length === 0) return text;
  let from = `(${text}) AS src`;
  for (const level of levels)
    from = `(SELECT src.*, ${level.map(({ name, sql }) => `${sql} AS ${quoteIdent(name)}`).join(', ')} FROM ${from} OFFSET 0) AS src`;
  return `SELECT * FROM ${from}`;
}

/** PostgreSQL's data_type (information_schema) of a source column, as a kind. */
export function kindOfSqlType(dataType: string): Kind | null {
  switch (dataType) {
    case 'text':
    case 'character varying':
    case 'uuid':
      return 'text';
    case 'numeric':
    case 'integer':
    case 'bigint':
    case 'smallint':
    case 'double precision':
    case 'real':
      return 'number';
    case 'timestamp with time zone':
      return 'timestamptz';
    case 'boolean':
      return 'boolean';
    case 'jsonb':
      return 'json';
    default:
      return null;
  }
}

/** A runtime error that sends the refresh to the general path (never folded at plan time). */
function fallback(operand: string, type: string): string {
  return `(('view mapping: general path for ' || coalesce(${operand}::text, 'null')) || '!')::int::text::${type}`;
}

const STRICT_NUMBER = `'^-?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?$'`;

const LITERAL = /^[A-Za-z_][A-Za-z0-9_]*$/;

function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * The SQL of a mapping expression over the source row `src`, or null when it is not one the fast
 * path knows.
 */
export function translateExpression(
  expression: string,
  fields: ReadonlyMap<string, Kind>,
  hoister?: Hoister,
): SqlValue | null {
  const text = expression.trim();
  const call = /^double\s*\(([\s\S]*)\)$/.exec(text);
  if (call) {
    const inner = translateExpression(call[1], fields, hoister);
    if (!inner) return null;
    // CEL's double(): numbers as they are, strings that are numbers parsed, anything else fails.
    if (inner.kind === 'number') return { sql: `(${inner.sql})::float8`, kind: 'number' };
    if (inner.kind === 'text')
      return {
        sql: `(CASE WHEN (${inner.sql}) ~ ${STRICT_NUMBER} THEN (${inner.sql})::float8 ELSE ${fallback(inner.sql, 'float8')} END)`,
        kind: 'number',
      };
    if (inner.kind === 'jsonvalue') {
      const v = inner.sql;
      const t = textOf(v, hoister);
      return {
        sql: `(CASE jsonb_typeof(${v}) WHEN 'number' THEN (${t})::float8
                 WHEN 'string' THEN CASE WHEN (${t}) ~ ${STRICT_NUMBER} THEN (${t})::float8 ELSE ${fallback(v, 'float8')} END
                 ELSE ${fallback(v, 'float8')} END)`,
        kind: 'number',
      };
    }
    return null;
  }
  const path = /^row\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)(?:\s*\.\s*([A-Za-z_][A-Za-z0-9_]*))?$/.exec(text);
  if (!path) return null;
  const [, field, key] = path;
  const kind = fields.get(field);
  if (!kind || !LITERAL.test(field)) return null;
  const column = `src.${quoteIdent(field)}`;
  if (key === undefined) return { sql: column, kind };
  if (kind !== 'json') return null;
  // CEL fails on a key the map lacks (and on a null map): so does this, to the general path.
  const value = `(CASE WHEN ${column} ? ${sqlString(key)} THEN ${column}->${sqlString(key)} ELSE ${fallback(column, 'jsonb')} END)`;
  return { sql: hoister ? hoister.hoist(value) : value, kind: 'jsonvalue' };
}

/** A JSON value's text (`#>> '{}'`), computed once per row when hoisting. */
function textOf(value: string, hoister?: Hoister): string {
  const text = `(${value}#>>'{}')`;
  return hoister ? hoister.hoist(text) : text;
}

/** The value as a column of this type stores it (what `toColumnValue` does), or null. */
export function toColumnSql(value: SqlValue, type: ViewColumnType, hoister?: Hoister): string | null {
  const target = sqlType(type);
  const v = value.sql;
  switch (type) {
    case 'number':
    case 'gauge':
    case 'bytes':
    case 'decimal':
    case 'duration':
      // Through double precision, as the general path's Number() of the value.
      if (value.kind === 'number') return `(${v})::float8::${target}`;
      // Number(true), Number(new Date()) and Number({}) are not finite: null.
      if (value.kind === 'boolean' || value.kind === 'timestamptz' || value.kind === 'json')
        return `NULL::${target}`;
      if (value.kind === 'jsonvalue' && type !== 'duration') {
        const t = textOf(v, hoister);
        return `(CASE jsonb_typeof(${v}) WHEN 'number' THEN (${t})::float8::${target}
                   WHEN 'null' THEN NULL::${target}
                   WHEN 'string' THEN CASE WHEN (${t}) ~ ${STRICT_NUMBER} THEN (${t})::float8::${target} ELSE ${fallback(v, target)} END
                   ELSE NULL::${target} END)`;
      }
      // Text (Number('') is 0, durations parse '5m'): the general path.
      return null;
    case 'boolean':
      if (value.kind === 'boolean') return v;
      return null;
    case 'datetime':
      if (value.kind === 'timestamptz') return v;
      return null;
    default:
      // Text columns.
      if (value.kind === 'text') return `(${v})::text`;
      if (value.kind === 'number' || value.kind === 'boolean') return `(${v})::text`;
      if (value.kind === 'timestamptz')
        return `to_char((${v}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
      if (value.kind === 'jsonvalue')
        return `(CASE jsonb_typeof(${v}) WHEN 'string' THEN ${textOf(v, hoister)} WHEN 'null' THEN NULL::text ELSE ${fallback(v, 'text')} END)`;
      // JSON.stringify's spacing is not jsonb's: the general path.
      return null;
  }
}

/**
 * The select list of one query's rows as the view's columns, or null when one column needs the
 * general path. `mapping` gives a column's CEL; others read the source's same-named field.
 */
export function columnsSql(
  columns: ReadonlyArray<{ name: string; type: ViewColumnType }>,
  mapping: Readonly<Record<string, string>>,
  fields: ReadonlyMap<string, Kind>,
  hoister?: Hoister,
): string[] | null {
  const out: string[] = [];
  for (const column of columns) {
    const expression = mapping[column.name];
    if (expression === undefined && !fields.has(column.name)) {
      out.push(`NULL::${sqlType(column.type)}`);
      continue;
    }
    const value = translateExpression(expression ?? `row.${column.name}`, fields, hoister);
    if (!value) return null;
    const sql = toColumnSql(value, column.type, hoister);
    if (sql === null) return null;
    out.push(sql);
  }
  return out;
}
