// The topology API's query (`GET /api/canary/api/topology`, through its service function) over a
// 10,000-component tree three levels deep: the dashboard's roots and one root's subtree, p50/p95,
// against the same reads written as plain SQL (no children counts, checks, configs or facets).
import { performance } from 'node:perf_hooks';
import { createPool } from '../apps/server/src/platform/db/pool.js';
import { queryTopology } from '../apps/server/src/modules/topology/index.js';
import type { BenchContext } from './run.js';

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
    const total = (await pool.query<{ count: number }>('SELECT count(*)::int AS count FROM components'))
      .rows[0].count;
    ctx.log(`${total} components`);
    const rootId = (await pool.query<{ id: string }>(`SELECT id FROM components WHERE name = 'root-0'`))
      .rows[0].id;

    const roots = await time(RUNS, () => queryTopology(pool, { sortBy: 'name', sortOrder: 'asc' }));
    const rootsSql = await time(RUNS, () =>
      pool.query(`SELECT * FROM components WHERE parent_id IS NULL AND deleted_at IS NULL ORDER BY name`),
    );
    const subtree = await time(RUNS, () => queryTopology(pool, { id: rootId, depth: 3 }));
    const subtreeSql = await time(RUNS, () =>
      pool.query(
        `SELECT * FROM components WHERE deleted_at IS NULL AND (id = $1 OR path = $1::text OR path LIKE $1::text || '.%')`,
        [rootId],
      ),
    );
    const filtered = await time(RUNS, () =>
      queryTopology(pool, { flatten: true, type: 'Service', status: 'unhealthy', labels: 'tier=tier-1' }),
    );
    ctx.log(`roots: p95 ${roots.p95} ms (plain SQL ${rootsSql.p95} ms)`);
    ctx.log(
      `subtree of ${1 + CHILDREN + CHILDREN * GRANDCHILDREN}: p95 ${subtree.p95} ms (plain SQL ${subtreeSql.p95} ms)`,
    );
    ctx.log(`filtered flat list: p95 ${filtered.p95} ms`);
    return {
      components: total,
      runs: RUNS,
      rootsMs: roots,
      rootsPlainSqlMs: rootsSql,
      rootsRatioP95: Math.round((roots.p95 / rootsSql.p95) * 10) / 10,
      subtreeMs: subtree,
      subtreePlainSqlMs: subtreeSql,
      subtreeRatioP95: Math.round((subtree.p95 / subtreeSql.p95) * 10) / 10,
      filteredFlatMs: filtered,
    };
  } finally {
    await pool.end();
  }
}
