// Check engine cost (issue 22): HTTP checks every 20 s against a local target (a child process,
// not counted), run by the real health workers on the jobs platform, in three layouts (1, 10 and
// 100 checks per canary) at 500 and 2,000 checks. For each, over a steady window after the first
// ticks, it counts the whole process tree of the product: this Node process plus its PostgreSQL
// (the postmaster and all its children, exited ones through the postmaster's cutime/cstime), so
// the bench must run on its own PostgreSQL (run.ts starts an embedded one when TEST_DATABASE_URL
// is unset; with TEST_DATABASE_URL the PostgreSQL figures include whatever else uses that server).
// Reports CPU s per 1,000 checks, % of one core, PSS (smaps_rollup, shared pages counted once),
// transactions and row writes per check (pg_stat_database deltas), schedule lag p50/p99, and
// add-to-first-run (a canary inserted during the steady state until its first check started).
// Targets: CPU per 1,000 checks ≤ 1.9 s with 1 check per canary, ≤ 1 s with 10+; lag p99 < 1 s;
// add-to-first-run < 1 s.
// BENCH_ENGINE_LAYOUTS (default 1,10,100), BENCH_ENGINE_CHECKS (default 500,2000) and
// BENCH_ENGINE_WINDOW_SECONDS (default 60) tune it; BENCH_ENGINE_LABEL names the result set.
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

const INTERVAL_SECONDS = 20;
const LAYOUTS = (process.env.BENCH_ENGINE_LAYOUTS ?? '1,10,100').split(',').map(Number);
const CHECK_COUNTS = (process.env.BENCH_ENGINE_CHECKS ?? '500,2000').split(',').map(Number);
const WINDOW_SECONDS = Number(process.env.BENCH_ENGINE_WINDOW_SECONDS ?? 60);
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

interface ProcStat {
  ppid: number;
  /** utime + stime in seconds. */
  own: number;
  /** cutime + cstime (waited-for children) in seconds. */
  children: number;
}

async function readStat(pid: number): Promise<ProcStat | undefined> {
  try {
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      ppid: Number(fields[1]),
      own: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS,
      children: (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS,
    };
  } catch {
    return undefined;
  }
}

async function childrenOf(parent: number): Promise<number[]> {
  const pids = (await fs.readdir('/proc')).filter((entry) => /^\d+$/.test(entry)).map(Number);
  const found: number[] = [];
  for (const pid of pids) {
    const stat = await readStat(pid);
    if (stat?.ppid === parent) found.push(pid);
  }
  return found;
}

async function pssKiB(pid: number): Promise<number> {
  try {
    const text = await fs.readFile(`/proc/${pid}/smaps_rollup`, 'utf8');
    const match = /^Pss:\s+(\d+) kB/m.exec(text);
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** The product's process tree: this Node process (not its children: the target) and PostgreSQL. */
class ProcessTree {
  constructor(private readonly postmaster: number) {}

  /** CPU seconds so far: Node's own, the postmaster's own and reaped children's, live backends'. */
  async cpuSeconds(): Promise<{ node: number; postgres: number }> {
    const node = (await readStat(process.pid))?.own ?? 0;
    const master = await readStat(this.postmaster);
    let postgres = (master?.own ?? 0) + (master?.children ?? 0);
    for (const pid of await childrenOf(this.postmaster)) postgres += (await readStat(pid))?.own ?? 0;
    return { node, postgres };
  }

  async pssMiB(): Promise<{ node: number; postgres: number }> {
    let postgres = await pssKiB(this.postmaster);
    for (const pid of await childrenOf(this.postmaster)) postgres += await pssKiB(pid);
    return { node: (await pssKiB(process.pid)) / 1024, postgres: postgres / 1024 };
  }
}

async function databaseCounters(pool: Pool): Promise<{ xacts: number; writes: number }> {
  // pg_stat_database is fed by backends at most once a second; take a fresh snapshot.
  const { rows } = await pool.query<{ xacts: number; writes: number }>(
    `SELECT xact_commit + xact_rollback AS xacts, tup_inserted + tup_updated + tup_deleted AS writes
     FROM pg_stat_database WHERE datname = current_database()`,
  );
  return rows[0];
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function insertCanaries(
  pool: Pool,
  prefix: string,
  canaries: number,
  perCanary: number,
  targetUrl: string,
): Promise<void> {
  await pool.query(
    `INSERT INTO canaries (id, name, namespace, spec, source)
     SELECT gen_random_uuid(), $1::text || '-' || c, 'bench',
            jsonb_build_object('schedule', $2::text, 'http',
              (SELECT jsonb_agg(jsonb_build_object('name', 'check-' || i, 'url', $3::text || '/ok?c=' || c || '&i=' || i,
                                                   'responseCodes', jsonb_build_array(200)))
                 FROM generate_series(1, $4::integer) AS i)),
            'bench'
       FROM generate_series(1, $5::integer) AS c`,
    [prefix, `@every ${INTERVAL_SECONDS}s`, targetUrl, perCanary, canaries],
  );
}

/** Inserts one canary (as the API, editor, apply and files paths end up doing) and waits for its first check. */
async function addToFirstRun(pool: Pool, prefix: string, targetUrl: string): Promise<number | null> {
  const started = Date.now();
  await insertCanaries(pool, prefix, 1, 1, targetUrl);
  while (Date.now() - started < 60_000) {
    const { rows } = await pool.query<{ time: Date }>(
      `SELECT min(s.time) AS time FROM check_statuses s JOIN checks c ON c.id = s.check_id
       JOIN canaries k ON k.id = c.canary_id WHERE k.name = $1`,
      [`${prefix}-1`],
    );
    if (rows[0]?.time) return Math.max(0, new Date(rows[0].time).getTime() - started);
    await sleep(20);
  }
  return null;
}

export default async function run(ctx: BenchContext): Promise<Record<string, unknown>> {
  const target = await startTarget();
  const pool = createPool(ctx.databaseUrl, { max: 20 });
  const logger = createLogger('warn');
  const results: Record<string, unknown>[] = [];
  try {
    const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const postmaster = (await readStat(rows[0].pid))!.ppid;
    const tree = new ProcessTree(postmaster);
    const schedule = `@every ${INTERVAL_SECONDS}s`;
    const expression = parseSchedule(schedule);

    for (const checks of CHECK_COUNTS) {
      for (const perCanary of LAYOUTS) {
        const canaries = Math.max(1, Math.round(checks / perCanary));
        const prefix = `bench-${checks}-${perCanary}`;
        await insertCanaries(pool, prefix, canaries, perCanary, target.url);
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
          `${checks} checks, ${perCanary} per canary: ${canaries} canaries registered in ${Math.round(performance.now() - setupStarted)} ms`,
        );
        // Every canary has ticked once (checks rows, connections warm) before measuring.
        await sleep((INTERVAL_SECONDS + 5) * 1000);

        const cpuBefore = await tree.cpuSeconds();
        const countersBefore = await databaseCounters(pool);
        const windowStart = new Date();
        const wallStart = performance.now();
        let peakPss = { node: 0, postgres: 0 };
        const samplePss = async () => {
          const pss = await tree.pssMiB();
          if (pss.node + pss.postgres > peakPss.node + peakPss.postgres) peakPss = pss;
        };
        const sampler = setInterval(() => void samplePss().catch(() => undefined), 5000);
        await sleep(WINDOW_SECONDS * 1000);
        clearInterval(sampler);
        const wallSeconds = (performance.now() - wallStart) / 1000;
        const windowEnd = new Date();
        const cpuAfter = await tree.cpuSeconds();
        await sleep(1100); // let the backends flush their statistics
        const countersAfter = await databaseCounters(pool);
        await samplePss();

        const { rows: statuses } = await pool.query<{ canary_id: string; time: Date; status: boolean }>(
          `SELECT c.canary_id, s.time, s.status FROM check_statuses s JOIN checks c ON c.id = s.check_id
           WHERE s.time >= $1 AND s.time < $2
             AND c.canary_id IN (SELECT id FROM canaries WHERE name LIKE $3::text || '-%')`,
          [windowStart, windowEnd, prefix],
        );
        const lags = statuses.map((row) => {
          const tick = expression.nextAfter(
            new Date(row.time.getTime() - INTERVAL_SECONDS * 1000),
            `canary:${row.canary_id}`,
          );
          return row.time.getTime() - tick.getTime();
        });
        const firstRuns: number[] = [];
        for (let i = 0; i < 3; i += 1) {
          const ms = await addToFirstRun(pool, `${prefix}-new${i}`, target.url);
          if (ms !== null) firstRuns.push(ms);
        }

        const nodeCpu = cpuAfter.node - cpuBefore.node;
        const postgresCpu = cpuAfter.postgres - cpuBefore.postgres;
        const cpu = nodeCpu + postgresCpu;
        const executions = statuses.length;
        const result = {
          checks,
          checksPerCanary: perCanary,
          canaries,
          windowSeconds: Math.round(wallSeconds),
          executions,
          expectedExecutions: Math.round((checks * wallSeconds) / INTERVAL_SECONDS),
          failed: statuses.filter((row) => !row.status).length,
          cpuSecondsPer1000Checks: executions > 0 ? round((cpu * 1000) / executions) : null,
          nodeCpuSecondsPer1000Checks: executions > 0 ? round((nodeCpu * 1000) / executions) : null,
          postgresCpuSecondsPer1000Checks: executions > 0 ? round((postgresCpu * 1000) / executions) : null,
          cpuPercentOfOneCore: round((cpu / wallSeconds) * 100, 1),
          pssMiB: { node: Math.round(peakPss.node), postgres: Math.round(peakPss.postgres) },
          transactionsPerCheck:
            executions > 0 ? round((countersAfter.xacts - countersBefore.xacts) / executions) : null,
          rowWritesPerCheck:
            executions > 0 ? round((countersAfter.writes - countersBefore.writes) / executions) : null,
          scheduleLagMs: { p50: percentile(lags, 50), p99: percentile(lags, 99), max: percentile(lags, 100) },
          addToFirstRunMs: firstRuns,
          machineLoadAverage1m: round(os.loadavg()[0], 1),
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
    }
    return {
      label: process.env.BENCH_ENGINE_LABEL ?? null,
      schedule,
      windowSeconds: WINDOW_SECONDS,
      cpus: os.cpus().length,
      runs: results,
      targets: {
        cpuSecondsPer1000Checks: { oneCheckPerCanary: 1.9, tenOrMorePerCanary: 1 },
        scheduleLagP99Ms: 1000,
        addToFirstRunMs: 1000,
      },
    };
  } finally {
    target.stop();
    await pool.end();
  }
}
