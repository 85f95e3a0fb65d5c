// Before/after of the topology API's service in one run, interleaved on one database:
// `tsx --conditions=source bench/topology-compare.mts <database url> <base checkout>`, where the
// base checkout is the tree before the change (its topology-service.ts is imported as "before").
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { createPool } from '../apps/server/src/platform/db/pool.js';
import { createFacetsCache, queryTopologyJson } from '../apps/server/src/modules/topology/index.js';

const [url, base] = process.argv.slice(2);
const before = (await import(
  pathToFileURL(path.join(base, 'apps/server/src/modules/topology/topology-service.ts')).href
)) as { queryTopology: (pool: unknown, query: object) => Promise<unknown> };
const pool = createPool(url, { max: 5 });
const cache = createFacetsCache({ pool, logger: pino({ level: 'silent' }) });
await new Promise((resolve) => setTimeout(resolve, 500));
const RUNS = 60;
const pct = (values: number[], f: number) =>
  [...values].sort((a, b) => a - b)[Math.ceil(f * values.length) - 1];
const rootId = (await pool.query(`SELECT id FROM components WHERE name = 'root-0'`)).rows[0].id;
const cases: [string, object, string, unknown[]][] = [
  [
    'roots',
    { sortBy: 'name', sortOrder: 'asc' },
    `SELECT * FROM components WHERE parent_id IS NULL AND deleted_at IS NULL ORDER BY name`,
    [],
  ],
  [
    '1,000 filtered roots',
    { type: 'BenchCard' },
    `SELECT * FROM components WHERE parent_id IS NULL AND deleted_at IS NULL AND type = 'BenchCard' ORDER BY name`,
    [],
  ],
  [
    'subtree of 1,021',
    { id: rootId, depth: 3 },
    `SELECT * FROM components WHERE deleted_at IS NULL AND (id = $1 OR path = $1::text OR path LIKE $1::text || '.%')`,
    [rootId],
  ],
  [
    'filtered flat',
    { flatten: true, type: 'Service', status: 'unhealthy', labels: 'tier=tier-1' },
    `SELECT * FROM components WHERE deleted_at IS NULL AND type = 'Service' AND health = 'unhealthy' AND labels @> '{"tier":"tier-1"}'`,
    [],
  ],
];
const say = (line: string) => process.stdout.write(`${line}\n`);
const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
say(`load average before: ${load()}`);
for (const [name, query, plain, values] of cases) {
  const old: number[] = [];
  const now: number[] = [];
  const sql: number[] = [];
  // Before (serialised as the route did), after (the route's JSON text), plain SQL: interleaved.
  for (let i = 0; i < RUNS + 1; i++) {
    let t = performance.now();
    JSON.stringify(await before.queryTopology(pool, query));
    if (i) old.push(performance.now() - t);
    t = performance.now();
    await queryTopologyJson(pool, query, undefined, cache);
    if (i) now.push(performance.now() - t);
    t = performance.now();
    await pool.query(plain, values);
    if (i) sql.push(performance.now() - t);
  }
  const row = {
    beforeP50: +pct(old, 0.5).toFixed(1),
    beforeP95: +pct(old, 0.95).toFixed(1),
    afterP50: +pct(now, 0.5).toFixed(1),
    afterP95: +pct(now, 0.95).toFixed(1),
    plainSqlP95: +pct(sql, 0.95).toFixed(1),
  };
  say(
    `${name.padEnd(22)} ${JSON.stringify(row)} after/plain ${(row.afterP95 / row.plainSqlP95).toFixed(1)}x`,
  );
}
say(`load average after: ${load()}`);
say(`facets cache: ${JSON.stringify(cache.stats)}`);
await cache.close();
await pool.end();
