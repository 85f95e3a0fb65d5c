// Catalog at scale (issue 9): generated config items (labels, tags, costs, a relationship tree)
// and changes, then p95 of the catalog calls through the composed HTTP API (buildApp, listening,
// a bearer token): the catalog list with two filters and a search term (the web's own query),
// the summary by class and type, related configs at depth 5 and the change search. The requests
// are the ones the web app sends (features/catalog/lib/catalog-query.ts; the list's query string is
// built by its configListSearch).
// Targets: list and change search under 100 ms, summary under 300 ms.
// Sizes: CATALOG_BENCH_ITEMS (default 1,000,000) and CATALOG_BENCH_CHANGES (default 10,000,000).
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.js';
import { createTokenForUser } from '../apps/server/src/modules/auth/index.js';
import { loadConfig } from '../apps/server/src/config.js';
import { createPool } from '../apps/server/src/platform/db/pool.js';
import { createJobsService } from '../apps/server/src/platform/jobs/index.js';
import { createLogger } from '../apps/server/src/platform/logger.js';
import { createSecretBox, keyFromSecret } from '../apps/server/src/platform/secrets.js';
import { createPerson } from '../apps/server/test/harness/factories.js';
import { configListSearch } from '../apps/web/src/features/catalog/lib/catalog-query.js';
import type { BenchContext } from './run.js';

const ITEMS = Number(process.env.CATALOG_BENCH_ITEMS ?? 1_000_000);
const CHANGES = Number(process.env.CATALOG_BENCH_CHANGES ?? 10_000_000);
const ITERATIONS = Number(process.env.CATALOG_BENCH_ITERATIONS ?? 60);
const WARMUP = 5;
const TARGETS_MS = { list: 100, changeSearch: 100, summary: 300 } as const;

const TYPES = 20;
const SCRAPER_ID = '00000000-0000-4000-8000-0000000000b1';
/** Item i's id: deterministic, so relationships and changes can name items without a lookup. */
const itemId = (i: string) => `md5('bench-item-' || ${i})::uuid`;

const SEED_SCRAPER = `INSERT INTO config_scrapers (id, name, namespace, spec, source)
VALUES ('${SCRAPER_ID}', 'bench', 'bench', '{}', 'bench')`;

const SEED_ITEMS = `
INSERT INTO config_items (id, scraper_id, type, config_class, name, namespace, description, status, health,
                          labels, tags, external_id, cost_per_minute, cost_total_1d, cost_total_7d,
                          cost_total_30d, created_at, updated_at, deleted_at)
SELECT ${itemId('i')}, '${SCRAPER_ID}',
       'Bench::Type' || (i % ${TYPES}), 'Class' || (i % 5),
       'item-' || lpad(i::text, 7, '0'), 'ns-' || (i % 50), 'Generated item ' || i,
       (ARRAY['Running', 'Pending', 'Stopped', 'Failed'])[1 + i % 4],
       (ARRAY['healthy', 'healthy', 'healthy', 'unhealthy', 'warning', 'unknown'])[1 + i % 6],
       jsonb_build_object('app', 'app-' || (i % 1000), 'team', 'team-' || (i % 25)),
       jsonb_build_object('env', (ARRAY['prod', 'staging', 'dev'])[1 + i % 3], 'region', 'region-' || (i % 8),
                          'cluster', 'cluster-' || (i % 40)),
       ARRAY['bench/' || i],
       CASE WHEN i % 4 = 0 THEN NULL ELSE (i % 97) / 1000.0 END,
       CASE WHEN i % 4 = 0 THEN NULL ELSE (i % 97) * 1.44 END,
       CASE WHEN i % 4 = 0 THEN NULL ELSE (i % 97) * 10.08 END,
       CASE WHEN i % 4 = 0 THEN NULL ELSE (i % 97) * 43.2 END,
       now() - (i % 100000) * interval '1 minute', now() - (i % 5000) * interval '1 minute',
       CASE WHEN i % 50 = 0 THEN now() - interval '1 day' END
  FROM generate_series(1, $1::int) AS i
`;

// A tree: item i contains items 4i … 4i+3, so depth 5 below a node reaches up to 1,364 items.
const SEED_RELATIONSHIPS = `
INSERT INTO config_relationships (config_id, related_id, relation, selector_id)
SELECT ${itemId('(i / 4)')}, ${itemId('i')}, 'contains', 'bench'
  FROM generate_series(4, $1::int) AS i
`;

const SEED_CHANGES = `
INSERT INTO config_changes (config_id, config_type, change_type, severity, source, summary, created_at, count)
SELECT ${itemId('(1 + (j % $1::int))')}, 'Bench::Type' || ((1 + (j % $1::int)) % ${TYPES}),
       (ARRAY['diff', 'diff', 'diff', 'CREATE', 'UPDATE', 'DELETE', 'Pulled', 'ScalingReplicaSet'])[1 + j % 8],
       (ARRAY['info', 'info', 'low', 'medium', 'high'])[1 + (j / 7) % 5],
       'bench', 'spec.replicas',
       now() - ((j::bigint * 2654435761) % 2592000) * interval '1 second', 1
  FROM generate_series($2::bigint, $3::bigint) AS j;
`;

// The seed runs without triggers: the item's type on each change (config_type, set by a trigger
// otherwise) is written above; a sample checks it is the item's.
const CHECK_CHANGE_TYPES = `
SELECT count(*)::int AS wrong
  FROM (SELECT config_id, config_type FROM config_changes TABLESAMPLE SYSTEM (0.1)) c
  JOIN config_items ci ON ci.id = c.config_id
 WHERE ci.type IS DISTINCT FROM c.config_type
`;

const round = (value: number) => Math.round(value * 10) / 10;
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Builds indexes after the bulk load: faster than maintaining 14 of them row by row. */
async function withoutIndexes(client: pg.Client, tables: string[], load: () => Promise<void>) {
  const { rows } = await client.query<{ indexname: string; indexdef: string }>(
    `SELECT i.indexname, i.indexdef FROM pg_indexes i
      WHERE i.schemaname = 'public' AND i.tablename = ANY($1)
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
    [tables],
  );
  for (const index of rows) await client.query(`DROP INDEX ${index.indexname}`);
  await load();
  for (const index of rows) await client.query(index.indexdef);
}

async function seed(ctx: BenchContext): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  const timings: Record<string, number> = {};
  const timed = async (name: string, work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    timings[name] = Math.round((performance.now() - started) / 100) / 10;
    ctx.log(`${name}: ${timings[name]} s`);
  };
  try {
    await client.query(`SET maintenance_work_mem = '256MB'`);
    // Foreign keys and the updated_at trigger are not what this measures; the rows are consistent.
    await client.query(`SET session_replication_role = replica`);
    await withoutIndexes(client, ['config_items', 'config_relationships', 'config_changes'], async () => {
      await client.query(SEED_SCRAPER);
      await timed(`items (${ITEMS})`, () => client.query(SEED_ITEMS, [ITEMS]));
      await timed('relationships', () => client.query(SEED_RELATIONSHIPS, [ITEMS]));
      const batch = 2_000_000;
      for (let from = 0; from < CHANGES; from += batch) {
        const to = Math.min(CHANGES, from + batch) - 1;
        await timed(`changes ${from}-${to}`, () => client.query(SEED_CHANGES, [ITEMS, from, to]));
      }
      ctx.log('building indexes');
    });
    await client.query(`SET session_replication_role = origin`);
    const check = await client.query<{ wrong: number }>(CHECK_CHANGE_TYPES);
    if (check.rows[0].wrong !== 0)
      throw new Error(`${check.rows[0].wrong} sampled changes have another type than their item`);
    await timed('vacuum analyze', () =>
      client.query('VACUUM ANALYZE config_items, config_relationships, config_changes'),
    );
  } finally {
    await client.end();
  }
  return timings;
}

interface Measured {
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  rows: number;
}

async function measure(name: string, call: () => Promise<Response>, ctx: BenchContext): Promise<Measured> {
  const durations: number[] = [];
  let rows = 0;
  for (let i = 0; i < WARMUP + ITERATIONS; i++) {
    const started = performance.now();
    const response = await call();
    const body = await response.text();
    const elapsed = performance.now() - started;
    if (!response.ok) throw new Error(`${name}: HTTP ${response.status} ${body.slice(0, 500)}`);
    if (i >= WARMUP) durations.push(elapsed);
    const parsed = JSON.parse(body) as unknown;
    rows = Array.isArray(parsed) ? parsed.length : ((parsed as { changes?: unknown[] }).changes?.length ?? 0);
  }
  durations.sort((a, b) => a - b);
  const result = {
    p50Ms: round(percentile(durations, 50)),
    p95Ms: round(percentile(durations, 95)),
    maxMs: round(durations[durations.length - 1]),
    rows,
  };
  ctx.log(`${name}: p50 ${result.p50Ms} ms, p95 ${result.p95Ms} ms (${rows} rows)`);
  return result;
}

export default async function run(ctx: BenchContext): Promise<Record<string, unknown>> {
  const seeding = await seed(ctx);
  const pool = createPool(ctx.databaseUrl, { max: 10 });
  const logger = createLogger('warn');
  const jobs = createJobsService({ pool, logger });
  const { app } = await buildApp({
    config: loadConfig({ WEB_DIST_DIR: '/nonexistent', LOG_LEVEL: 'warn' }),
    pool,
    logger,
    secrets: createSecretBox(keyFromSecret('a-bench-secret-key')),
    jobs,
  });
  try {
    const admin = await createPerson(pool, { name: 'Bench admin', roles: ['admin'] });
    const token = await createTokenForUser(pool, { email: admin.email as string, name: 'bench' });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const get = (path: string, extra: Record<string, string> = {}) =>
      fetch(`${base}${path}`, { headers: { ...headers, ...extra } });
    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });

    // A node in the middle of the tree: ancestors above it, 4^5 descendants below.
    const middle = Math.max(1, Math.floor(ITEMS / 4 ** 6));
    const { rows } = await pool.query<{ id: string }>(`SELECT md5('bench-item-' || $1)::uuid::text AS id`, [
      middle,
    ]);
    const nodeId = rows[0].id;

    // Built by the web's own function, so the bench times exactly what the list page asks for.
    // Type7 items are odd; with env=staging (i % 3 = 1) healthy ones are i % 60 = 7.
    const list = configListSearch(
      {
        type: 'Bench::Type7',
        health: { healthy: 1 },
        status: {},
        tags: { 'env=staging': 1 },
        labels: {},
        search: 'item-00',
        showDeleted: false,
      },
      { pageIndex: 0, pageSize: 50, sortOrder: 'asc' },
    );
    const related = new URLSearchParams({
      config_id: nodeId,
      type_filter: 'all',
      include_deleted_configs: 'false',
      max_depth: '5',
      select: 'id,name,type,health,status,tags,updated_at,deleted_at,related_ids',
    });
    const feed = { page: 1, page_size: 50, sort_by: '-created_at', include_deleted_configs: false };
    const results = {
      list: await measure(
        'catalog list (type, health, tag env=staging, search "item-00", count=exact)',
        () => get(`/api/db/configs?${list.toString()}`, { prefer: 'count=exact' }),
        ctx,
      ),
      summary: await measure(
        'summary by class and type',
        () => post('/api/catalog/summary', { groupBy: ['config_class', 'type'], deleted: false }),
        ctx,
      ),
      relatedDepth5: await measure(
        'related configs depth 5 (all directions)',
        () => get(`/api/db/rpc/related_configs_recursive?${related.toString()}`),
        ctx,
      ),
      changeSearch: await measure(
        'change search (type diff, severity high, config type, last 7 days)',
        () =>
          post('/api/catalog/changes', {
            ...feed,
            type: ['diff'],
            severity: ['high'],
            config_type: ['Bench::Type3'],
            from: new Date(Date.now() - 7 * 86_400_000).toISOString(),
          }),
        ctx,
      ),
      changeSearchItemDepth5: await measure(
        'change search of one item and its relations (depth 5)',
        () => post('/api/catalog/changes', { ...feed, id: nodeId, recursive: 'all', depth: 5 }),
        ctx,
      ),
    };
    return {
      items: ITEMS,
      changes: CHANGES,
      relationships: Math.max(0, ITEMS - 3),
      iterations: ITERATIONS,
      seedingSeconds: seeding,
      targetsMs: TARGETS_MS,
      results,
      withinTargets: {
        list: results.list.p95Ms < TARGETS_MS.list,
        summary: results.summary.p95Ms < TARGETS_MS.summary,
        changeSearch: results.changeSearch.p95Ms < TARGETS_MS.changeSearch,
      },
    };
  } finally {
    await app.close();
    await pool.end();
  }
}
