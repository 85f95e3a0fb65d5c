// Views at scale (issue 28): a View over 100,000 config items (two columns mapped by CEL, a
// variable, two panels) is refreshed through POST /api/view/{id} (its rows materialised into
// view_bench_items), then paged with the web's own query
// (features/views/api/view-rows.ts: POST /api/view/{id}/rows, keyset pages after each page's
// cursor) and, for comparison in the same run, through the data API by limit/offset
// (features/views/lib/view-rows-search.ts, what the web did before): 50 rows a page, descending
// with nulls last, a chosen sort, a filter on a filterable column.
// Targets: a refresh under 2 s; a page under 50 ms p95.
// Sizes: VIEWS_BENCH_ITEMS (default 100,000), VIEWS_BENCH_ITERATIONS (default 60).
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.js';
import { createTokenForUser } from '../apps/server/src/modules/auth/index.js';
import { loadConfig } from '../apps/server/src/config.js';
import { createPool } from '../apps/server/src/platform/db/pool.js';
import { createJobsService } from '../apps/server/src/platform/jobs/index.js';
import { createLogger } from '../apps/server/src/platform/logger.js';
import { createSecretBox, keyFromSecret } from '../apps/server/src/platform/secrets.js';
import { createPerson } from '../apps/server/test/harness/factories.js';
import { viewRowsSearch } from '../apps/web/src/features/views/lib/view-rows-search.js';
import type { BenchContext } from './run.js';

const ITEMS = Number(process.env.VIEWS_BENCH_ITEMS ?? 100_000);
const ITERATIONS = Number(process.env.VIEWS_BENCH_ITERATIONS ?? 60);
const REFRESHES = 5;
const WARMUP = 5;
const TARGETS_MS = { refresh: 2000, page: 50 } as const;

const SEED_ITEMS = `
INSERT INTO config_items (type, config_class, name, namespace, status, health, tags, cost_per_minute, created_at)
SELECT 'Bench::Pod', 'Pod', 'pod-' || lpad(i::text, 6, '0'), 'ns-' || (i % 20),
       (ARRAY['Running', 'Pending', 'Failed'])[1 + i % 3],
       (ARRAY['healthy', 'healthy', 'unhealthy', 'warning'])[1 + i % 4],
       jsonb_build_object('cluster', 'bench', 'cpu', (i % 16)::text),
       (i % 97) / 1000.0, now() - (i % 10000) * interval '1 minute'
  FROM generate_series(1, $1::int) AS i`;

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

const round = (value: number) => Math.round(value * 10) / 10;
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export default async function run(ctx: BenchContext): Promise<Record<string, unknown>> {
  const seedClient = new pg.Client({ connectionString: ctx.databaseUrl });
  await seedClient.connect();
  const seedStarted = performance.now();
  await seedClient.query(SEED_ITEMS, [ITEMS]);
  await seedClient.query('VACUUM ANALYZE config_items');
  await seedClient.end();
  ctx.log(`items (${ITEMS}): ${round((performance.now() - seedStarted) / 1000)} s`);

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

    const refreshMs: number[] = [];
    let fingerprint = '';
    let rowCount = 0;
    let answeredCount: number | null | undefined;
    for (let i = 0; i < REFRESHES; i++) {
      const started = performance.now();
      const response = await fetch(`${base}/api/view/${viewId}`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ variables: { cluster: 'bench' }, refresh: true }),
      });
      const body = (await response.json()) as {
        requestFingerprint: string;
        rowCount?: number | null;
        error?: string;
      };
      if (!response.ok) throw new Error(`refresh: HTTP ${response.status} ${body.error}`);
      refreshMs.push(performance.now() - started);
      fingerprint = body.requestFingerprint;
      answeredCount = body.rowCount;
      const { rows } = await pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM view_bench_items WHERE request_fingerprint = $1',
        [fingerprint],
      );
      rowCount = rows[0].n;
      ctx.log(`refresh ${i + 1}: ${round(refreshMs[i])} ms (${rowCount} rows)`);
    }
    if (rowCount !== ITEMS) throw new Error(`the view holds ${rowCount} rows, expected ${ITEMS}`);
    if (answeredCount !== ITEMS)
      throw new Error(`the view answered rowCount ${answeredCount}, expected ${ITEMS}`);

    const columns = VIEW_SPEC.columns.map((column) => column.name);
    const pageDurations: number[] = [];
    const byKind: Record<'defaultOrder' | 'chosenSort' | 'filtered', number[]> = {
      defaultOrder: [],
      chosenSort: [],
      filtered: [],
    };
    const pages = Math.floor(ITEMS / 50);
    for (let i = 0; i < WARMUP + ITERATIONS; i++) {
      const search = viewRowsSearch({
        table: 'view_bench_items',
        fingerprint,
        columns,
        // Pages spread over the whole table; every other request filters to the unhealthy quarter.
        pageIndex: (i * 7919) % Math.max(1, Math.floor(i % 2 === 0 ? pages / 4 : pages)),
        pageSize: 50,
        sortBy: i % 3 === 0 ? 'created_at' : undefined,
        sortOrder: 'desc',
        filters: i % 2 === 0 ? { health: ['unhealthy'] } : {},
      });
      const filtered = i % 2 === 0;
      const started = performance.now();
      const response = await fetch(`${base}/api/db/view_bench_items?${search.toString()}`, {
        headers: filtered ? { ...headers, prefer: 'count=exact' } : headers,
      });
      const body = await response.text();
      const elapsed = performance.now() - started;
      if (!response.ok) throw new Error(`page: HTTP ${response.status} ${body.slice(0, 300)}`);
      if ((JSON.parse(body) as unknown[]).length !== 50) throw new Error('a page did not hold 50 rows');
      if (i >= WARMUP) {
        pageDurations.push(elapsed);
        byKind[filtered ? 'filtered' : i % 3 === 0 ? 'chosenSort' : 'defaultOrder'].push(elapsed);
      }
    }
    // The web's path since keyset paging: POST /api/view/{id}/rows, each page after the previous
    // page's cursor. A walk starts deep in the table (one offset page, a jump, not timed) and then
    // reads ITERATIONS / 3 pages in a row for each kind.
    const keysetByKind: Record<'defaultOrder' | 'chosenSort' | 'filtered', number[]> = {
      defaultOrder: [],
      chosenSort: [],
      filtered: [],
    };
    const keysetDurations: number[] = [];
    const walks = {
      defaultOrder: {},
      chosenSort: { sortBy: 'created_at', sortOrder: 'desc' },
      filtered: { filters: { health: ['unhealthy'] } },
    } as const;
    for (const [kind, extra] of Object.entries(walks) as Array<[keyof typeof walks, object]>) {
      const rowsUrl = `${base}/api/view/${viewId}/rows`;
      const body = { requestFingerprint: fingerprint, limit: 50, ...extra };
      const jump = await fetch(rowsUrl, {
        method: 'POST',
        headers,
        body: JSON.stringify({ ...body, offset: Math.floor(ITEMS / 8) }),
      });
      let after = ((await jump.json()) as { next: string | null }).next;
      for (let i = 0; i < WARMUP + Math.ceil(ITERATIONS / 3); i++) {
        const started = performance.now();
        const response = await fetch(rowsUrl, {
          method: 'POST',
          headers,
          body: JSON.stringify({ ...body, ...(after ? { after } : {}) }),
        });
        const text = await response.text();
        const elapsed = performance.now() - started;
        if (!response.ok) throw new Error(`keyset page: HTTP ${response.status} ${text.slice(0, 300)}`);
        const page = JSON.parse(text) as { rows: unknown[]; next: string | null };
        if (page.rows.length !== 50) throw new Error('a keyset page did not hold 50 rows');
        after = page.next;
        if (i >= WARMUP) {
          keysetDurations.push(elapsed);
          keysetByKind[kind].push(elapsed);
        }
      }
    }
    keysetDurations.sort((a, b) => a - b);
    const summarise = (byKindDurations: Record<string, number[]>) =>
      Object.fromEntries(
        Object.entries(byKindDurations).map(([kind, durations]) => {
          const sorted = [...durations].sort((a, b) => a - b);
          return [
            kind,
            {
              pages: sorted.length,
              p50Ms: round(percentile(sorted, 50)),
              p95Ms: round(percentile(sorted, 95)),
            },
          ];
        }),
      );
    pageDurations.sort((a, b) => a - b);
    const kinds = summarise(byKind);
    const sortedRefresh = [...refreshMs].sort((a, b) => a - b);
    const results = {
      refresh: {
        medianMs: round(percentile(sortedRefresh, 50)),
        maxMs: round(sortedRefresh[sortedRefresh.length - 1]),
      },
      page: {
        p50Ms: round(percentile(keysetDurations, 50)),
        p95Ms: round(percentile(keysetDurations, 95)),
        maxMs: round(keysetDurations[keysetDurations.length - 1]),
        byKind: summarise(keysetByKind),
      },
      // The same pages through the data API by limit/offset (what the web used before keyset).
      dataApiOffsetPage: {
        p50Ms: round(percentile(pageDurations, 50)),
        p95Ms: round(percentile(pageDurations, 95)),
        maxMs: round(pageDurations[pageDurations.length - 1]),
        byKind: kinds,
      },
    };
    ctx.log(`refresh: median ${results.refresh.medianMs} ms, max ${results.refresh.maxMs} ms`);
    ctx.log(`keyset page: p50 ${results.page.p50Ms} ms, p95 ${results.page.p95Ms} ms`);
    ctx.log(
      `data-API offset page: p50 ${results.dataApiOffsetPage.p50Ms} ms, p95 ${results.dataApiOffsetPage.p95Ms} ms`,
    );
    return {
      items: ITEMS,
      iterations: ITERATIONS,
      targetsMs: TARGETS_MS,
      results,
      withinTargets: {
        refresh: results.refresh.medianMs < TARGETS_MS.refresh,
        page: results.page.p95Ms < TARGETS_MS.page,
      },
    };
  } finally {
    await app.close();
    await pool.end();
  }
}
