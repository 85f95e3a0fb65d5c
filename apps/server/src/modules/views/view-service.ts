/**
 * Running a view: its variables resolved from the request, its queries run and mapped to its
 * columns, the rows materialised into the view's table per request fingerprint (refreshed when
 * older than the cache's maxAge), and its panels' SQL run over those rows.
 */
import { createHash } from 'node:crypto';
import type {
  ViewColumn,
  ViewListItem,
  ViewPanel,
  ViewResult,
  ViewRowsPage,
  ViewRowsRequest,
  ViewVariable,
} from '@opsdeck/contracts';
import { evaluateCel } from '../../expressions/index.js';
import type { Pool, PoolClient } from '../../platform/db/pool.js';
import { HttpError } from '../../platform/http/errors.js';
import type { Logger } from '../../platform/logger.js';
import { parseDuration } from '../../platform/time/index.js';
import { viewSpec, viewSpecIssues, type ViewSpec } from './view-kind.js';
import {
  prometheusRows,
  selectRows,
  sourceFieldTypes,
  sourceStatement,
  type QueryRow,
  type Selector,
} from './view-sources.js';
import { viewScopeCondition, type ViewScope } from './row-scope.js';
import { viewRowsPage } from './view-rows.js';
import { columnsSql, Hoister, kindOfSqlType, withHoisted } from './view-sql-mapping.js';
import {
  addPartitionKey,
  attachFingerprintPartition,
  createFingerprintPartition,
  ensureViewTable,
  PANEL_ROLE,
  quoteIdent,
  tableShape,
  toColumnValue,
  viewTableName,
  writeViewRows,
  writeViewRowsBySql,
  type SqlQueryPlan,
  type TableColumn,
} from './view-table.js';

/** Cache defaults when a view's `cache` leaves them out. */
export const DEFAULT_CACHE = { maxAge: '15m', minAge: '10s', refreshTimeout: '5s' } as const;
/** `rows` of the POST answer holds at most this many rows; pages come from the data API. */
export const MAX_RESPONSE_ROWS = 1000;
/** Distinct values offered per filterable column. */
const MAX_COLUMN_OPTIONS = 200;
const PANEL_TIMEOUT_MS = 5000;

interface ViewRecord {
  id: string;
  name: string;
  namespace: string;
  title: string | null;
  icon: string | null;
  spec: unknown;
}

export interface RunViewOptions {
  variables?: Record<string, string>;
  /** Refresh now unless the rows are younger than minAge. */
  refresh?: boolean;
  logger?: Logger;
  /** Clock for tests. */
  now?: () => number;
}

export async function loadView(pool: Pool, id: string): Promise<ViewRecord> {
  const { rows } = await pool.query<ViewRecord>(
    'SELECT id, name, namespace, title, icon, spec FROM views WHERE id::text = $1 AND deleted_at IS NULL',
    [id],
  );
  if (!rows[0]) throw new HttpError(404, `view ${id} not found`, 'id');
  return rows[0];
}

/** The view's spec, or a 400 naming the first field it gets wrong. */
export function parseViewSpec(spec: unknown): ViewSpec {
  const parsed = viewSpec.safeParse(spec);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = ['spec', ...issue.path.map(String)].join('.');
    throw new HttpError(400, `${field}: ${issue.message}`, field);
  }
  const issues = viewSpecIssues(parsed.data as never);
  if (issues.length > 0) throw new HttpError(400, `${issues[0].path}: ${issues[0].message}`, issues[0].path);
  return parsed.data;
}

function columnsOf(spec: ViewSpec): ViewColumn[] {
  return (spec.columns ?? []).map((column) => ({
    name: column.name,
    type: column.type,
    description: column.description ?? null,
    hidden: column.hidden ?? false,
    primaryKey: column.primaryKey ?? false,
    filterable: column.filterable ?? column.filter !== undefined,
    unit: column.unit ?? null,
    gauge: column.gauge ? { min: column.gauge.min ?? null, max: column.gauge.max ?? null } : null,
  }));
}

function durationMs(text: string, field: string): number {
  try {
    return parseDuration(text);
  } catch (error) {
    throw new HttpError(400, `${field}: ${(error as Error).message}`, field);
  }
}

/** Fills `$(var.x)`, `{{.var.x}}`, `$(config.f)` and `{{.config.f}}` in every string of a value. */
export function fillPlaceholders(
  value: unknown,
  scope: { var: Record<string, string>; config: QueryRow | null },
): unknown {
  if (typeof value === 'string')
    return value.replace(
      /\$\(\s*(var|config)\.([A-Za-z_][A-Za-z0-9_]*)\s*\)|\{\{\s*\.(var|config)\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g,
      (_match, kindA?: string, keyA?: string, kindB?: string, keyB?: string) => {
        const kind = kindA ?? kindB;
        const key = (keyA ?? keyB) as string;
        const found = kind === 'var' ? scope.var[key] : scope.config?.[key];
        return found === undefined || found === null ? '' : String(found);
      },
    );
  if (Array.isArray(value)) return value.map((item) => fillPlaceholders(item, scope));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, fillPlaceholders(item, scope)]),
    );
  return value;
}

/** The variables' options and the values this request selects. */
async function resolveVariables(
  pool: Pool,
  spec: ViewSpec,
  requested: Record<string, string>,
): Promise<{ variables: ViewVariable[]; values: Record<string, string>; config: QueryRow | null }> {
  const declared = spec.templating ?? [];
  const keys = new Set(declared.map((variable) => variable.key));
  let config: QueryRow | null = null;
  for (const [key, value] of Object.entries(requested)) {
    if (key === 'config_id') {
      const { rows } = await pool.query<QueryRow>(
        'SELECT id, name, namespace, type, status, health, labels, tags, agent_id FROM config_items WHERE id::text = $1',
        [value],
      );
      if (!rows[0])
        throw new HttpError(400, `variables.config_id: no config item ${value}`, 'variables.config_id');
      config = rows[0];
      continue;
    }
    if (!keys.has(key))
      throw new HttpError(
        400,
        `variables.${key}: the view declares no variable "${key}"`,
        `variables.${key}`,
      );
  }
  const values: Record<string, string> = {};
  const variables: ViewVariable[] = [];
  for (const [index, variable] of declared.entries()) {
    let options: string[] = variable.values ?? [];
    const from = variable.valueFrom;
    if (options.length === 0 && from) {
      const source = from.config ? 'configs' : from.component ? 'components' : 'checks';
      const selector = fillPlaceholders(from.config ?? from.component ?? from.check, {
        var: values,
        config,
      }) as Selector;
      const rows = await selectRows(pool, source, selector, `spec.templating[${index}].valueFrom`);
      options = [
        ...new Set(rows.map((row) => row.name).filter((name): name is string => typeof name === 'string')),
      ].sort();
    }
    const wanted = requested[variable.key];
    if (wanted !== undefined && options.length > 0 && !options.includes(wanted))
      throw new HttpError(
        400,
        `variables.${variable.key}: "${wanted}" is not one of the variable's values`,
        `variables.${variable.key}`,
      );
    const fallback =
      variable.default !== undefined && (options.length === 0 || options.includes(variable.default))
        ? variable.default
        : options[0];
    const value = wanted ?? fallback ?? '';
    values[variable.key] = value;
    variables.push({
      key: variable.key,
      label: variable.label ?? variable.key,
      options,
      default: fallback ?? null,
      value,
    });
  }
  return { variables, values, config };
}

/** The hash of the variables a request resolved to: the rows of equal requests are shared. */
export function requestFingerprint(values: Record<string, string>, configId: string | null): string {
  const entries = Object.entries(values).sort(([a], [b]) => a.localeCompare(b));
  if (configId) entries.push(['config_id', configId]);
  return createHash('sha256').update(JSON.stringify(entries)).digest('hex').slice(0, 32);
}

/**
 * The fields of `row` a set of CEL expressions reads, or null when one of them uses `row` whole
 * (then every field is passed). Converting only those fields into CEL values keeps a mapping over
 * 100,000 rows from converting every row's tags and labels it never reads.
 */
export function rowFieldsRead(expressions: readonly string[]): Set<string> | null {
  const fields = new Set<string>();
  for (const expression of expressions) {
    const withoutStrings = expression.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
    const uses = withoutStrings.match(/(?<![\w.])row\b(\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)?/g) ?? [];
    for (const use of uses) {
      const field = /\.\s*([A-Za-z_][A-Za-z0-9_]*)$/.exec(use);
      if (!field) return null;
      fields.add(field[1]);
    }
  }
  return fields;
}

function pick(row: QueryRow, fields: Set<string> | null): QueryRow {
  if (fields === null) return row;
  const picked: QueryRow = {};
  for (const field of fields) if (field in row) picked[field] = row[field];
  return picked;
}

/** Runs every query and maps its rows to the columns (CEL `mapping`, else the same-named field). */
async function buildRows(
  pool: Pool,
  spec: ViewSpec,
  columns: readonly TableColumn[],
  scope: { var: Record<string, string>; config: QueryRow | null },
  signal: AbortSignal,
): Promise<Array<Array<string | number | boolean | null>>> {
  const mapping = spec.mapping ?? {};
  const mapped = columns.filter((column) => mapping[column.name] !== undefined);
  const expressions = mapped.map((column) => mapping[column.name]);
  // All of a row's mappings in one CEL list: the row is converted once, not once per column.
  const combined = expressions.length > 0 ? `[${expressions.map((e) => `(${e})`).join(', ')}]` : null;
  const fields = rowFieldsRead(expressions);
  const out: Array<Array<string | number | boolean | null>> = [];
  for (const [name, rawQuery] of Object.entries(spec.queries ?? {})) {
    const query = fillPlaceholders(rawQuery, scope) as Record<string, unknown>;
    const path = `spec.queries.${name}`;
    let rows: QueryRow[];
    if (query.prometheus) {
      const prometheus = query.prometheus as { url: string; query: string };
      rows = await prometheusRows(prometheus.url, prometheus.query, `${path}.prometheus`, signal);
    } else {
      const source = (['configs', 'changes', 'checks', 'components'] as const).find((key) => query[key]);
      if (!source)
        throw new HttpError(
          400,
          `${path}: a query reads one of configs, changes, checks, components, prometheus`,
          path,
        );
      rows = await selectRows(pool, source, query[source] as Selector, `${path}.${source}`);
    }
    const config = scope.config ?? {};
    for (const row of rows) {
      const values = new Map<string, unknown>();
      if (combined !== null) {
        const context = { row: pick(row, fields), var: scope.var, config, query: name };
        let results: unknown;
        try {
          results = evaluateCel(combined, context);
        } catch {
          // One of them failed: evaluate them one by one to name the column.
          results = mapped.map((column) => {
            try {
              return evaluateCel(mapping[column.name], context);
            } catch (error) {
              const field = `spec.mapping.${column.name}`;
              throw new HttpError(400, `${field}: ${(error as Error).message}`, field);
            }
          });
        }
        mapped.forEach((column, index) => values.set(column.name, (results as unknown[])[index]));
      }
      out.push(
        columns.map((column) =>
          toColumnValue(column.type, values.has(column.name) ? values.get(column.name) : row[column.name]),
        ),
      );
    }
    if (signal.aborted) break;
  }
  return out;
}

const DATABASE_SOURCES = ['configs', 'changes', 'checks', 'components'] as const;

/**
 * The refresh as SQL statements (view-sql-mapping.ts), or null when a query reads Prometheus or a
 * mapping needs CEL in Node.
 */
export async function sqlPlans(
  pool: Pool,
  spec: ViewSpec,
  columns: readonly TableColumn[],
  scope: { var: Record<string, string>; config: QueryRow | null },
): Promise<SqlQueryPlan[] | null> {
  const plans: SqlQueryPlan[] = [];
  for (const [name, rawQuery] of Object.entries(spec.queries ?? {})) {
    const query = fillPlaceholders(rawQuery, scope) as Record<string, unknown>;
    if (query.prometheus) return null;
    const source = DATABASE_SOURCES.find((key) => query[key]);
    if (!source) return null;
    const statement = sourceStatement(source, query[source] as Selector, `spec.queries.${name}.${source}`);
    const kinds = new Map<string, NonNullable<ReturnType<typeof kindOfSqlType>>>();
    for (const [field, dataType] of await sourceFieldTypes(pool, source)) {
      const kind = kindOfSqlType(dataType);
      if (kind) kinds.set(field, kind);
    }
    const hoister = new Hoister();
    const select = columnsSql(columns, spec.mapping ?? {}, kinds, hoister);
    if (!select) return null;
    plans.push({ text: withHoisted(statement.text, hoister.levels), values: statement.values, select });
  }
  return plans;
}

async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

interface RefreshState {
  refreshed_at: Date;
  row_count: number | null;
}

async function lastRefresh(pool: Pool, viewId: string, fingerprint: string): Promise<RefreshState | null> {
  const { rows } = await pool.query<RefreshState>(
    `SELECT r.refreshed_at, r.row_count FROM view_refreshes r JOIN view_tables t ON t.view_id = r.view_id
     WHERE r.view_id = $1 AND r.request_fingerprint = $2`,
    [viewId, fingerprint],
  );
  return rows[0] ?? null;
}

/** Materialises the rows of one fingerprint (once across replicas: the view's advisory lock). */
async function refresh(
  pool: Pool,
  view: ViewRecord,
  spec: ViewSpec,
  columns: readonly TableColumn[],
  scope: { var: Record<string, string>; config: QueryRow | null },
  fingerprint: string,
  maxAgeMs: number,
  force: boolean,
  now: () => number,
  logger?: Logger,
): Promise<void> {
  const controller = new AbortController();
  const plans = await sqlPlans(pool, spec, columns, scope);
  const built = plans ? null : await buildRows(pool, spec, columns, scope, controller.signal);
  let analyzePartition: string | null = null;
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`view:${view.id}`]);
    const { created, table } = await ensureViewTable(client, view, columns);
    if (!created && !force) {
      // Another request refreshed it while this one was querying.
      const { rows: fresh } = await client.query<RefreshState>(
        'SELECT refreshed_at FROM view_refreshes WHERE view_id = $1 AND request_fingerprint = $2',
        [view.id, fingerprint],
      );
      if (fresh[0] && now() - fresh[0].refreshed_at.getTime() < maxAgeMs) return;
    }
    // The rows go into a fresh partition, swapped in for the fingerprint's previous one.
    const partition = await createFingerprintPartition(client, table);
    let keyed = false;
    // The SQL path writes into the bare partition and builds the primary key after, in one pass.
    let written = plans ? await writeViewRowsBySql(client, partition, columns, fingerprint, plans) : null;
    if (written !== null) {
      keyed = await addPartitionKey(client, partition, columns);
      if (!keyed) {
        // Two rows share a key: again with the key in place, where the first query's row wins.
        await client.query(`TRUNCATE ${partition}`);
        keyed = await addPartitionKey(client, partition, columns);
        written = await writeViewRowsBySql(client, partition, columns, fingerprint, plans!);
      }
    }
    if (written === null) {
      // Prometheus, a mapping only CEL evaluates, or a row value the SQL could not convert.
      if (!keyed) keyed = await addPartitionKey(client, partition, columns);
      const rows = built ?? (await buildRows(pool, spec, columns, scope, controller.signal));
      written = await writeViewRows(client, partition, columns, fingerprint, rows);
    }
    await attachFingerprintPartition(client, table, columns, fingerprint, partition);
    await client.query(
      `INSERT INTO view_refreshes (view_id, request_fingerprint, variables, refreshed_at, row_count)
       VALUES ($1, $2, $3, to_timestamp($4 / 1000.0), $5)
       ON CONFLICT (view_id, request_fingerprint) DO UPDATE
         SET variables = EXCLUDED.variables, refreshed_at = EXCLUDED.refreshed_at, row_count = EXCLUDED.row_count`,
      [view.id, fingerprint, JSON.stringify(scope.var), now(), written],
    );
    await client.query('UPDATE views SET last_ran = now(), error = NULL WHERE id = $1', [view.id]);
    analyzePartition = partition;
  });
  // The fresh partition has no statistics yet (filtered totals past 10,000 rows are the planner's
  // estimate): ANALYZE after the commit, and the answer does not wait.
  if (analyzePartition) {
    const partition = analyzePartition;
    void pool.query(`ANALYZE ${partition}`).catch((error: unknown) => {
      // A later refresh may have swapped it out already.
      if ((error as { code?: string }).code === '42P01') return;
      logger?.warn({ view: view.id, err: (error as Error).message }, 'analyzing a view partition failed');
    });
  }
}

/** Panel SQL reads the rows of this request as `rows` (and, with one query, under its name too). */
function panelStatement(spec: ViewSpec, table: string, columns: readonly TableColumn[], sql: string): string {
  const list = columns.map((column) => quoteIdent(column.name)).join(', ');
  const ctes = [`rows AS (SELECT ${list} FROM ${quoteIdent(table)} WHERE request_fingerprint = $1)`];
  const queryNames = Object.keys(spec.queries ?? {});
  if (queryNames.length === 1 && queryNames[0] !== 'rows')
    ctes.push(`${quoteIdent(queryNames[0])} AS (SELECT * FROM rows)`);
  const body = sql.trim().replace(/;\s*$/, '');
  const withClause = /^with\s+(recursive\s+)?/i.exec(body);
  if (withClause) return `WITH ${withClause[1] ?? ''}${ctes.join(', ')}, ${body.slice(withClause[0].length)}`;
  return `WITH ${ctes.join(', ')} ${body}`;
}

async function runPanels(
  pool: Pool,
  spec: ViewSpec,
  table: string,
  columns: readonly TableColumn[],
  fingerprint: string,
): Promise<ViewPanel[]> {
  const panels: ViewPanel[] = [];
  for (const panel of spec.panels ?? []) {
    const base = {
      name: panel.name,
      description: panel.description ?? null,
      type: panel.type,
      unit: panel.unit ?? null,
      gauge: panel.gauge ? { min: panel.gauge.min ?? null, max: panel.gauge.max ?? null } : null,
    };
    const client = await pool.connect();
    try {
      await client.query('BEGIN READ ONLY');
      await client.query(`SET LOCAL statement_timeout = ${PANEL_TIMEOUT_MS}`);
      await client.query(`SET LOCAL ROLE ${PANEL_ROLE}`);
      const { rows } = await client.query<Record<string, unknown>>(
        panelStatement(spec, table, columns, panel.query),
        [fingerprint],
      );
      panels.push({ ...base, rows: rows.map(plainRow) });
    } catch (error) {
      panels.push({ ...base, rows: [], error: (error as Error).message });
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
    }
  }
  return panels;
}

/** pg gives numeric and bigint as strings and timestamps as Dates: numbers and ISO text for JSON. */
function plainRow(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [
      key,
      value instanceof Date
        ? value.toISOString()
        : typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) && value.length < 16
          ? Number(value)
          : value,
    ]),
  );
}

function plainValue(type: TableColumn['type'], value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if ((type === 'bytes' || type === 'decimal') && typeof value === 'string') return Number(value);
  return value;
}

function tableColumnsOf(columns: readonly ViewColumn[]): TableColumn[] {
  return columns.map((column) => ({
    name: column.name,
    type: column.type,
    primaryKey: column.primaryKey === true,
    indexed: column.filterable === true,
  }));
}

/**
 * `POST /api/view/{id}/rows`: one page of the rows a `POST /api/view/{id}` materialised for its
 * fingerprint (view-rows.ts). A fingerprint never materialised for this view is a 404.
 */
export async function viewRows(pool: Pool, id: string, request: ViewRowsRequest): Promise<ViewRowsPage> {
  const view = await loadView(pool, id);
  const tableColumns = tableColumnsOf(columnsOf(parseViewSpec(view.spec)));
  const table = viewTableName(view.namespace, view.name);
  const { rows } = await pool.query<{ row_count: number | null }>(
    `SELECT r.row_count FROM view_refreshes r JOIN view_tables t ON t.view_id = r.view_id
      WHERE r.view_id = $1 AND r.request_fingerprint = $2 AND t.table_name = $3 AND t.shape = $4`,
    [view.id, request.requestFingerprint, table, tableShape(tableColumns)],
  );
  if (!rows[0])
    throw new HttpError(
      404,
      'requestFingerprint: the view holds no rows for it: run the view (POST /api/view/{id}) first',
      'requestFingerprint',
    );
  return viewRowsPage(
    pool,
    { table, columns: tableColumns, fingerprint: request.requestFingerprint, rowCount: rows[0].row_count },
    request,
  );
}

/** `POST /api/view/{id}`: the view's rows for the request's variables, refreshed when stale. */
export async function runView(pool: Pool, id: string, options: RunViewOptions = {}): Promise<ViewResult> {
  const now = options.now ?? Date.now;
  const view = await loadView(pool, id);
  const spec = parseViewSpec(view.spec);
  const columns = columnsOf(spec);
  const tableColumns = tableColumnsOf(columns);
  const { variables, values, config } = await resolveVariables(pool, spec, options.variables ?? {});
  const configId = config ? String(config.id) : null;
  const fingerprint = requestFingerprint(values, configId);
  const maxAgeMs = durationMs(spec.cache?.maxAge ?? DEFAULT_CACHE.maxAge, 'spec.cache.maxAge');
  const minAgeMs = durationMs(spec.cache?.minAge ?? DEFAULT_CACHE.minAge, 'spec.cache.minAge');
  const timeoutMs = durationMs(
    spec.cache?.refreshTimeout ?? DEFAULT_CACHE.refreshTimeout,
    'spec.cache.refreshTimeout',
  );
  const table = viewTableName(view.namespace, view.name);

  const shapeChanged = await pool
    .query<{ shape_ok: boolean }>(
      `SELECT table_name = $2 AND shape = $3 AS shape_ok FROM view_tables WHERE view_id = $1`,
      [view.id, table, tableShape(tableColumns)],
    )
    .then(({ rows }) => rows[0]?.shape_ok !== true);
  const last = shapeChanged ? null : await lastRefresh(pool, view.id, fingerprint);
  const age = last ? now() - last.refreshed_at.getTime() : Infinity;
  const stale = age >= maxAgeMs || (options.refresh === true && age >= minAgeMs);
  if (stale) {
    const scope = { var: values, config };
    const running = refresh(
      pool,
      view,
      spec,
      tableColumns,
      scope,
      fingerprint,
      maxAgeMs,
      options.refresh === true,
      now,
      options.logger,
    );
    running.catch(async (error: unknown) => {
      if (error instanceof HttpError && error.statusCode < 500) return;
      options.logger?.warn({ view: view.id, err: (error as Error).message }, 'view refresh failed');
      await pool
        .query('UPDATE views SET error = $2 WHERE id = $1', [view.id, (error as Error).message])
        .catch(() => undefined);
    });
    if (last) {
      // Stale rows are served when the refresh takes longer than refreshTimeout; it goes on.
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      await Promise.race([running, timedOut]).finally(() => clearTimeout(timer));
    } else {
      await running;
    }
  }
  const visible = await lastRefresh(pool, view.id, fingerprint);
  const list = tableColumns.map((column) => quoteIdent(column.name)).join(', ');
  const { rows } = visible
    ? await pool.query<Record<string, unknown>>({
        text: `SELECT ${list} FROM ${quoteIdent(table)} WHERE request_fingerprint = $1 LIMIT ${MAX_RESPONSE_ROWS}`,
        values: [fingerprint],
      })
    : { rows: [] };
  const columnOptions: Record<string, string[]> = {};
  if (visible)
    for (const column of columns.filter((c) => c.filterable)) {
      const options = await pool.query<{ value: string }>(
        `SELECT DISTINCT ${quoteIdent(column.name)}::text AS value FROM ${quoteIdent(table)}
         WHERE request_fingerprint = $1 AND ${quoteIdent(column.name)} IS NOT NULL ORDER BY 1 LIMIT ${MAX_COLUMN_OPTIONS}`,
        [fingerprint],
      );
      columnOptions[column.name] = options.rows.map((row) => row.value);
    }
  const panels = visible ? await runPanels(pool, spec, table, tableColumns, fingerprint) : [];
  return {
    id: view.id,
    name: view.name,
    namespace: view.namespace,
    title: view.title,
    icon: view.icon,
    columns,
    rows: rows.map((row) => tableColumns.map((column) => plainValue(column.type, row[column.name]) ?? null)),
    panels,
    columnOptions,
    variables,
    requestFingerprint: fingerprint,
    lastRefreshedAt: visible ? visible.refreshed_at.toISOString() : null,
    rowCount: visible?.row_count ?? null,
    table,
  };
}

/** `GET /api/view/list?config_id=`: views whose config tab lists the config item's type. */
export async function viewsForConfig(
  pool: Pool,
  configId: string,
  scope: ViewScope = { filters: null },
): Promise<ViewListItem[]> {
  const { rows: configs } = await pool.query<{ type: string }>(
    'SELECT type FROM config_items WHERE id::text = $1',
    [configId],
  );
  if (!configs[0]) throw new HttpError(404, `config item ${configId} not found`, 'config_id');
  const values: unknown[] = [configs[0].type];
  // Only the views the caller may read (permission rows naming views by selector).
  const permitted = viewScopeCondition(scope.filters, 'v', values);
  const { rows } = await pool.query<ViewListItem>(
    `SELECT v.id, v.name, v.namespace, v.title, v.icon, v.ordinal
       FROM views v
      WHERE v.deleted_at IS NULL
        AND EXISTS (
          SELECT 1 FROM jsonb_array_elements(coalesce(v.spec->'display'->'plugins', '[]'::jsonb)) p
           WHERE p->'configTab'->'types' ? $1)${permitted ? ` AND ${permitted}` : ''}
      ORDER BY v.ordinal NULLS LAST, v.name`,
    values,
  );
  return rows;
}

/** Drops the tables of views that were deleted (soft or hard) or renamed away. */
export async function dropOrphanViewTables(pool: Pool): Promise<string[]> {
  const { rows } = await pool.query<{ view_id: string; table_name: string }>(
    `SELECT t.view_id, t.table_name FROM view_tables t JOIN views v ON v.id = t.view_id
      WHERE v.deleted_at IS NOT NULL`,
  );
  const dropped: string[] = [];
  for (const row of rows) {
    await inTransaction(pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`view:${row.view_id}`]);
      await client.query(`DROP TABLE IF EXISTS ${quoteIdent(row.table_name)}`);
      await client.query('DELETE FROM view_tables WHERE view_id = $1', [row.view_id]);
    });
    dropped.push(row.table_name);
  }
  // Hard-deleted views: their view_tables row went with them; their tables carry our comment.
  const { rows: leftovers } = await pool.query<{ table_name: string }>(
    `SELECT c.relname AS table_name FROM pg_class c
      WHERE c.relkind IN ('r', 'p') AND c.relnamespace = 'public'::regnamespace AND c.relname LIKE 'view\\_%'
        AND obj_description(c.oid, 'pg_class') LIKE 'Rows of the view %'
        AND NOT EXISTS (SELECT 1 FROM view_tables t WHERE t.table_name = c.relname)`,
  );
  for (const row of leftovers) {
    await pool.query(`DROP TABLE IF EXISTS ${quoteIdent(row.table_name)}`);
    dropped.push(row.table_name);
  }
  return dropped;
}
