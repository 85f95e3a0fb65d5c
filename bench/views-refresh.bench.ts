// A view refresh's write, both ways in one run (issue 28, ADR 0040), over the 100,000 config items
// and the view of views.bench.ts: the way before (DELETE the fingerprint's rows, then
// INSERT ... SELECT ... ON CONFLICT DO NOTHING into the indexed table, each mapping's JSON reads
// inlined at every use) against the refresh's way now (a fresh partition filled with the JSON
// reads computed once per row, its indexes built after, swapped in for the old partition). The two
// alternate, so both see the same machine load. The whole POST /api/view/{id} refresh is timed
// too. Sizes: VIEWS_BENCH_ITEMS (default 100,000), VIEWS_REFRESH_ROUNDS (default 4).
import { loadavg } from 'node:os';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { createTokenForUser } from '../apps/server/src/modules/auth/index.js';
import { parseViewSpec, sqlPlans } from '../apps/server/src/modules/views/view-service.js';
import { sourceFieldTypes, sourceStatement } from '../apps/server/src/modules/views/view-sources.js';
import { columnsSql, kindOfSqlType } from '../apps/server/src/modules/views/view-sql-mapping.js';
import {
  addPartitionKey,
  attachFingerprintPartition,
  createFingerprintPartition,
  quoteIdent,
  writeViewRowsBySql,
  type TableColumn,
} from '../apps/server/src/modules/views/view-table.js';
import { createPool } from '../apps/server/src/platform/db/pool.js';
import { createJobsService } from '../apps/server/src/platform/jobs/index.js';
import { createLogger } from '../apps/server/src/platform/logger.js';
import { createSecretBox, keyFromSecret } from '../apps/server/src/platform/secrets.js';
import { createPerson } from '../apps/server/test/harness/factories.js';
import type { BenchContext } from './run.js';

const ITEMS = Number(process.env.VIEWS_BENCH_ITEMS ?? 100_000);
const ROUNDS = Number(process.env.VIEWS_REFRESH_ROUNDS ?? 4);

const SEED_ITEMS = `
INSERT INTO config_items (type, config_class, name, namespace, status, health, tags, cost_per_minute, created_at)
SELECT 'Bench::Pod', 'Pod', 'pod-' || lpad(i::text, 6, '0'), 'ns-' || (i % 20),
       (ARRAY['Running', 'Pending', 'Failed'])[1 + i % 3],
       (ARRAY['healthy', 'healthy', 'unhealthy', 'warning'])[1 + i % 4],
       jsonb_build_object('cluster', 'bench', 'cpu', (i % 16)::text),
       (i % 97) / 1000.0, now() - (i % 10000) * interval '1 minute'
  FROM generate_series(1, $1::int) AS i`;

// The view of views.bench.ts.
const VIEW_SPEC = {
  display: { title: 'Bench items', sidebar: true },
  cache: { maxAge: '1h', minAge: '0s', refreshTimeout: '1m' },
  templating: [{ key: 'cluster', label: 'Cluster', values: ['bench'] }],
  queries: { pods: { configs: { types: ['Bench::Pod'], tagSelector: 'cluster=$(var.cluster)' } } },
  columns: [
    { name: 'name', type: 'string', primaryKey: true },
    { name: 'namespace', type: 'string' },
    { name: 'health', type: 'health', filter: { type: 'multiselect' } },
    { name: 'status', type: 'status' },
    { name: 'cpu', type: 'number' },
    { name: 'cost', type: 'decimal' },
    { name: 'created_at', type: 'datetime' },
  ],
  mapping: { cpu: 'double(row.tags.cpu)', cost: 'row.cost_per_minute' },
  panels: [
    { name: 'Health', type: 'piechart', query: 'SELECT health, count(*) AS count FROM rows GROUP BY health' },
    { name: 'Pods', type: 'number', query: 'SELECT count(*) AS value FROM rows' },
  ],
};

const COLUMNS: TableColumn[] = VIEW_SPEC.columns.map((column) => ({
  name: column.name,
  type: column.type as TableColumn['type'],
  primaryKey: column.primaryKey === true,
  indexed: column.filter !== undefined,
}));

const round = (value: number) => Math.round(value * 10) / 10;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = (sorted.length - 1) / 2;
  return (sorted[Math.floor(middle)] + sorted[Math.ceil(middle)]) / 2;
};

export default async function run(ctx: BenchContext): Promise<Record<string, unknown>> {
  const seed = new pg.Client({ connectionString: ctx.databaseUrl });
  await seed.connect();
  await seed.query(SEED_ITEMS, [ITEMS]);
  await seed.query('VACUUM ANALYZE config_items');
  await seed.end();

  const pool = createPool(ctx.databaseUrl, { max: 10 });
  const logger = createLogger('warn');
  const { app } = await buildApp({
    config: loadConfig({ WEB_DIST_DIR: '/nonexistent', LOG_LEVEL: 'warn' }),
    pool,
    logger,
    secrets: createSecretBox(keyFromSecret('a-bench-secret-key')),
    jobs: createJobsService({ pool, logger }),
  });
  try {
    const admin = await createPerson(pool, { name: 'Bench admin', roles: ['admin'] });
    const token = await createTokenForUser(pool, { email: admin.email as string, name: 'bench' });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${base}/api/db/views`, {
      method: 'POST',
      headers: { ...headers, prefer: 'return=representation' },
      body: JSON.stringify({ name: 'items', namespace: 'bench', spec: VIEW_SPEC }),
    });
    if (!created.ok) throw new Error(`create view: HTTP ${created.status} ${await created.text()}`);
    const viewId = ((await created.json()) as Array<{ id: string }>)[0].id;
    const refreshView = async (): Promise<{ ms: number; fingerprint: string }> => {
      const started = performance.now();
      const response = await fetch(`${base}/api/view/${viewId}`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ variables: { cluster: 'bench' }, refresh: true }),
      });
      const body = (await response.json()) as {
        requestFingerprint: string;
        rowCount: number;
        error?: string;
      };
      if (!response.ok || body.rowCount !== ITEMS)
        throw new Error(`refresh: HTTP ${response.status} ${body.error ?? body.rowCount}`);
      return { ms: performance.now() - started, fingerprint: body.requestFingerprint };
    };
    const { fingerprint } = await refreshView();

    const scope = { var: { cluster: 'bench' }, config: null };
    const plans = await sqlPlans(pool, parseViewSpec(VIEW_SPEC), COLUMNS, scope);
    if (!plans) throw new Error('the bench view has no SQL plan');
    // The plans as before: every JSON read inlined at each use.
    const statement = sourceStatement(
      'configs',
      { types: ['Bench::Pod'], tagSelector: 'cluster=bench' },
      'spec.queries.pods.configs',
    );
    const kinds = new Map<string, NonNullable<ReturnType<typeof kindOfSqlType>>>();
    for (const [field, dataType] of await sourceFieldTypes(pool, 'configs')) {
      const kind = kindOfSqlType(dataType);
      if (kind) kinds.set(field, kind);
    }
    const inlinePlans = [{ ...statement, select: columnsSql(COLUMNS, VIEW_SPEC.mapping, kinds)! }];

    // The table as before: not partitioned, its indexes maintained row by row.
    const keys = 'request_fingerprint, "name"';
    await pool.query(
      `CREATE TABLE bench_view_before (request_fingerprint text NOT NULL,
         agent_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000',
         ${COLUMNS.map((column) => `${quoteIdent(column.name)} ${column.type === 'datetime' ? 'timestamptz' : column.type === 'decimal' ? 'numeric' : column.type === 'number' ? 'double precision' : 'text'}`).join(', ')},
         PRIMARY KEY (${keys}))`,
    );
    await pool.query(
      'CREATE INDEX bench_view_before_order ON bench_view_before (request_fingerprint, "name" DESC NULLS LAST)',
    );
    await pool.query(
      'CREATE INDEX bench_view_before_health ON bench_view_before (request_fingerprint, health, "name" DESC NULLS LAST)',
    );

    const inTransaction = async (work: (client: pg.PoolClient) => Promise<void>): Promise<number> => {
      const client = await pool.connect();
      const started = performance.now();
      try {
        await client.query('BEGIN');
        await work(client as unknown as pg.PoolClient);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      } finally {
        client.release();
      }
      return performance.now() - started;
    };
    const before: number[] = [];
    const now: number[] = [];
    const endpoint: number[] = [];
    const loads: number[] = [];
    for (let round_ = 0; round_ < ROUNDS + 1; round_++) {
      const beforeMs = await inTransaction(async (client) => {
        await client.query('DELETE FROM bench_view_before WHERE request_fingerprint = $1', [fingerprint]);
        const written = await writeViewRowsBySql(
          client as never,
          'bench_view_before',
          COLUMNS,
          fingerprint,
          inlinePlans,
        );
        if (written !== ITEMS) throw new Error(`before: wrote ${written}`);
      });
      // As the refresh did: the dead rows vacuumed after it, not timed.
      await pool.query('VACUUM bench_view_before');
      const nowMs = await inTransaction(async (client) => {
        const partition = await createFingerprintPartition(client as never, 'view_bench_items');
        const written = await writeViewRowsBySql(client as never, partition, COLUMNS, fingerprint, plans);
        if (written !== ITEMS) throw new Error(`now: wrote ${written}`);
        if (!(await addPartitionKey(client as never, partition, COLUMNS)))
          throw new Error('now: duplicate keys');
        await attachFingerprintPartition(
          client as never,
          'view_bench_items',
          COLUMNS,
          fingerprint,
          partition,
        );
      });
      const whole = await refreshView();
      // The first round warms caches (and fills bench_view_before): not counted.
      if (round_ > 0) {
        before.push(beforeMs);
        now.push(nowMs);
        endpoint.push(whole.ms);
        loads.push(loadavg()[0]);
      }
      ctx.log(
        `round ${round_}: before ${round(beforeMs)} ms, now ${round(nowMs)} ms, POST refresh ${round(whole.ms)} ms (load ${loadavg()[0].toFixed(1)})`,
      );
    }
    const results = {
      writeBeforeMedianMs: round(median(before)),
      writeNowMedianMs: round(median(now)),
      ratio: Math.round((median(before) / median(now)) * 100) / 100,
      postRefreshMedianMs: round(median(endpoint)),
      writeBeforeMs: before.map(round),
      writeNowMs: now.map(round),
      postRefreshMs: endpoint.map(round),
      loadAverage1m: loads.map((load) => round(load)),
    };
    ctx.log(
      `write: before ${results.writeBeforeMedianMs} ms, now ${results.writeNowMedianMs} ms (x${results.ratio}); POST refresh ${results.postRefreshMedianMs} ms`,
    );
    return { items: ITEMS, rounds: ROUNDS, targetMs: 2000, results };
  } finally {
    await app.close();
    await pool.end();
  }
}
