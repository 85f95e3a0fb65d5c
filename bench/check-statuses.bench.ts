// Check status storage and the summary over it (issue 6, Prove it 2 and 3): 10,000 checks with
// BENCH_STATUS_ROWS status rows (default 20 M) spread evenly over the last 30 days, the newest
// first; loading stops early once BENCH_LOAD_SECONDS (default 480) have passed, and the figures are
// for the rows actually loaded. Measures bytes per stored status including indexes
// (pg_total_relation_size / rows; target under 60) and the summary's time
// (createHealthService().summary(), the query behind /api/canary/api/summary) for the default
// 1 h range and for 24 h (target p95 under 100 ms).
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createPool } from '../apps/server/src/platform/db/pool.js';
import { createHealthService } from '../apps/server/src/modules/health/index.js';
import { createLogger } from '../apps/server/src/platform/logger.js';
import type { BenchContext } from './run.js';

const CHECKS = 10_000;
const CANARIES = 100;
const DAYS = 30;
const TARGET_ROWS = Number(process.env.BENCH_STATUS_ROWS ?? 20_000_000);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 480);
const SLOTS_PER_BATCH = 50; // 50 runs of every check = 500,000 rows per INSERT

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] * 10) / 10;
};

export default async function run(ctx: BenchContext): Promise<Record<string, unknown>> {
  const pool = createPool(ctx.databaseUrl, { max: 4 });
  try {
    await pool.query(`
      INSERT INTO canaries (id, name, namespace, spec, source)
      SELECT gen_random_uuid(), 'bench-canary-' || c, 'ns-' || (c % 5), '{}'::jsonb, 'bench'
        FROM generate_series(0, ${CANARIES - 1}) AS c;
      INSERT INTO checks (canary_id, type, name, namespace, endpoint, labels, status, last_runtime)
      SELECT canary.id, 'http', 'bench-check-' || lpad(i::text, 5, '0'), canary.namespace,
             'http://service-' || i || '.example/health', jsonb_build_object('team', 'team-' || (i % 10)),
             'healthy', now()
        FROM generate_series(0, ${CHECKS - 1}) AS i
        JOIN (SELECT id, namespace, row_number() OVER (ORDER BY name) - 1 AS n FROM canaries) AS canary
          ON canary.n = i % ${CANARIES};`);

    // Every check runs once per `spacing`; run k of check i is at now - k*spacing - offset(i).
    const slots = Math.max(1, Math.floor(TARGET_ROWS / CHECKS));
    const spacingSeconds = (DAYS * 86_400) / slots;
    // Loading is faster without the indexes; they are built afterwards (a freshly built index is
    // denser than one grown row by row, which the report says).
    await pool.query('ALTER TABLE check_statuses DROP CONSTRAINT check_statuses_pkey');
    await pool.query('DROP INDEX check_statuses_time_brin_idx');
    const loadStarted = performance.now();
    let loadedSlots = 0;
    while (loadedSlots < slots && (performance.now() - loadStarted) / 1000 < LOAD_SECONDS) {
      const last = Math.min(slots, loadedSlots + SLOTS_PER_BATCH) - 1;
      // One failing run in 20, with an error text, like a real mix; passing runs keep no message.
      await pool.query(
        `INSERT INTO check_statuses (check_id, time, duration, status, error)
         SELECT c.id,
                date_trunc('second', now()) - (k * $3::double precision + c.n * $3::double precision / $4) * interval '1 second',
                20 + (hashtext(c.n::text || '/' || k) & 255),
                (c.n + k) % 20 <> 0,
                CASE WHEN (c.n + k) % 20 = 0 THEN 'expected status 200, got 500' END
           FROM generate_series($1::integer, $2::integer) AS k,
                (SELECT id, row_number() OVER (ORDER BY name) - 1 AS n FROM checks) AS c
          ORDER BY k, c.n`,
        [loadedSlots, last, spacingSeconds, CHECKS],
      );
      loadedSlots = last + 1;
      if (loadedSlots % 500 === 0 || loadedSlots === slots)
        ctx.log(
          `${(loadedSlots * CHECKS).toLocaleString('en')} rows after ${Math.round((performance.now() - loadStarted) / 1000)} s`,
        );
    }
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    const indexStarted = performance.now();
    await pool.query('ALTER TABLE check_statuses ADD PRIMARY KEY (check_id, time)');
    await pool.query('CREATE INDEX check_statuses_time_brin_idx ON check_statuses USING brin (time)');
    const indexSeconds = (performance.now() - indexStarted) / 1000;
    await pool.query('VACUUM ANALYZE check_statuses');
    await pool.query('VACUUM ANALYZE checks');

    const { rows: sizeRows } = await pool.query<{
      rows: string;
      total: string;
      heap: string;
      pkey: string;
      brin: string;
    }>(`SELECT (SELECT count(*) FROM check_statuses) AS rows,
               pg_total_relation_size('check_statuses') AS total,
               pg_table_size('check_statuses') AS heap,
               pg_relation_size('check_statuses_pkey') AS pkey,
               pg_relation_size('check_statuses_time_brin_idx') AS brin`);
    const rows = Number(sizeRows[0].rows);
    const bytesPerStatus = Number(sizeRows[0].total) / rows;
    ctx.log(
      `${rows.toLocaleString('en')} rows loaded in ${Math.round(loadSeconds)} s, indexes ${Math.round(indexSeconds)} s`,
    );
    ctx.log(
      `bytes per status: ${bytesPerStatus.toFixed(1)} total (heap ${(Number(sizeRows[0].heap) / rows).toFixed(1)}, ` +
        `primary key ${(Number(sizeRows[0].pkey) / rows).toFixed(1)}, brin ${(Number(sizeRows[0].brin) / rows).toFixed(3)}); target < 60`,
    );

    // The service runs on a pool that remembers its last query, so the same SQL can be explained.
    let captured: { text: string; values: unknown[] } | undefined;
    const spy = new Proxy(pool, {
      get(target, property, receiver) {
        if (property === 'query')
          return (text: string, values: unknown[]) => {
            captured = { text, values };
            return target.query(text, values);
          };
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
    const jobs = { startJob: () => Promise.reject(new Error('unused')) };
    const service = createHealthService({ pool: spy, logger: createLogger('warn'), jobs });
    const summaries: Record<string, unknown> = {};
    for (const [label, hours, iterations] of [
      ['1h', 1, 20],
      ['24h', 24, 10],
    ] as const) {
      const times: number[] = [];
      const cpuTimes: number[] = [];
      let returned = 0;
      for (let i = 0; i < iterations + 2; i += 1) {
        const end = new Date();
        const cpuBefore = process.cpuUsage();
        const started = performance.now();
        const result = await service.summary({ start: new Date(end.getTime() - hours * 3_600_000), end });
        const elapsed = performance.now() - started;
        const cpu = process.cpuUsage(cpuBefore);
        if (i >= 2) {
          // two warm-up runs
          times.push(elapsed);
          cpuTimes.push((cpu.user + cpu.system) / 1000);
        }
        returned = result.length;
      }
      // PostgreSQL's own execution time of the same statement (no transfer, no Node work).
      const executionTimes: number[] = [];
      for (let i = 0; i < 5 && captured; i += 1) {
        const plan = await pool.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN (ANALYZE, BUFFERS) ${captured.text}`,
          captured.values,
        );
        const lines = plan.rows.map((row) => row['QUERY PLAN']);
        const execution = lines.find((line) => line.startsWith('Execution Time'));
        if (execution) executionTimes.push(Number(/([\d.]+) ms/.exec(execution)?.[1]));
        if (i === 0 && process.env.BENCH_EXPLAIN) ctx.log(lines.join('\n   '));
      }
      const { rows: inRange } = await pool.query<{ count: string }>(
        `SELECT count(*) FROM check_statuses WHERE time >= now() - $1::integer * interval '1 hour'`,
        [hours],
      );
      summaries[label] = {
        checksReturned: returned,
        statusRowsInRange: Number(inRange[0].count),
        iterations,
        p50Ms: percentile(times, 50),
        p95Ms: percentile(times, 95),
        maxMs: percentile(times, 100),
        nodeCpuMsP50: percentile(cpuTimes, 50),
        postgresExecutionMsP50: executionTimes.length > 0 ? percentile(executionTimes, 50) : null,
      };
      ctx.log(`summary ${label}: ${JSON.stringify(summaries[label])}`);
    }
    const [load1] = os.loadavg();
    return {
      checks: CHECKS,
      targetRows: TARGET_ROWS,
      statusRows: rows,
      runEverySeconds: Math.round(spacingSeconds),
      loadSeconds: Math.round(loadSeconds),
      indexBuildSeconds: Math.round(indexSeconds),
      storage: {
        bytesPerStatus: Math.round(bytesPerStatus * 10) / 10,
        heapBytesPerStatus: Math.round((Number(sizeRows[0].heap) / rows) * 10) / 10,
        primaryKeyBytesPerStatus: Math.round((Number(sizeRows[0].pkey) / rows) * 10) / 10,
        brinBytesPerStatus: Math.round((Number(sizeRows[0].brin) / rows) * 1000) / 1000,
        targetBytesPerStatus: 60,
      },
      summary: { ...summaries, targetP95Ms: 100 },
      machineLoadAverage1m: Math.round(load1 * 10) / 10,
    };
  } finally {
    await pool.end();
  }
}
