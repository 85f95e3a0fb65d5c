/// <reference lib="dom" />
// The topology API's query (`GET /api/canary/api/topology`, through its service function) over a
// 10,000-component tree three levels deep: the dashboard's roots and one root's subtree, p50/p95,
// against the same reads written as plain SQL (no children counts, checks, configs or facets).
// Then the dashboard in a real browser against a real server: 1,000 root cards with a type filter
// applied, from the API response to the cards drawn and the page idle (target under 1 s). The grid
// is virtualised: 'drawn' is the grid holding all 1,000 with the rows near the viewport mounted.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium, type Page } from 'playwright-core';
import { PROJECT_ROOT } from '../apps/server/src/platform/config.js';
import { createPool } from '../apps/server/src/platform/db/pool.js';
import { pino } from 'pino';
import { createFacetsCache, queryTopologyJson } from '../apps/server/src/modules/topology/index.js';
import type { BenchContext } from './run.js';

const CARDS = 1000;
const LOADS = 5;
const ADMIN = { email: 'bench@example.com', password: 'bench-admin-password' };

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} was not ready in 120 s`);
}

/** In-page probe: when the wanted number of cards is first in the page, and idle after that. */
const PROBE = `
window.__bench = { cardsAt: 0, idleAt: 0 };
new MutationObserver(() => {
  if (window.__bench.cardsAt) return;
  const section = document.querySelector('section[aria-label="Components"]');
  if (!section) return;
  // The virtualised grid (only the rows near the viewport mounted) says how many cards it holds;
  // the plain one (before virtualising) held every card as an article of the section.
  const drawn = section.getAttribute('data-card-count') === '${CARDS}'
    ? section.querySelector('article') !== null
    : section.querySelectorAll(':scope > article').length >= ${CARDS};
  if (!drawn) return;
  window.__bench.cardsAt = performance.now();
  requestAnimationFrame(() => setTimeout(() => { window.__bench.idleAt = performance.now(); }, 0));
}).observe(document, { childList: true, subtree: true });
`;

async function measureDashboard(page: Page, base: string) {
  await page.goto(`${base}/topology?type=BenchCard`);
  await page.waitForFunction(
    () => (window as unknown as { __bench: { idleAt: number } }).__bench.idleAt > 0,
    null,
    { timeout: 60_000 },
  );
  return page.evaluate(() => {
    const bench = (window as unknown as { __bench: { cardsAt: number; idleAt: number } }).__bench;
    const entry = performance
      .getEntriesByType('resource')
      .find((item) => item.name.includes('/api/canary/api/topology')) as
      PerformanceResourceTiming | undefined;
    if (!entry) throw new Error('no topology request seen');
    return {
      mountedCards: document.querySelectorAll('section[aria-label="Components"] article').length,
      fetchMs: Math.round(entry.responseEnd - entry.requestStart),
      dataToCardsMs: Math.round(bench.cardsAt - entry.responseEnd),
      dataToInteractiveMs: Math.round(bench.idleAt - entry.responseEnd),
      navigationToInteractiveMs: Math.round(bench.idleAt),
    };
  });
}

/** 1,000 root cards (and the tree above) on the dashboard in chromium; per-load timings. */
async function dashboardRender(ctx: BenchContext) {
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-needed'], {
    cwd: PROJECT_ROOT,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the web build failed');
  const port = await freePort();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'opsdeck-bench-'));
  const server = spawn(process.execPath, ['bin/opsdeck.mjs', 'serve'], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: ctx.databaseUrl,
      DATA_DIR: dataDir,
      WORKERS: 'false',
      DEMO: 'false',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
    },
  });
  const base = `http://127.0.0.1:${port}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    await waitReady(`${base}/readyz`, server);
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.addInitScript(PROBE);
    const page = await context.newPage();
    await page.goto(`${base}/login`);
    await page.getByLabel('Email', { exact: true }).fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname !== '/login');
    const loads = [];
    for (let i = 0; i < LOADS; i++) loads.push(await measureDashboard(page, base));
    return loads;
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

const ROOTS = 10;
const CHILDREN = 30;
const GRANDCHILDREN = 33;
const RUNS = 50;

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

async function time(runs: number, work: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  await work();
  const samples: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    const started = performance.now();
    await work();
    samples.push(performance.now() - started);
  }
  const round = (value: number) => Math.round(value * 10) / 10;
  return { p50: round(percentile(samples, 0.5)), p95: round(percentile(samples, 0.95)) };
}

export default async function run(ctx: BenchContext): Promise<Record<string, unknown>> {
  const pool = createPool(ctx.databaseUrl, { max: 5 });
  // As the route does: the filter values cached until a component changes, the body as JSON text.
  const facets = createFacetsCache({ pool, logger: pino({ level: 'silent' }) });
  const queryTopology = (query: Parameters<typeof queryTopologyJson>[1]) =>
    queryTopologyJson(pool, query, undefined, facets);
  try {
    const healths = ['healthy', 'unhealthy', 'warning', 'unknown'];
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO topologies (name) SELECT 'bench-' || g FROM generate_series(1, $1) g RETURNING id`,
      [ROOTS],
    );
    for (const [index, { id: topologyId }] of rows.entries()) {
      const root = await pool.query<{ id: string }>(
        `INSERT INTO components (topology_id, name, type, health, labels, properties)
         VALUES ($1, $2, 'Cluster', 'healthy', '{"env": "prod"}', '[{"name": "nodes", "value": 3, "headline": true}]')
         RETURNING id`,
        [topologyId, `root-${index}`],
      );
      const rootId = root.rows[0].id;
      const children = await pool.query<{ id: string }>(
        `INSERT INTO components (topology_id, parent_id, name, type, health, path, labels)
         SELECT $1, $2, 'svc-' || g, 'Service', ($4::text[])[1 + g % 4], $5::text, jsonb_build_object('tier', 'tier-' || g % 3)
         FROM generate_series(1, $3) g RETURNING id`,
        [topologyId, rootId, CHILDREN, healths, rootId],
      );
      for (const { id: childId } of children.rows)
        await pool.query(
          `INSERT INTO components (topology_id, parent_id, name, type, health, path, is_leaf)
           SELECT $1, $2, 'pod-' || g, 'Pod', ($5::text[])[1 + g % 4], $3::text, true
           FROM generate_series(1, $4) g`,
          [topologyId, childId, `${rootId}.${childId}`, GRANDCHILDREN, healths],
        );
    }
    await pool.query('ANALYZE components');
    ctx.log(
      `load average ${os
        .loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')}`,
    );
    const total = (await pool.query<{ count: number }>('SELECT count(*)::int AS count FROM components'))
      .rows[0].count;
    ctx.log(`${total} components`);
    const rootId = (await pool.query<{ id: string }>(`SELECT id FROM components WHERE name = 'root-0'`))
      .rows[0].id;

    const roots = await time(RUNS, () => queryTopology({ sortBy: 'name', sortOrder: 'asc' }));
    const rootsSql = await time(RUNS, () =>
      pool.query(`SELECT * FROM components WHERE parent_id IS NULL AND deleted_at IS NULL ORDER BY name`),
    );
    const subtree = await time(RUNS, () => queryTopology({ id: rootId, depth: 3 }));
    const subtreeSql = await time(RUNS, () =>
      pool.query(
        `SELECT * FROM components WHERE deleted_at IS NULL AND (id = $1 OR path = $1::text OR path LIKE $1::text || '.%')`,
        [rootId],
      ),
    );
    const filtered = await time(RUNS, () =>
      queryTopology({ flatten: true, type: 'Service', status: 'unhealthy', labels: 'tier=tier-1' }),
    );
    ctx.log(`roots: p95 ${roots.p95} ms (plain SQL ${rootsSql.p95} ms)`);
    ctx.log(
      `subtree of ${1 + CHILDREN + CHILDREN * GRANDCHILDREN}: p95 ${subtree.p95} ms (plain SQL ${subtreeSql.p95} ms)`,
    );
    ctx.log(`filtered flat list: p95 ${filtered.p95} ms`);

    // 1,000 more roots of one type: the dashboard's type filter leaves exactly them.
    await pool.query(
      `INSERT INTO topologies (name) VALUES ('bench-cards');
       INSERT INTO components (topology_id, name, type, health, labels, properties)
       SELECT (SELECT id FROM topologies WHERE name = 'bench-cards'), 'card-' || lpad(g::text, 4, '0'), 'BenchCard',
              (ARRAY['healthy','unhealthy','warning','unknown'])[1 + g % 4], jsonb_build_object('zone', 'z' || g % 5),
              '[{"name": "cpu", "value": 42, "unit": "%", "headline": true}]'::jsonb
       FROM generate_series(1, ${CARDS}) g`,
    );
    await pool.query('ANALYZE components');
    const cardsQuery = await time(RUNS, () => queryTopology({ type: 'BenchCard' }));
    ctx.log(`1,000 filtered roots: p95 ${cardsQuery.p95} ms`);
    const loads = await dashboardRender(ctx);
    const interactive = loads.map((load) => load.dataToInteractiveMs);
    ctx.log(`dashboard: ${CARDS} cards, data → interactive ${interactive.join(', ')} ms`);
    return {
      loadAverage: os.loadavg().map((value) => Math.round(value * 100) / 100),
      facetsCache: { ...facets.stats },
      components: total,
      runs: RUNS,
      rootsMs: roots,
      rootsPlainSqlMs: rootsSql,
      rootsRatioP95: Math.round((roots.p95 / rootsSql.p95) * 10) / 10,
      subtreeMs: subtree,
      subtreePlainSqlMs: subtreeSql,
      subtreeRatioP95: Math.round((subtree.p95 / subtreeSql.p95) * 10) / 10,
      filteredFlatMs: filtered,
      cardsQueryMs: cardsQuery,
      dashboard: {
        cards: CARDS,
        targetMs: 1000,
        dataToInteractiveP50Ms: percentile(interactive, 0.5),
        dataToInteractiveMaxMs: Math.max(...interactive),
        runs: loads,
      },
    };
  } finally {
    await facets.close();
    await pool.end();
  }
}
