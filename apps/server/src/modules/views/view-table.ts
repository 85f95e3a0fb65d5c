/**
 * A view's table `view_<namespace>_<name>`: one column per declared column plus
 * `request_fingerprint` (the hash of the request's variables), `agent_id` and `view_id` (the view
 * whose rows they are: permission rows that name the view by selector reach its rows through it).
 * It is a cache: a spec whose columns change gets a new table, and the rows of a fingerprint are
 * replaced whole, by a fresh partition (`view_parts` schema) swapped in for the old one.
 */
import { randomBytes } from 'node:crypto';
import { viewTableName, type ViewColumnType } from '@opsdeck/contracts';
import type { PoolClient } from '../../platform/db/pool.js';
import { HttpError } from '../../platform/http/errors.js';
import { parseDuration } from '../../platform/time/index.js';

export interface TableColumn {
  name: string;
  type: ViewColumnType;
  primaryKey: boolean;
  /** Filterable columns get an index with the fingerprint, for the table's filters and counts. */
  indexed?: boolean;
}

/** The role panels run as (migration 0160): it may read view tables only. */
export const PANEL_ROLE = 'opsdeck_view_panels';

const SQL_TYPES: Record<ViewColumnType, string> = {
  string: 'text',
  number: 'double precision',
  boolean: 'boolean',
  datetime: 'timestamptz',
  // Milliseconds.
  duration: 'double precision',
  health: 'text',
  status: 'text',
  bytes: 'numeric',
  decimal: 'numeric',
  gauge: 'double precision',
  url: 'text',
  badge: 'text',
};

export function sqlType(type: ViewColumnType): string {
  return SQL_TYPES[type];
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * The layout of a view table's indexes: a table made under an older layout is recreated at its
 * next refresh (it is a cache). 2: the default order's index and filters ordered by it. 3: those
 * indexes end with the primary key (keyset pages' tiebreak, view-rows.ts). 4: rows carry `view_id`
 * (row-level permissions of views, auth/row-scopes.ts) and the table is partitioned by
 * fingerprint (a refresh swaps in a fresh partition).
 */
const INDEX_LAYOUT = 4;

/** The table's shape: a changed shape means a new table. */
export function tableShape(columns: readonly TableColumn[]): string {
  return JSON.stringify([
    INDEX_LAYOUT,
    ...columns.map((column) =>
      column.indexed
        ? [column.name, column.type, column.primaryKey, true]
        : [column.name, column.type, column.primaryKey],
    ),
  ]);
}

export { viewTableName };

/** The schema that holds the partitions of view tables (migration 0420), out of the data API's `public`. */
export const PARTITIONS_SCHEMA = 'view_parts';

/** `request_fingerprint, <primary key columns>`, or null without a primary key. */
function primaryKeyList(columns: readonly TableColumn[]): string | null {
  const keys = columns.filter((column) => column.primaryKey).map((column) => quoteIdent(column.name));
  return keys.length > 0 ? `request_fingerprint, ${keys.join(', ')}` : null;
}

/**
 * The indexes of a view table besides its primary key. Pages default to the first column,
 * descending with nulls last (core §7): an index in that order serves them without sorting the
 * fingerprint's rows, and a filterable column's index ends with it too, so a filtered page reads
 * its rows in order and its count reads the index. Keyset pages (view-rows.ts) break ties by the
 * other primary key columns: the indexes end with them.
 */
function secondaryIndexes(columns: readonly TableColumn[]): Array<{ suffix: string; columns: string }> {
  const tiebreak = columns
    .filter((column, index) => column.primaryKey && index > 0)
    .map((column) => `, ${quoteIdent(column.name)} DESC`)
    .join('');
  const first = columns[0] ? `${quoteIdent(columns[0].name)} DESC NULLS LAST${tiebreak}` : null;
  const indexes: Array<{ suffix: string; columns: string }> = [];
  if (first) indexes.push({ suffix: 'order_idx', columns: `request_fingerprint, ${first}` });
  for (const [index, column] of columns.entries())
    if (column.indexed && index > 0)
      indexes.push({
        suffix: `c${index}_idx`,
        columns: `request_fingerprint, ${quoteIdent(column.name)}, ${first}`,
      });
  if (!primaryKeyList(columns) && !first) indexes.push({ suffix: 'fp_idx', columns: 'request_fingerprint' });
  return indexes;
}

/**
 * A fresh, empty partition for a fingerprint's rows (not yet attached, so readers of the view
 * table go on reading the previous rows), without indexes: its primary key comes with
 * `addPartitionKey`, the others with `attachFingerprintPartition`. Returns its qualified name.
 */
export async function createFingerprintPartition(client: PoolClient, table: string): Promise<string> {
  const name = `${PARTITIONS_SCHEMA}.${quoteIdent(`${table.slice(0, 44)}_${randomBytes(6).toString('hex')}`)}`;
  await client.query(`CREATE TABLE ${name} (LIKE ${quoteIdent(table)} INCLUDING DEFAULTS)`);
  return name;
}

/**
 * Builds the partition's primary key (if the view has one) over the rows it holds, in one pass.
 * False, with the partition as it was, when two of its rows share a key: the caller writes them
 * again with the key in place, where ON CONFLICT DO NOTHING keeps the first query's row.
 */
export async function addPartitionKey(
  client: PoolClient,
  partition: string,
  columns: readonly TableColumn[],
): Promise<boolean> {
  const keys = primaryKeyList(columns);
  if (!keys) return true;
  await client.query('SAVEPOINT view_partition_key');
  try {
    await client.query(`ALTER TABLE ${partition} ADD PRIMARY KEY (${keys})`);
    await client.query('RELEASE SAVEPOINT view_partition_key');
    return true;
  } catch (error) {
    await client.query('ROLLBACK TO SAVEPOINT view_partition_key');
    if ((error as { code?: string }).code === '23505') return false;
    throw error;
  }
}

/**
 * Swaps a filled partition in for the fingerprint: its other indexes are built over its rows in
 * one pass each, a CHECK constraint proves its rows are the fingerprint's (so attaching it reads
 * none of them), the fingerprint's previous partition is dropped and the new one attached. Inside
 * the refresh's transaction, readers see the old rows or the new ones.
 */
export async function attachFingerprintPartition(
  client: PoolClient,
  table: string,
  columns: readonly TableColumn[],
  fingerprint: string,
  partition: string,
): Promise<void> {
  const bare = partition.slice(PARTITIONS_SCHEMA.length + 2, -1);
  for (const index of secondaryIndexes(columns))
    await client.query(
      `CREATE INDEX ${quoteIdent(`${bare}_${index.suffix}`)} ON ${partition} (${index.columns})`,
    );
  const value = literal(fingerprint);
  await client.query(
    `ALTER TABLE ${partition} ADD CONSTRAINT ${quoteIdent(`${bare}_fp`)} CHECK (request_fingerprint IS NOT NULL AND request_fingerprint = ${value})`,
  );
  const { rows } = await client.query<{ name: string }>(
    `SELECT c.oid::regclass::text AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = $1::regclass AND pg_get_expr(c.relpartbound, c.oid) = $2`,
    [`public.${quoteIdent(table)}`, `FOR VALUES IN (${value})`],
  );
  for (const row of rows) await client.query(`DROP TABLE ${row.name}`);
  await client.query(
    `ALTER TABLE ${quoteIdent(table)} ATTACH PARTITION ${partition} FOR VALUES IN (${value})`,
  );
}

/**
 * Makes sure the view's table exists with these columns (inside the caller's transaction,
 * which holds the view's advisory lock). Returns true when the table was (re)created.
 */
export async function ensureViewTable(
  client: PoolClient,
  view: { id: string; namespace: string; name: string },
  columns: readonly TableColumn[],
): Promise<{ table: string; created: boolean }> {
  const table = viewTableName(view.namespace, view.name);
  if (!/^view_[a-z0-9_]+$/.test(table) || table.length > 63)
    throw new HttpError(
      400,
      `name: the view table "${table}" must be at most 63 characters of letters, digits and _`,
      'name',
    );
  const shape = tableShape(columns);
  const { rows } = await client.query<{ view_id: string; table_name: string; shape: string }>(
    'SELECT view_id, table_name, shape FROM view_tables WHERE view_id = $1 OR table_name = $2',
    [view.id, table],
  );
  const other = rows.find((row) => row.view_id !== view.id);
  if (other) throw new HttpError(409, `name: another view already stores its rows in ${table}`, 'name');
  const mine = rows.find((row) => row.view_id === view.id);
  const exists = await client.query('SELECT to_regclass($1) AS found', [`public.${table}`]);
  const present = exists.rows[0]?.found !== null;
  if (mine && mine.table_name === table && mine.shape === shape && present) return { table, created: false };
  if (mine && mine.table_name !== table)
    await client.query(`DROP TABLE IF EXISTS ${quoteIdent(mine.table_name)}`);
  await client.query(`DROP TABLE IF EXISTS ${quoteIdent(table)}`);
  const definitions = [
    'request_fingerprint text NOT NULL',
    "agent_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000'",
    // Every row of the table is this view's: a constant default, never written by the refresh.
    `view_id uuid NOT NULL DEFAULT ${literal(view.id)}::uuid`,
    ...columns.map((column) => `${quoteIdent(column.name)} ${sqlType(column.type)}`),
  ];
  const keys = primaryKeyList(columns);
  if (keys) definitions.push(`PRIMARY KEY (${keys})`);
  // One partition per fingerprint (writeFingerprintPartition): a refresh fills a fresh table and
  // swaps it in, instead of deleting and re-inserting the fingerprint's rows in indexed pages.
  await client.query(
    `CREATE TABLE ${quoteIdent(table)} (${definitions.join(', ')}) PARTITION BY LIST (request_fingerprint)`,
  );
  // Partitioned indexes: each partition brings its own, built after its rows are written.
  for (const index of secondaryIndexes(columns))
    await client.query(
      `CREATE INDEX ${quoteIdent(`${table.slice(0, 50)}_${index.suffix}`)} ON ${quoteIdent(table)} (${index.columns})`,
    );
  await client.query(
    `COMMENT ON TABLE ${quoteIdent(table)} IS ${literal(`Rows of the view ${view.namespace}/${view.name}`)}`,
  );
  await grantToPanels(client, table);
  await client.query(
    `INSERT INTO view_tables (view_id, table_name, shape) VALUES ($1, $2, $3)
     ON CONFLICT (view_id) DO UPDATE SET table_name = EXCLUDED.table_name, shape = EXCLUDED.shape, created_at = now()`,
    [view.id, table, shape],
  );
  await client.query('DELETE FROM view_refreshes WHERE view_id = $1', [view.id]);
  return { table, created: true };
}

function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

async function grantToPanels(client: PoolClient, table: string): Promise<void> {
  await client.query('SAVEPOINT view_grant');
  try {
    await client.query(`GRANT SELECT ON ${quoteIdent(table)} TO ${PANEL_ROLE}`);
    await client.query('RELEASE SAVEPOINT view_grant');
  } catch {
    // Without the role (no CREATEROLE where the migrations ran) panels say so when they run.
    await client.query('ROLLBACK TO SAVEPOINT view_grant');
  }
}

/** A value as the column's type stores it; null when it cannot be one. */
export function toColumnValue(type: ViewColumnType, value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'number':
    case 'gauge':
    case 'bytes':
    case 'decimal': {
      const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
      return Number.isFinite(number) ? number : null;
    }
    case 'duration': {
      if (typeof value === 'number') return Number.isFinite(value) ? value : null;
      if (typeof value === 'string') {
        try {
          return parseDuration(value);
        } catch {
          return null;
        }
      }
      return null;
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 1) return true;
      if (value === 'false' || value === 0) return false;
      return null;
    case 'datetime': {
      const time = value instanceof Date ? value : new Date(String(value));
      return Number.isNaN(time.getTime()) ? null : time.toISOString();
    }
    default:
      if (value instanceof Date) return value.toISOString();
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

/** Writes the rows of one fingerprint (already converted values) into its fresh partition, column-wise. */
export async function writeViewRows(
  client: PoolClient,
  /** The table written, as SQL (a quoted, schema-qualified partition). */
  target: string,
  columns: readonly TableColumn[],
  fingerprint: string,
  rows: ReadonlyArray<ReadonlyArray<string | number | boolean | null>>,
): Promise<number> {
  if (rows.length === 0) return 0;
  let inserted = 0;
  const names = columns.map((column) => quoteIdent(column.name)).join(', ');
  const conflict = columns.some((column) => column.primaryKey) ? ' ON CONFLICT DO NOTHING' : '';
  const arrayType = (type: ViewColumnType): string => (type === 'datetime' ? 'text' : sqlType(type));
  const selected = columns
    .map((column, index) => (column.type === 'datetime' ? `c${index}::timestamptz` : `c${index}`))
    .join(', ');
  const unnest = columns.map((column, index) => `$${index + 2}::${arrayType(column.type)}[]`).join(', ');
  const aliases = columns.map((_, index) => `c${index}`).join(', ');
  // Batches keep each statement's parameters bounded.
  const BATCH = 20_000;
  for (let start = 0; start < rows.length; start += BATCH) {
    const batch = rows.slice(start, start + BATCH);
    const arrays = columns.map((_, index) => batch.map((row) => row[index]));
    const result = await client.query(
      `INSERT INTO ${target} (request_fingerprint, ${names})
       SELECT $1, ${selected} FROM unnest(${unnest}) AS u(${aliases})${conflict}`,
      [fingerprint, ...arrays],
    );
    inserted += result.rowCount ?? 0;
  }
  return inserted;
}

/** One query of the refresh's fast path: its source statement and its columns' select list. */
export interface SqlQueryPlan {
  text: string;
  values: unknown[];
  select: string[];
}

/**
 * Writes the rows of one fingerprint into its fresh partition by `INSERT ... SELECT` over the source statements, in
 * order (with a primary key, the first query's row wins, as in `writeViewRows`). Returns the rows
 * written, or null when a row needs the general path (the partition stays empty).
 */
export async function writeViewRowsBySql(
  client: PoolClient,
  /** The table written, as SQL (a quoted, schema-qualified partition). */
  target: string,
  columns: readonly TableColumn[],
  fingerprint: string,
  plans: readonly SqlQueryPlan[],
): Promise<number | null> {
  const names = columns.map((column) => quoteIdent(column.name)).join(', ');
  const conflict = columns.some((column) => column.primaryKey) ? ' ON CONFLICT DO NOTHING' : '';
  await client.query('SAVEPOINT view_sql_refresh');
  try {
    let inserted = 0;
    for (const plan of plans) {
      const result = await client.query(
        `INSERT INTO ${target} (request_fingerprint, ${names})
         SELECT $${plan.values.length + 1}, ${plan.select.join(', ')} FROM (${plan.text}) AS src${conflict}`,
        [...plan.values, fingerprint],
      );
      inserted += result.rowCount ?? 0;
    }
    await client.query('RELEASE SAVEPOINT view_sql_refresh');
    return inserted;
  } catch {
    await client.query('ROLLBACK TO SAVEPOINT view_sql_refresh');
    return null;
  }
}
