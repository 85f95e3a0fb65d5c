// Playbook runner (issue 24): 200 runs of a three-action exec playbook submitted at once, worked
// by two runner processes. Every action must run exactly once (each appends its run id and name
// to one file); reports start latency (run created to its first action running, both database
// times) p50/p99 (issue target: p99 under 1 s) and throughput in actions per second.
// Two phases in one run, so their ratio is measured under the same machine load: `before`, the
// runner as it was at PLAYBOOK_BENCH_BEFORE (a git revision, default the commit before ADR 0042's
// runner changes; checked out into a temporary worktree that borrows this one's node_modules),
// then `after`, this checkout's runner; both with the defaults (100 runs at once per process, the
// server's pool of 20, the server's 30 s lease).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { createRun } from '../apps/server/src/modules/playbooks/runs.js';
import type { BenchContext } from './run.js';

const RUNS = 200;
const ACTIONS = ['first', 'second', 'third'];
const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNNER = 'apps/server/src/modules/playbooks/test-fixtures/runner-process.ts';
/** The runner before ADR 0042 (run holders, one-statement take, starts before continuations). */
const BEFORE = process.env.PLAYBOOK_BENCH_BEFORE ?? '6979942';

interface Phase {
  name: string;
  /** The checkout whose runner runs. */
  root: string;
  env: Record<string, string>;
}

const run_ = promisify(execFile);

/** A worktree of `revision` next to this checkout's node_modules; removed by the answer. */
async function checkout(revision: string): Promise<{ root: string; remove: () => Promise<void> }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'opsdeck-bench-before-'));
  await run_('git', ['worktree', 'add', '--detach', root, revision], { cwd: ROOT });
  await symlink(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'));
  return {
    root,
    remove: async () => {
      await run_('git', ['worktree', 'remove', '--force', root], { cwd: ROOT }).catch(() => undefined);
      await rm(root, { recursive: true, force: true });
    },
  };
}

function startRunner(databaseUrl: string, phase: Phase): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', RUNNER], {
    cwd: phase.root,
    env: { ...process.env, ...phase.env, DATABASE_URL: databaseUrl },
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
  // No connection timeout: on a loaded machine 200 submissions wait their turn for a long time.
  const pool = new pg.Pool({ connectionString: ctx.databaseUrl, max: 10 });
  const results: Record<string, unknown> = {
    runs: RUNS,
    actionsPerRun: ACTIONS.length,
    processes: 2,
    beforeRevision: BEFORE,
  };
  const before = await checkout(BEFORE);
  // The server's lease (30 s): the runner process's 1 s default is for the crash test.
  const phases: Phase[] = [
    { name: 'before', root: before.root, env: { LEASE_MS: '30000' } },
    { name: 'after', root: ROOT, env: { LEASE_MS: '30000' } },
  ];
  try {
    for (const phase of phases) results[phase.name] = await runPhase(ctx, pool, phase);
    const ratio = (key: 'p50' | 'p99') => {
      const was = (results.before as PhaseResult).startLatencyMs[key];
      const now = (results.after as PhaseResult).startLatencyMs[key];
      return Math.round((was / Math.max(1, now)) * 10) / 10;
    };
    results.startLatencySpeedup = { p50: ratio('p50'), p99: ratio('p99') };
    results.throughputRatio =
      Math.round(
        ((results.after as PhaseResult).actionsPerSecond / (results.before as PhaseResult).actionsPerSecond) *
          10,
      ) / 10;
    results.loadAverage = os.loadavg().map((value) => Math.round(value * 10) / 10);
    ctx.log(JSON.stringify(results));
    return results;
  } finally {
    await pool.end();
    await before.remove();
  }
}

interface PhaseResult {
  statuses: Record<string, number>;
  actionExecutions: number;
  distinctActionExecutions: number;
  exactlyOnce: boolean;
  startLatencyMs: { p50: number; p99: number; max: number };
  startLatencyTargetP99Ms: number;
  stagesMs?: Record<string, { p50: number; p99: number }>;
  actionsPerSecond: number;
  wallSeconds: number;
  loadAverageBefore: number[];
}

async function runPhase(ctx: BenchContext, pool: pg.Pool, phase: Phase): Promise<PhaseResult> {
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
      ...(await Promise.all([startRunner(ctx.databaseUrl, phase), startRunner(ctx.databaseUrl, phase)])),
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
    // Where a run waited (runners that record holders, ADR 0042): created to taken from the
    // queue (claim, wake-up, a free lane slot), then taken to its first action running.
    const { rows: stages } = await pool.query<{ to_take: number; take_to_start: number }>(
      `SELECT extract(epoch FROM (h.taken_at - r.created_at)) * 1000 AS to_take,
              extract(epoch FROM (min(a.start_time) - h.taken_at)) * 1000 AS take_to_start
         FROM playbook_runs r JOIN playbook_run_holders h ON h.run_id = r.id
         JOIN playbook_run_actions a ON a.playbook_run_id = r.id
        WHERE r.id = ANY($1) GROUP BY r.id, r.created_at, h.taken_at`,
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
    const spread = (values: number[]) => {
      const ordered = values.sort((a, b) => a - b);
      return { p50: Math.round(percentile(ordered, 50)), p99: Math.round(percentile(ordered, 99)) };
    };
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
      ...(stages.length > 0
        ? {
            stagesMs: {
              createdToTaken: spread(stages.map((row) => Number(row.to_take))),
              takenToFirstAction: spread(stages.map((row) => Number(row.take_to_start))),
            },
          }
        : {}),
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
