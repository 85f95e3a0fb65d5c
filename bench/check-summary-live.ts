// The check summary while results arrive (part of check-statuses.bench.ts): every check runs once
// a minute, as the 10,000 checks a minute. The recent tier is first filled as it is at
// this point of the hour in that steady state (one status per check per minute since
// compaction's mark), then results are written for LIVE_SECONDS as the recorder writes them (a
// status row and the check's status and run time, in one transaction per batch of ~100 ms) while
// the health page's summary (1 h, every check) is read over and over. Each read is timed twice,
// alternately: through the recent tier kept per process (what the route does) and with the tier
// aggregated in SQL at every call (the way before migration 0076), on one database in one run.
import { performance } from 'node:perf_hooks';
import type { Pool } from '../apps/server/src/platform/db/pool.js';
import { createHealthService } from '../apps/server/src/modules/health/index.js';

const PER_MINUTE = 10_000;

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] * 10) / 10;
};

export async function measureLiveSummary(
  pool: Pool,
  log: (message: string) => void,
  seconds = Number(process.env.BENCH_LIVE_SECONDS ?? 60),
): Promise<Record<string, unknown>> {
  const silent = { debug() {}, info() {}, warn() {}, error() {} };
  const jobs = { startJob: () => Promise.reject(new Error('unused')) };
  const kept = createHealthService({ pool, logger: silent, jobs });
  const aggregated = createHealthService({ pool, logger: silent, jobs, summaryRecentRows: 0 });
  const { rows: checks } = await pool.query<{ id: string }>('SELECT id FROM checks ORDER BY name');
  const ids = checks.map((check) => check.id);

  // Steady state: each check ran once a minute since the mark (at a second of its own).
  const filled = await pool.query(
    `INSERT INTO check_statuses_recent (check_id, time, duration, status)
     SELECT c.id, m + (c.n % 60) * interval '1 second' + interval '0.25 seconds',
            20 + (hashtext(c.n::text || '/live' || m) & 255), (c.n + extract(minute FROM m)::integer) % 20 <> 0
       FROM (SELECT packed_before AS mark FROM check_status_compaction) AS edges,
            generate_series(date_trunc('minute', edges.mark), date_trunc('minute', now()) - interval '1 minute',
                            interval '1 minute') AS m,
            (SELECT id, row_number() OVER (ORDER BY name) - 1 AS n FROM checks) AS c
     ON CONFLICT (check_id, time) DO NOTHING`,
  );
  await pool.query('VACUUM ANALYZE check_statuses_recent');
  const { rows: tier } = await pool.query<{ count: string }>('SELECT count(*) FROM check_statuses_recent');
  log(
    `live: recent tier filled with ${(filled.rowCount ?? 0).toLocaleString('en')} statuses (${Number(tier[0].count).toLocaleString('en')} in all)`,
  );

  let stop = false;
  let written = 0;
  const writer = (async () => {
    const started = performance.now();
    while (!stop) {
      const due = Math.floor(((performance.now() - started) / 60_000) * PER_MINUTE) - written;
      if (due > 0) {
        const batch = Array.from({ length: due }, (_, index) => ids[(written + index) % ids.length]);
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          await client.query(
            `INSERT INTO check_statuses_recent (check_id, time, duration, status)
             SELECT id, clock_timestamp(), 20 + (hashtext(id::text || clock_timestamp()::text) & 255),
                    hashtext(id::text || clock_timestamp()::text) % 20 <> 0
               FROM unnest($1::uuid[]) AS id
             ON CONFLICT (check_id, time) DO NOTHING`,
            [batch],
          );
          await client.query(
            `UPDATE checks SET last_runtime = now(), next_runtime = now() + interval '1 minute' WHERE id = ANY($1)`,
            [batch],
          );
          await client.query('COMMIT');
        } finally {
          client.release();
        }
        written += due;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();

  const times = { kept: [] as number[], aggregated: [] as number[] };
  const cpu = { kept: [] as number[], aggregated: [] as number[] };
  const until = performance.now() + seconds * 1000;
  let round = 0;
  try {
    while (performance.now() < until) {
      for (const [name, service] of [
        ['kept', kept],
        ['aggregated', aggregated],
      ] as const) {
        const end = new Date();
        const cpuBefore = process.cpuUsage();
        const started = performance.now();
        await service.summaryJson({ start: new Date(end.getTime() - 3_600_000), end });
        const elapsed = performance.now() - started;
        const used = process.cpuUsage(cpuBefore);
        // The first round reads the tier whole (and the rollup bucket): left out, reported apart.
        if (round > 0) {
          times[name].push(elapsed);
          cpu[name].push((used.user + used.system) / 1000);
        } else log(`live: first ${name} summary ${Math.round(elapsed)} ms`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      round += 1;
    }
  } finally {
    stop = true;
    await writer;
  }
  const result = {
    resultsPerMinute: PER_MINUTE,
    seconds,
    resultsWritten: written,
    recentTierAtStart: Number(tier[0].count),
    summaries: times.kept.length,
    kept: {
      p50Ms: percentile(times.kept, 50),
      p95Ms: percentile(times.kept, 95),
      maxMs: percentile(times.kept, 100),
      nodeCpuMsP50: percentile(cpu.kept, 50),
    },
    aggregatedInSql: {
      p50Ms: percentile(times.aggregated, 50),
      p95Ms: percentile(times.aggregated, 95),
      maxMs: percentile(times.aggregated, 100),
      nodeCpuMsP50: percentile(cpu.aggregated, 50),
    },
  };
  log(`live summary 1h: ${JSON.stringify(result)}`);
  return result;
}
