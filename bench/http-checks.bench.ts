// HTTP checks on schedule (issue 6, Prove it 1): canaries of 10 HTTP checks each on `@every 30s`,
// run by the real health workers on the jobs platform against a local HTTP target (a child
// process, so its CPU is not counted), at 1,000 / 5,000 / 10,000 checks per minute. For each
// rate, over a steady window after the first ticks: executions per second, CPU % of one core of
// the Opsdeck process (and, apart, of this database's PostgreSQL backends), peak RSS, and
// schedule lag (a check's start minus the tick it ran for) p50/p99.
// Target: 10,000 checks/min under 50 % of one core with p99 lag under 1 s.
// BENCH_HTTP_RATES (comma separated, default 1000,5000,10000) and BENCH_HTTP_WINDOW_SECONDS
// (default 60) tune it.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { Registry } from 'prom-client';
import { createPool, type Pool } from '../apps/server/src/platform/db/pool.js';
import { createJobsService, parseSchedule } from '../apps/server/src/platform/jobs/index.js';
import { createLogger } from '../apps/server/src/platform/logger.js';
import { createCheckMetrics, startHealthWorkers } from '../apps/server/src/modules/health/index.js';
import type { BenchContext } from './run.js';

const CHECKS_PER_CANARY = 10;
const INTERVAL_SECONDS = 30;
const RATES = (process.env.BENCH_HTTP_RATES ?? '1000,5000,10000').split(',').map(Number);
const WINDOW_SECONDS = Number(process.env.BENCH_HTTP_WINDOW_SECONDS ?? 60);
const CLOCK_TICKS = 100; // USER_HZ on Linux

const TARGET_SOURCE = `
const http = require('node:http');
const server = http.createServer((request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
`;

async function startTarget(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ['-e', TARGET_SOURCE], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.stdout.once('data', (data: Buffer) => resolve(data.toString().trim()));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
};

/** CPU seconds used so far by the PostgreSQL backends serving this database (best effort). */
async function backendCpu(pool: Pool, seen: Map<number, number>): Promise<void> {
  const { rows } = await pool.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
  );
  for (const { pid } of rows) {
    try {
      const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const seconds = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
      seen.set(pid, Math.max(seen.get(pid) ?? 0, seconds));
    } catch {
      // the backend ended
    }
  }
}

const sum = (values: Iterable<number>) => [...values].reduce((total, value) => total + value, 0);

export default async function run(ctx: BenchContext): Promise<Record<string, unknown>> {
  const target = await startTarget();
  const pool = createPool(ctx.databaseUrl, { max: 20 });
  const logger = createLogger('warn');
  const results: Record<string, unknown>[] = [];
  try {
    // Baseline: the CPU one bare HTTP request costs this process (undici fetch, 10 at once).
    const baselineRequests = 3000;
    let next = 0;
    const cpuBefore = process.cpuUsage();
    const baselineStarted = performance.now();
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < baselineRequests) {
          next += 1;
          await (await fetch(`${target.url}/ok?n=${next}`)).text();
        }
      }),
    );
    const baselineCpu = process.cpuUsage(cpuBefore);
    const baselineCpuMsPerRequest = (baselineCpu.user + baselineCpu.system) / 1000 / baselineRequests;
    ctx.log(
      `baseline: bare fetch ${Math.round(baselineRequests / ((performance.now() - baselineStarted) / 1000))} req/s, ` +
        `${baselineCpuMsPerRequest.toFixed(3)} CPU ms per request`,
    );

    for (const rate of RATES) {
      const canaries = Math.max(1, Math.round((rate * INTERVAL_SECONDS) / 60 / CHECKS_PER_CANARY));
      const schedule = `@every ${INTERVAL_SECONDS}s`;
      await pool.query(
        `INSERT INTO canaries (id, name, namespace, spec, source)
         SELECT gen_random_uuid(), 'bench-' || $1::integer || '-' || c, 'bench',
                jsonb_build_object('schedule', $2::text, 'http',
                  (SELECT jsonb_agg(jsonb_build_object('name', 'check-' || i, 'url', $3::text || '/ok?c=' || c || '&i=' || i,
                                                       'responseCodes', jsonb_build_array(200)))
                     FROM generate_series(1, $4::integer) AS i)),
                'bench'
           FROM generate_series(1, $5::integer) AS c`,
        [rate, schedule, target.url, CHECKS_PER_CANARY, canaries],
      );
      const jobs = createJobsService({ pool, logger });
      await jobs.start();
      const setupStarted = performance.now();
      const workers = await startHealthWorkers({
        pool,
        jobs,
        logger,
        runner: { metrics: createCheckMetrics(new Registry()) },
      });
      ctx.log(
        `${rate}/min: ${canaries} canaries × ${CHECKS_PER_CANARY} checks registered in ${Math.round(performance.now() - setupStarted)} ms`,
      );
      // Every canary has ticked once (checks rows, connections and JIT warm) before measuring.
      await new Promise((resolve) => setTimeout(resolve, (INTERVAL_SECONDS + 5) * 1000));

      const pgSeenBefore = new Map<number, number>();
      await backendCpu(pool, pgSeenBefore);
      const pgSeen = new Map(pgSeenBefore);
      const windowStart = new Date();
      const cpuStart = process.cpuUsage();
      const wallStart = performance.now();
      let peakRss = process.memoryUsage().rss;
      const sampler = setInterval(() => {
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
        void backendCpu(pool, pgSeen).catch(() => undefined);
      }, 1000);
      await new Promise((resolve) => setTimeout(resolve, WINDOW_SECONDS * 1000));
      clearInterval(sampler);
      const cpu = process.cpuUsage(cpuStart);
      const wallSeconds = (performance.now() - wallStart) / 1000;
      const windowEnd = new Date();
      await backendCpu(pool, pgSeen);

      const { rows } = await pool.query<{ canary_id: string; time: Date; status: boolean }>(
        `SELECT c.canary_id, s.time, s.status FROM check_statuses s JOIN checks c ON c.id = s.check_id
         WHERE s.time >= $1 AND s.time < $2 AND c.name LIKE 'check-%'
           AND c.canary_id IN (SELECT id FROM canaries WHERE name LIKE 'bench-' || $3::integer || '-%')`,
        [windowStart, windowEnd, rate],
      );
      const expression = parseSchedule(schedule);
      const lags = rows.map((row) => {
        const tick = expression.nextAfter(
          new Date(row.time.getTime() - INTERVAL_SECONDS * 1000),
          `canary:${row.canary_id}`,
        );
        return row.time.getTime() - tick.getTime();
      });
      const cpuSeconds = (cpu.user + cpu.system) / 1e6;
      const pgCpuSeconds = sum(pgSeen.values()) - sum(pgSeenBefore.values());
      const result = {
        checksPerMinute: rate,
        canaries,
        windowSeconds: Math.round(wallSeconds),
        executions: rows.length,
        expectedExecutions: Math.round((rate * wallSeconds) / 60),
        failed: rows.filter((row) => !row.status).length,
        executionsPerSecond: Math.round((rows.length / wallSeconds) * 10) / 10,
        cpuPercentOfOneCore: Math.round((cpuSeconds / wallSeconds) * 1000) / 10,
        cpuMsPerExecution: rows.length > 0 ? Math.round((cpuSeconds * 1000 * 100) / rows.length) / 100 : null,
        ratioToBareFetchCpu:
          rows.length > 0
            ? Math.round(((cpuSeconds * 1000) / rows.length / baselineCpuMsPerRequest) * 10) / 10
            : null,
        postgresBackendsCpuPercentOfOneCore: Math.round((pgCpuSeconds / wallSeconds) * 1000) / 10,
        peakRssMiB: Math.round(peakRss / 2 ** 20),
        machineLoadAverage1m: Math.round(os.loadavg()[0] * 10) / 10,
        scheduleLagMs: { p50: percentile(lags, 50), p99: percentile(lags, 99), max: percentile(lags, 100) },
      };
      ctx.log(JSON.stringify(result));
      results.push(result);

      await workers.stop();
      await jobs.stop();
      await pool.query(
        `UPDATE canaries SET deleted_at = now() WHERE deleted_at IS NULL;
         UPDATE checks SET deleted_at = now() WHERE deleted_at IS NULL;
         DELETE FROM job_schedules WHERE name LIKE 'canary:%';`,
      );
    }
    return {
      checksPerCanary: CHECKS_PER_CANARY,
      schedule: `@every ${INTERVAL_SECONDS}s`,
      baseline: { bareFetchCpuMsPerRequest: Math.round(baselineCpuMsPerRequest * 1000) / 1000 },
      rates: results,
      target: { checksPerMinute: 10_000, cpuPercentOfOneCore: 50, scheduleLagP99Ms: 1000 },
    };
  } finally {
    target.stop();
    await pool.end();
  }
}
