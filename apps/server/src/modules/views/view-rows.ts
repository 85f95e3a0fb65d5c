/**
 * Pages of a view's rows (`POST /api/view/{id}/rows`) by keyset: a page starts after the previous
 * page's last row (its sort value and tiebreak) instead of skipping `offset` rows, so page 2,000
 * costs what page 1 does when the table's indexes hold the order (the first column's order index,
 * and each filterable column's index ordered by the first column). The order is the sort column
 * (descending or ascending, nulls last), then the primary key (or the row's position, `ctid`, for a
 * view without one) as tiebreak. A page is read in two steps, the non-null part and then the nulls,
 * so each step is an index range in the index's own order.
 *
 * Totals: an unfiltered page takes the fingerprint's row count from its refresh; a filtered one
 * counts up to COUNT_CAP rows and, past that, answers the planner's estimate (`totalExact` false).
 */
import type { ViewRowsPage, ViewRowsRequest } from '@opsdeck/contracts';
import { VIEW_PAGE_SIZE } from '@opsdeck/contracts';
import type { Pool } from '../../platform/db/pool.js';
import { HttpError } from '../../platform/http/errors.js';
import { quoteIdent, sqlType, type TableColumn } from './view-table.js';

/** Filtered totals are counted exactly up to this many rows, estimated beyond. */
export const COUNT_CAP = 10_000;

export interface RowsSource {
  table: string;
  columns: readonly TableColumn[];
  fingerprint: string;
  /** The fingerprint's rows at its refresh (the unfiltered total). */
  rowCount: number | null;
  /** Conditions (SQL over the table's columns, values as `$n` from `values`) every row must meet. */
  restriction?: { sql: string; values: unknown[] } | null;
}

interface Cursor {
  /** The sort column and order the cursor belongs to. */
  s: string;
  o: 'asc' | 'desc';
  /** The last row's sort value as text (null in the nulls part) and its tiebreak values as text. */
  v: string | null;
  t: string[];
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(text: string, sortBy: string, order: 'asc' | 'desc'): Cursor {
  let cursor: Cursor;
  try {
    cursor = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Cursor;
  } catch {
    throw new HttpError(400, 'after: is not a cursor this API gave', 'after');
  }
  if (
    typeof cursor !== 'object' ||
    cursor === null ||
    (cursor.v !== null && typeof cursor.v !== 'string') ||
    !Array.isArray(cursor.t) ||
    !cursor.t.every((value) => typeof value === 'string')
  )
    throw new HttpError(400, 'after: is not a cursor this API gave', 'after');
  if (cursor.s !== sortBy || cursor.o !== order)
    throw new HttpError(400, `after: the cursor belongs to another order than ${sortBy} ${order}`, 'after');
  return cursor;
}

/** Binds values and returns their placeholders. */
class Params {
  readonly values: unknown[];
  constructor(initial: unknown[] = []) {
    this.values = [...initial];
  }
  add(value: unknown, cast?: string): string {
    this.values.push(value);
    return cast ? `$${this.values.length}::${cast}` : `$${this.values.length}`;
  }
}

/** The tiebreak of the order: the primary key columns other than the sort column, else ctid. */
function tiebreakOf(
  columns: readonly TableColumn[],
  sortBy: string,
): Array<{ sql: string; cast: string; name: string }> {
  const keys = columns.filter((column) => column.primaryKey);
  if (keys.length === 0) return [{ sql: 'ctid', cast: 'tid', name: 'ctid' }];
  return keys
    .filter((column) => column.name !== sortBy)
    .map((column) => ({ sql: quoteIdent(column.name), cast: sqlType(column.type), name: column.name }));
}

export async function viewRowsPage(
  pool: Pool,
  source: RowsSource,
  request: ViewRowsRequest,
): Promise<ViewRowsPage> {
  const { columns, table } = source;
  const byName = new Map(columns.map((column) => [column.name, column]));
  const sortBy = request.sortBy ?? columns[0]?.name;
  if (sortBy === undefined) return { rows: [], total: 0, totalExact: true, next: null };
  const sortColumn = byName.get(sortBy);
  if (!sortColumn) throw new HttpError(400, `sortBy: the view has no column "${sortBy}"`, 'sortBy');
  const order = request.sortOrder ?? 'desc';
  const limit = request.limit ?? VIEW_PAGE_SIZE;
  if (request.after !== undefined && request.offset !== undefined && request.offset > 0)
    throw new HttpError(400, 'offset: give either after or offset, not both', 'offset');

  // Conditions every part of the page shares: the fingerprint, the filters, the caller's rows.
  const params = new Params(source.restriction?.values ?? []);
  const where: string[] = [`request_fingerprint = ${params.add(source.fingerprint)}`];
  let filtered = false;
  for (const [name, values] of Object.entries(request.filters ?? {})) {
    const column = byName.get(name);
    if (!column)
      throw new HttpError(400, `filters.${name}: the view has no column "${name}"`, `filters.${name}`);
    if (values.length === 0) continue;
    filtered = true;
    where.push(`${quoteIdent(name)}::text = ANY(${params.add(values, 'text[]')})`);
  }
  if (source.restriction) where.push(`(${source.restriction.sql})`);

  const sort = quoteIdent(sortBy);
  const direction = order === 'desc' ? 'DESC' : 'ASC';
  const comparison = order === 'desc' ? '<' : '>';
  const tiebreak = tiebreakOf(columns, sortBy);
  const select = [
    ...columns.map((column) => quoteIdent(column.name)),
    `${sort}::text AS "__sort"`,
    ...tiebreak.map((key, index) => `${key.sql}::text AS "__tie${index}"`),
  ].join(', ');
  const orderBy = (withSort: boolean) => {
    const keys = [
      ...(withSort ? [`${sort} ${direction}`] : []),
      ...tiebreak.map((key) => `${key.sql} ${direction}`),
    ];
    return keys.length > 0 ? ` ORDER BY ${keys.join(', ')}` : '';
  };
  const read = async (
    conditions: string[],
    values: unknown[],
    withSort: boolean,
    count: number,
  ): Promise<Array<Record<string, unknown>>> => {
    const { rows } = await pool.query<Record<string, unknown>>(
      `SELECT ${select} FROM ${quoteIdent(table)} WHERE ${conditions.join(' AND ')}${orderBy(withSort)}
        LIMIT ${count}`,
      values,
    );
    return rows;
  };

  let rows: Array<Record<string, unknown>>;
  if (request.after === undefined && (request.offset ?? 0) > 0) {
    // Offset paging, as the data API's: the rows before the page are read and skipped.
    const ordered = [`${sort} ${direction} NULLS LAST`, ...tiebreak.map((key) => `${key.sql} ${direction}`)];
    const { rows: found } = await pool.query<Record<string, unknown>>(
      `SELECT ${select} FROM ${quoteIdent(table)} WHERE ${where.join(' AND ')}
        ORDER BY ${ordered.join(', ')} LIMIT ${limit + 1} OFFSET ${request.offset}`,
      params.values,
    );
    rows = found;
  } else {
    const cursor = request.after === undefined ? null : decodeCursor(request.after, sortBy, order);
    if (cursor && cursor.t.length !== tiebreak.length)
      throw new HttpError(400, 'after: is not a cursor of this view', 'after');
    rows = [];
    if (!cursor || cursor.v !== null) {
      // The non-null part, from the sort value on.
      const part = new Params(params.values);
      const conditions = [...where, `${sort} IS NOT NULL`];
      if (cursor) {
        const left = [sort, ...tiebreak.map((key) => key.sql)].join(', ');
        const right = [
          part.add(cursor.v, sqlType(sortColumn.type)),
          ...tiebreak.map((key, index) => part.add(cursor.t[index], key.cast)),
        ].join(', ');
        conditions.push(`(${left}) ${comparison} (${right})`);
      }
      rows = await read(conditions, part.values, true, limit + 1);
    }
    // Sorted by the whole primary key there is no tiebreak, and no null sort value either.
    if (rows.length < limit + 1 && tiebreak.length > 0) {
      // Then the rows whose sort value is null, by their tiebreak.
      const part = new Params(params.values);
      const conditions = [...where, `${sort} IS NULL`];
      if (cursor && cursor.v === null) {
        const left = tiebreak.map((key) => key.sql).join(', ');
        const right = tiebreak.map((key, index) => part.add(cursor.t[index], key.cast)).join(', ');
        conditions.push(`(${left}) ${comparison} (${right})`);
      }
      rows.push(...(await read(conditions, part.values, false, limit + 1 - rows.length)));
    }
  }

  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const next =
    more && last
      ? encodeCursor({
          s: sortBy,
          o: order,
          v: (last.__sort as string | null) ?? null,
          t: tiebreak.map((_, index) => String(last[`__tie${index}`])),
        })
      : null;
  const total = await totalOf(pool, source, filtered, where, params.values);
  return {
    rows: page.map((row) =>
      Object.fromEntries(columns.map((column) => [column.name, plain(column, row[column.name])])),
    ),
    ...total,
    next,
  };
}

function plain(column: TableColumn, value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if ((column.type === 'bytes' || column.type === 'decimal') && typeof value === 'string')
    return Number(value);
  return value ?? null;
}

async function totalOf(
  pool: Pool,
  source: RowsSource,
  filtered: boolean,
  where: string[],
  values: unknown[],
): Promise<{ total: number; totalExact: boolean }> {
  if (!filtered && !source.restriction && source.rowCount !== null)
    return { total: source.rowCount, totalExact: true };
  const from = `FROM ${quoteIdent(source.table)} WHERE ${where.join(' AND ')}`;
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 ${from} LIMIT ${COUNT_CAP + 1}) AS capped`,
    values,
  );
  const counted = rows[0]?.n ?? 0;
  if (counted <= COUNT_CAP) return { total: counted, totalExact: true };
  const plan = await pool.query<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>(
    `EXPLAIN (FORMAT JSON) SELECT 1 ${from}`,
    values,
  );
  const estimate = Math.round(plan.rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0);
  return { total: Math.max(estimate, COUNT_CAP + 1), totalExact: false };
}
