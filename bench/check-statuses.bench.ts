// Check status storage and the summary over it (issue 6, Prove it 2 and 3): 10,000 checks with
// BENCH_STATUS_ROWS status rows (default 20 M) spread evenly over the last 30 days, the newest
// first; loading stops early once BENCH_LOAD_SECONDS (default 480) have passed, and the figures are
// for the rows actually loaded. Rows are loaded one per status into the recent tier (the layout
// before migration 0070, measured and timed first for a same-run ratio), then the compaction
// job's code packs every closed hour into blocks (docs/adr/0006-check-status-blocks.md).
// Measures bytes per stored status including indexes and TOAST of both tiers (target under 60)
// and the summary's time (createHealthService().summary(), the query behind
// /api/canary/api/summary) for the default 1 h range and for 24 h (target p95 under 100 ms).
// Dense checks: BENCH_DENSE_CHECKS (default 1,000) of the checks also ran once a minute over the
// last 24 hours (1,440 statuses per check per day: ~40 kB blocks, compressed and TOASTed), in both
// layouts, so the summary is measured with them; the report says whether its plan touches
// check_status_blocks at all (it must not: packed statuses are read from the rollups).
// The summary keeps the recent tier per process (recent-cache.ts), so its last statement over
// check_statuses_recent, the one explained, reads what changed since the previous call. Last, the
// summary is measured while results arrive at 10,000 checks a minute (check-summary-live.ts).
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createPool } from '../apps/server/src/platform/db/pool.js';
import { compactCheckStatuses, createHealthService } from '../apps/server/src/modules/health/index.js';
import { createLogger } from '../apps/server/src/platform/logger.js';
import { buildApp } from '../apps/server/src/app.js';
import { createTokenForUser } from '../apps/server/src/modules/auth/index.js';
import { loadConfig } from '../apps/server/src/config.js';
import { createJobsService } from '../apps/server/src/platform/jobs/index.js';
import { createSecretBox, keyFromSecret } from '../apps/server/src/platform/secrets.js';
import { createPerson } from '../apps/server/test/harness/factories.js';
import type { BenchContext } from './run.js';
import { measureLiveSummary } from './check-summary-live.js';

const CHECKS = 10_000;
const CANARIES = 100;
const DAYS = 30;
const TARGET_ROWS = Number(process.env.BENCH_STATUS_ROWS ?? 20_000_000);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 480);
const SLOTS_PER_BATCH = 50; // 50 runs of every check = 500,000 rows per INSERT
const DENSE_CHECKS = Number(process.env.BENCH_DENSE_CHECKS ?? 1_000);

const RANGES = [
  ['1h', 1, 20],
  ['24h', 24, 10],
] as const;

const round1 = (value: number) => Math.round(value * 10) / 10;

/** The summary's statement before 0070 (statuses part), over one row per status. */
const OLD_SUMMARY_SQL = `
  WITH raw AS (
    SELECT check_id,
           count(*) FILTER (WHERE status)::integer AS passed,
           count(*) FILTER (WHERE NOT status)::integer AS failed,
           percentile_cont(0.95) WITHIN GROUP (ORDER BY duration) AS p95,
           percentile_cont(0.97) WITHIN GROUP (ORDER BY duration) AS p97,
           percentile_cont(0.99) WITHIN GROUP (ORDER BY duration) AS p99,
           avg(duration) FILTER (WHERE time > $2::timestamptz - interval '1 hour') AS rolling1h
    FROM check_statuses_recent
    WHERE time >= $1::timestamptz AND time <= $2
    GROUP BY check_id
  )
  SELECT c.id, c.name, c.description, c.endpoint, ca.name AS canary_name, c.type,
         coalesce(c.icon, ca.icon) AS icon, c.namespace, c.labels, c.agent_id, c.status,
         coalesce(raw.passed, 0) AS passed, coalesce(raw.failed, 0) AS failed,
         round(raw.rolling1h)::integer AS rolling1h, round(raw.p95)::integer AS p95,
         round(raw.p97)::integer AS p97, round(raw.p99)::integer AS p99,
         c.last_runtime, c.last_transition_time, c.deleted_at
  FROM checks c
  JOIN canaries ca ON ca.id = c.canary_id
  LEFT JOIN raw ON raw.check_id = c.id
  WHERE c.deleted_at IS NULL OR c.deleted_at >= $1
  ORDER BY ca.name, c.name, c.id`;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] * 10) / 10;
};

export default async function run(ctx: BenchContext): Promise<Record<string, unknown>> {
  const pool = createPool(ctx.databaseUrl, { max: 4 });
  let closeApp: () => Promise<unknown> = () => Promise.resolve();
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
    // Rows are written to the recent tier exactly as the recorder writes them (one row per
    // result). Loading is faster without the indexes; the old layout's are built afterwards to
    // measure it (a freshly built index is denser than one grown row by row, which the report says).
    await pool.query('ALTER TABLE check_statuses_recent DROP CONSTRAINT check_statuses_recent_pkey');
    await pool.query('DROP INDEX check_statuses_recent_time_idx');
    // The writing transaction's id (migration 0076) is not part of the layout before 0070: put
    // back with its index once the old layout is measured and the tier compacted.
    await pool.query('ALTER TABLE check_statuses_recent DROP COLUMN xid');
    const loadStarted = performance.now();
    let loadedSlots = 0;
    while (loadedSlots < slots && (performance.now() - loadStarted) / 1000 < LOAD_SECONDS) {
      const last = Math.min(slots, loadedSlots + SLOTS_PER_BATCH) - 1;
      // One failing run in 20, with an error text, like a real mix; passing runs keep no message.
      await pool.query(
        `INSERT INTO check_statuses_recent (check_id, time, duration, status, error)
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
    await pool.query(
      'ALTER TABLE check_statuses_recent ADD CONSTRAINT check_statuses_recent_pkey PRIMARY KEY (check_id, time)',
    );
    await pool.query('CREATE INDEX bench_old_time_brin_idx ON check_statuses_recent USING brin (time)');
    const indexSeconds = (performance.now() - indexStarted) / 1000;
    // The dense subset: one run a minute over the last 24 hours, at 17.5 s past the minute (a
    // clash with a loaded run is skipped).
    const dense = await pool.query(
      `INSERT INTO check_statuses_recent (check_id, time, duration, status, error)
       SELECT c.id, date_trunc('minute', now()) - m * interval '1 minute' + interval '17.5 seconds',
              20 + (hashtext(c.n::text || '/m' || m) & 255), (c.n + m) % 20 <> 0,
              CASE WHEN (c.n + m) % 20 = 0 THEN 'expected status 200, got 500' END
         FROM generate_series(1, 1440) AS m,
              (SELECT id, row_number() OVER (ORDER BY name) - 1 AS n FROM checks) AS c
        WHERE c.n < $1
        ORDER BY m DESC, c.n
       ON CONFLICT (check_id, time) DO NOTHING`,
      [DENSE_CHECKS],
    );
    const denseRows = dense.rowCount ?? 0;
    ctx.log(
      `dense: ${denseRows.toLocaleString('en')} statuses of ${DENSE_CHECKS} checks running every minute for 24 h`,
    );
    await pool.query('VACUUM ANALYZE check_statuses_recent');
    await pool.query('VACUUM ANALYZE checks');

    // The layout before 0070: this very table, one row per status, primary key and BRIN on time.
    const { rows: oldSizeRows } = await pool.query<{
      rows: string;
      total: string;
      heap: string;
      pkey: string;
    }>(
      `SELECT (SELECT count(*) FROM check_statuses_recent) AS rows,
              pg_total_relation_size('check_statuses_recent') AS total,
              pg_table_size('check_statuses_recent') AS heap,
              pg_relation_size('check_statuses_recent_pkey') AS pkey`,
    );
    const rows = Number(oldSizeRows[0].rows);
    const oldLayout = {
      bytesPerStatus: round1(Number(oldSizeRows[0].total) / rows),
      heapBytesPerStatus: round1(Number(oldSizeRows[0].heap) / rows),
      primaryKeyBytesPerStatus: round1(Number(oldSizeRows[0].pkey) / rows),
      summary: {} as Record<string, unknown>,
    };
    ctx.log(
      `${rows.toLocaleString('en')} rows loaded in ${Math.round(loadSeconds)} s, indexes ${Math.round(indexSeconds)} s; ` +
        `old layout ${oldLayout.bytesPerStatus} bytes per status (heap ${oldLayout.heapBytesPerStatus}, primary key ${oldLayout.primaryKeyBytesPerStatus})`,
    );
    for (const [label, hours, iterations] of RANGES) {
      const times: number[] = [];
      for (let i = 0; i < iterations + 2; i += 1) {
        const end = new Date();
        const started = performance.now();
        await pool.query(OLD_SUMMARY_SQL, [new Date(end.getTime() - hours * 3_600_000), end]);
        if (i >= 2) times.push(performance.now() - started);
      }
      oldLayout.summary[label] = { p50Ms: percentile(times, 50), p95Ms: percentile(times, 95) };
      ctx.log(`old layout summary ${label}: ${JSON.stringify(oldLayout.summary[label])}`);
    }

    // Back to the schema 0070 defines, then the compaction job's own code over everything whose
    // hour has closed, one UTC day per transaction, as after an upgrade or an outage.
    await pool.query('DROP INDEX bench_old_time_brin_idx');
    await pool.query('CREATE INDEX check_statuses_recent_time_idx ON check_statuses_recent (time)');
    const compactStarted = performance.now();
    const compacted = await compactCheckStatuses(pool);
    const compactSeconds = (performance.now() - compactStarted) / 1000;
    ctx.log(
      `compaction: ${compacted.statuses.toLocaleString('en')} statuses into ${compacted.blocks.toLocaleString('en')} blocks over ${compacted.days} days in ${Math.round(compactSeconds)} s`,
    );
    // Space the deleted rows held is reused by the next hours' results; measure what is live.
    await pool.query(
      'ALTER TABLE check_statuses_recent ADD COLUMN xid xid8 NOT NULL DEFAULT pg_current_xact_id()',
    );
    await pool.query('CREATE INDEX check_statuses_recent_xid_idx ON check_statuses_recent (xid)');
    await pool.query('VACUUM FULL check_statuses_recent');
    await pool.query('VACUUM ANALYZE check_statuses_recent');
    await pool.query('VACUUM ANALYZE check_status_blocks');
    // The rollups compaction wrote with the blocks (autovacuum summarises their BRIN ranges in
    // steady state; here they were all written at once).
    await pool.query('VACUUM ANALYZE check_statuses_1h');
    await pool.query('VACUUM ANALYZE check_statuses_1d');

    const { rows: sizeRows } = await pool.query<{
      statuses: string;
      recent: string;
      recent_total: string;
      blocks: string;
      blocks_heap: string;
      blocks_toast: string;
      blocks_indexes: string;
      hourly_total: string;
      daily_total: string;
    }>(`SELECT (SELECT count(*) FROM check_statuses) AS statuses,
               (SELECT count(*) FROM check_statuses_recent) AS recent,
               pg_total_relation_size('check_statuses_recent') AS recent_total,
               (SELECT count(*) FROM check_status_blocks) AS blocks,
               pg_relation_size('check_status_blocks') AS blocks_heap,
               pg_table_size('check_status_blocks') - pg_relation_size('check_status_blocks') AS blocks_toast,
               pg_indexes_size('check_status_blocks') AS blocks_indexes,
               pg_total_relation_size('check_statuses_1h') AS hourly_total,
               pg_total_relation_size('check_statuses_1d') AS daily_total`);
    // A dense check's block of a full day (stored size, after compression).
    const { rows: denseBlocks } = await pool.query<{ bytes: string | null }>(
      `SELECT round(avg(pg_column_size(b.*)))::bigint AS bytes
         FROM check_status_blocks b WHERE b.total >= 1000 AND b.day < date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`,
    );
    const denseBlockBytes = denseBlocks[0].bytes === null ? null : Number(denseBlocks[0].bytes);
    const size = Object.fromEntries(Object.entries(sizeRows[0]).map(([key, value]) => [key, Number(value)]));
    if (size.statuses !== rows)
      throw new Error(`check_statuses shows ${size.statuses} statuses, ${rows} were loaded`);
    const storageTotal = size.recent_total + size.blocks_heap + size.blocks_toast + size.blocks_indexes;
    const bytesPerStatus = storageTotal / rows;
    ctx.log(
      `bytes per status: ${bytesPerStatus.toFixed(1)} (blocks heap ${(size.blocks_heap / rows).toFixed(1)}, toast ${(size.blocks_toast / rows).toFixed(2)}, ` +
        `indexes ${(size.blocks_indexes / rows).toFixed(2)}, recent tier ${(size.recent_total / rows).toFixed(2)} for ${size.recent} rows); target < 60`,
    );

    // The service runs on a pool that remembers the summary's statement over the recent tier
    // (on the pool, or on a client of its snapshot), so the same SQL can be explained; the other
    // statements (bucket versions, rollup rows, descriptive columns) are not.
    let captured: { text: string; values: unknown[] } | undefined;
    const capture = (query: unknown) => {
      if (typeof query === 'object' && query !== null && 'text' in query) {
        const { text, values } = query as { text: string; values: unknown[] };
        if (text.includes('check_statuses_recent')) captured = { text, values };
      }
    };
    const spy = new Proxy(pool, {
      get(target, property, receiver) {
        if (property === 'query')
          return (query: string | { text: string; values: unknown[] }, values?: unknown[]) => {
            capture(query);
            return typeof query === 'object' ? target.query(query as never) : target.query(query, values);
          };
        if (property === 'connect')
          return async () => {
            const client = await target.connect();
            return new Proxy(client, {
              get(clientTarget, clientProperty, clientReceiver) {
                if (clientProperty === 'query')
                  return (query: string | { text: string; values: unknown[] }, values?: unknown[]) => {
                    capture(query);
                    return typeof query === 'object'
                      ? clientTarget.query(query as never)
                      : clientTarget.query(query, values);
                  };
                return Reflect.get(clientTarget, clientProperty, clientReceiver) as unknown;
              },
            });
          };
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
    const jobs = { startJob: () => Promise.reject(new Error('unused')) };
    const service = createHealthService({ pool: spy, logger: createLogger('warn'), jobs });
    const summaries: Record<string, unknown> = {};
    // The route itself, through HTTP (auth included), on the composed app.
    const logger = createLogger('warn');
    const { app } = await buildApp({
      config: loadConfig({ WEB_DIST_DIR: '/nonexistent', LOG_LEVEL: 'warn' }),
      pool,
      logger,
      secrets: createSecretBox(keyFromSecret('a-bench-secret-key')),
      jobs: createJobsService({ pool, logger }),
    });
    const admin = await createPerson(pool, { name: 'Bench admin', roles: ['admin'] });
    const token = await createTokenForUser(pool, { email: admin.email as string, name: 'bench' });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    closeApp = () => app.close();
    for (const [label, hours, iterations] of RANGES) {
      const times: number[] = [];
      const cpuTimes: number[] = [];
      const objectTimes: number[] = [];
      const httpTimes: number[] = [];
      let returned = 0;
      // The first call of the process reads every rollup bucket of the range into its cache.
      let coldMs = 0;
      // Each way timed in its own loop after two warm-up runs (interleaved, the objects' and the
      // HTTP client's garbage was collected during the next JSON run).
      const rangeOf = () => {
        const end = new Date();
        return { start: new Date(end.getTime() - hours * 3_600_000), end };
      };
      for (let i = 0; i < iterations + 2; i += 1) {
        const cpuBefore = process.cpuUsage();
        const started = performance.now();
        // What /api/canary/api/summary sends: the checks' JSON text.
        const json = await service.summaryJson(rangeOf());
        const elapsed = performance.now() - started;
        const cpu = process.cpuUsage(cpuBefore);
        if (i === 0) coldMs = elapsed;
        if (i >= 2) {
          times.push(elapsed);
          cpuTimes.push((cpu.user + cpu.system) / 1000);
        }
        if (i === 0) returned = (JSON.parse(json.toString()) as unknown[]).length;
      }
      for (let i = 0; i < iterations + 2; i += 1) {
        const started = performance.now();
        await service.summary(rangeOf());
        if (i >= 2) objectTimes.push(performance.now() - started);
      }
      for (let i = 0; i < iterations + 2; i += 1) {
        const started = performance.now();
        const response = await fetch(`${base}/api/canary/api/summary?start=${hours}h`, {
          headers: { authorization: `Bearer ${token}` },
        });
        const body = (await response.json()) as { checks_summary?: unknown[] };
        if (i >= 2) httpTimes.push(performance.now() - started);
        if (!response.ok || body.checks_summary?.length !== returned) {
          throw new Error(`summary route: HTTP ${response.status}, ${body.checks_summary?.length} checks`);
        }
      }
      // PostgreSQL's own execution time of the same statement (no transfer, no Node work).
      const executionTimes: number[] = [];
      let buffers: string | undefined;
      let readsBlocks: boolean | undefined;
      for (let i = 0; i < 5 && captured; i += 1) {
        const plan = await pool.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN (ANALYZE, BUFFERS) ${captured.text}`,
          captured.values,
        );
        const lines = plan.rows.map((row) => row['QUERY PLAN']);
        const execution = lines.find((line) => line.startsWith('Execution Time'));
        if (execution) executionTimes.push(Number(/([\d.]+) ms/.exec(execution)?.[1]));
        if (i === 0) {
          // The top node's buffers: everything the statement read (blocks and TOAST included).
          buffers = lines.find((line) => line.trim().startsWith('Buffers:'))?.trim();
          readsBlocks = lines.some((line) => line.includes('check_status_blocks'));
        }
        if (i === 0 && process.env.BENCH_EXPLAIN) ctx.log(lines.join('\n   '));
      }
      const { rows: inRange } = await pool.query<{ count: string }>(
        `SELECT count(*) FROM check_statuses_between(now() - $1::integer * interval '1 hour', now())`,
        [hours],
      );
      summaries[label] = {
        checksReturned: returned,
        statusRowsInRange: Number(inRange[0].count),
        iterations,
        // The route's own work (summaryJson): the figure the target is about.
        p50Ms: percentile(times, 50),
        p95Ms: percentile(times, 95),
        maxMs: percentile(times, 100),
        firstCallMs: Math.round(coldMs * 10) / 10,
        nodeCpuMsP50: percentile(cpuTimes, 50),
        // HealthService.summary() (objects, for the module's other callers).
        objectsP50Ms: percentile(objectTimes, 50),
        objectsP95Ms: percentile(objectTimes, 95),
        // GET /api/canary/api/summary?start=…, auth and the client's JSON parse included.
        httpP50Ms: percentile(httpTimes, 50),
        httpP95Ms: percentile(httpTimes, 95),
        postgresExecutionMsP50: executionTimes.length > 0 ? percentile(executionTimes, 50) : null,
        buffers,
        readsBlocks,
      };
      ctx.log(`summary ${label}: ${JSON.stringify(summaries[label])}`);
    }
    // Last (it adds statuses): the summary while results arrive at 10,000 checks a minute.
    const live = await measureLiveSummary(pool, ctx.log);
    return {
      checks: CHECKS,
      targetRows: TARGET_ROWS,
      statusRows: rows,
      denseChecks: DENSE_CHECKS,
      denseStatusRows: denseRows,
      denseBlockBytes: denseBlockBytes,
      runEverySeconds: Math.round(spacingSeconds),
      loadSeconds: Math.round(loadSeconds),
      indexBuildSeconds: Math.round(indexSeconds),
      compaction: { ...compacted, seconds: Math.round(compactSeconds) },
      storage: {
        bytesPerStatus: round1(bytesPerStatus),
        blockHeapBytesPerStatus: round1(size.blocks_heap / rows),
        blockToastBytesPerStatus: Math.round((size.blocks_toast / rows) * 100) / 100,
        blockIndexBytesPerStatus: Math.round((size.blocks_indexes / rows) * 100) / 100,
        recentTierBytesPerStatus: Math.round((size.recent_total / rows) * 100) / 100,
        recentRows: size.recent,
        // Not part of bytes per status (the hourly and daily rollups existed before 0070 too,
        // and outlive the raw statuses), but what the summary reads for packed hours.
        hourlyRollupBytesPerStatus: round1(size.hourly_total / rows),
        dailyRollupBytesPerStatus: round1(size.daily_total / rows),
        blocks: size.blocks,
        targetBytesPerStatus: 60,
      },
      summary: { ...summaries, targetP95Ms: 100 },
      liveSummary: live,
      oldLayout,
      ratios: {
        bytesPerStatus: Math.round((oldLayout.bytesPerStatus / bytesPerStatus) * 10) / 10,
        ...Object.fromEntries(
          RANGES.map(([label]) => [
            `summaryP95_${label}`,
            Math.round(
              ((oldLayout.summary[label] as { p95Ms: number }).p95Ms /
                (summaries[label] as { p95Ms: number }).p95Ms) *
                10,
            ) / 10,
          ]),
        ),
      },
      machineLoadAverage1m: Math.round(os.loadavg()[0] * 10) / 10,
    };
  } finally {
    await closeApp();
    await pool.end();
  }
}
