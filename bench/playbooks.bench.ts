// Playbook runner (issue 24): 200 runs of a three-action exec playbook submitted at once, worked
// by two runner processes. Every action must run exactly once (each appends its run id and name
// to one file); reports start latency (run created to its first action running, both database
// times) p50/p99 (issue target: p99 under 1 s) and throughput in actions per second.
// Two phases in one run, so their ratio is measured under the same machine load: `shared`, the
// runner's old settings (10 runs at once per process, as the queue's shared slots gave, and a
// pool of 4), then `lane`, the defaults (runs in a lane of their own, 100 at once per process,
// the server's pool of 20).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPool } from '../apps/server/src/platform/db/pool.js';
import { createRun } from '../apps/server/src/modules/playbooks/runs.js';
import type { BenchContext } from './run.js';

const RUNS = 200;
const ACTIONS = ['first', 'second', 'third'];
const RUNNER = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '../apps/server/src/modules/playbooks/test-fixtures/runner-process.ts',
);

interface Phase {
  name: string;
  env: Record<string, string>;
}

const PHASES: Phase[] = [
  // The server's lease (30 s): the runner process's 1 s default is for the crash test.
  { name: 'shared', env: { RUN_CONCURRENCY: '10', POOL_MAX: '4', LEASE_MS: '30000' } },
  { name: 'lane', env: { LEASE_MS: '30000' } },
];

function startRunner(databaseUrl: string, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', RUNNER], {
    env: { ...process.env, ...env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the runner process exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('started')) resolve(child);
    });
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

export default async function run(ctx: BenchContext): Promise<Record<string, unknown>> {
  const pool = createPool(ctx.databaseUrl, { max: 10 });
  const results: Record<string, unknown> = { runs: RUNS, actionsPerRun: ACTIONS.length, processes: 2 };
  try {
    for (const phase of PHASES) results[phase.name] = await runPhase(ctx, pool, phase);
    const ratio = (key: 'p50' | 'p99') => {
      const before = (results.shared as PhaseResult).startLatencyMs[key];
      const after = (results.lane as PhaseResult).startLatencyMs[key];
      return Math.round((before / Math.max(1, after)) * 10) / 10;
    };
    results.startLatencySpeedup = { p50: ratio('p50'), p99: ratio('p99') };
    results.throughputRatio =
      Math.round(
        ((results.lane as PhaseResult).actionsPerSecond / (results.shared as PhaseResult).actionsPerSecond) *
          10,
      ) / 10;
    results.loadAverage = os.loadavg().map((value) => Math.round(value * 10) / 10);
    ctx.log(JSON.stringify(results));
    return results;
  } finally {
    await pool.end();
  }
}

interface PhaseResult {
  statuses: Record<string, number>;
  actionExecutions: number;
  distinctActionExecutions: number;
  exactlyOnce: boolean;
  startLatencyMs: { p50: number; p99: number; max: number };
  startLatencyTargetP99Ms: number;
  actionsPerSecond: number;
  wallSeconds: number;
  loadAverageBefore: number[];
}

async function runPhase(
  ctx: BenchContext,
  pool: ReturnType<typeof createPool>,
  phase: Phase,
): Promise<PhaseResult> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'opsdeck-bench-playbooks-'));
  const ledger = path.join(dir, 'ledger');
  const runners: ChildProcess[] = [];
  try {
    const spec = {
      actions: ACTIONS.map((name) => ({
        name,
        exec: { script: `echo "{{.run.id}} ${name}" >> ${ledger}` },
      })),
    };
    const { rows } = await pool.query<{ id: string; name: string; namespace: string }>(
      `INSERT INTO playbooks (name, title, spec) VALUES ($1, 'bench', $2) RETURNING id, name, namespace`,
      [`bench-exec-${phase.name}`, spec],
    );
    const playbook = { ...rows[0], title: null, description: null, spec };
    runners.push(
      ...(await Promise.all([
        startRunner(ctx.databaseUrl, phase.env),
        startRunner(ctx.databaseUrl, phase.env),
      ])),
    );
    ctx.log(`${phase.name}: two runner processes started`);
    const loadAverageBefore = os.loadavg().map((value) => Math.round(value * 10) / 10);

    const submitted = Date.now();
    const ids = await Promise.all(
      Array.from({ length: RUNS }, () =>
        createRun(pool, {
          playbook,
          target: {},
          parameters: {},
          request: { trigger: 'bench' },
          createdBy: null,
        }).then((created) => created.id),
      ),
    );
    ctx.log(`${phase.name}: ${RUNS} runs submitted in ${Date.now() - submitted} ms`);
    const deadline = Date.now() + 10 * 60_000;
    for (;;) {
      const { rows: open } = await pool.query<{ count: string }>(
        `SELECT count(*) FROM playbook_runs WHERE id = ANY($1) AND status NOT IN ('completed', 'failed', 'cancelled', 'timed_out')`,
        [ids],
      );
      if (Number(open[0].count) === 0) break;
      if (Date.now() > deadline) throw new Error(`${open[0].count} runs still open after 10 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const { rows: statuses } = await pool.query<{ status: string; count: string }>(
      `SELECT status, count(*) FROM playbook_runs WHERE id = ANY($1) GROUP BY status`,
      [ids],
    );
    const { rows: latencies } = await pool.query<{ ms: number }>(
      `SELECT extract(epoch FROM (min(a.start_time) - r.created_at)) * 1000 AS ms
         FROM playbook_runs r JOIN playbook_run_actions a ON a.playbook_run_id = r.id
        WHERE r.id = ANY($1) GROUP BY r.id, r.created_at`,
      [ids],
    );
    const { rows: span } = await pool.query<{ seconds: number; actions: string }>(
      `SELECT extract(epoch FROM (max(a.end_time) - min(a.start_time))) AS seconds, count(*) AS actions
         FROM playbook_run_actions a WHERE a.playbook_run_id = ANY($1)`,
      [ids],
    );
    const lines = (await readFile(ledger, 'utf8')).split('\n').filter((line) => line !== '');
    const unique = new Set(lines);
    const expected = RUNS * ACTIONS.length;
    const exactlyOnce = lines.length === expected && unique.size === expected;
    const sorted = latencies.map((row) => Number(row.ms)).sort((a, b) => a - b);
    const seconds = Number(span[0].seconds);
    const result: PhaseResult = {
      statuses: Object.fromEntries(statuses.map((row) => [row.status, Number(row.count)])),
      actionExecutions: lines.length,
      distinctActionExecutions: unique.size,
      exactlyOnce,
      startLatencyMs: {
        p50: Math.round(percentile(sorted, 50)),
        p99: Math.round(percentile(sorted, 99)),
        max: Math.round(sorted[sorted.length - 1]),
      },
      startLatencyTargetP99Ms: 1000,
      actionsPerSecond: Math.round((Number(span[0].actions) / seconds) * 10) / 10,
      wallSeconds: Math.round(seconds * 10) / 10,
      loadAverageBefore,
    };
    ctx.log(`${phase.name}: ${JSON.stringify(result)}`);
    if (!exactlyOnce)
      throw new Error(
        `${phase.name}: expected ${expected} action executions once each, saw ${lines.length} (${unique.size} distinct)`,
      );
    return result;
  } finally {
    for (const child of runners) child.kill('SIGTERM');
    await Promise.all(
      runners.map((child) =>
        child.exitCode !== null ? undefined : new Promise((resolve) => child.once('exit', resolve)),
      ),
    );
    await rm(dir, { recursive: true, force: true });
  }
}
