// Playbook runner (issue 24): 200 runs of a three-action exec playbook submitted at once, worked
// by two runner processes. Every action must run exactly once (each appends its run id and name
// to one file); reports start latency (run created to its first action running, both database
// times) p50/p99 (issue target: p99 under 1 s) and throughput in actions per second.
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

function startRunner(databaseUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', RUNNER], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
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
      `INSERT INTO playbooks (name, title, spec) VALUES ('bench-exec', 'bench', $1) RETURNING id, name, namespace`,
      [spec],
    );
    const playbook = { ...rows[0], title: null, description: null, spec };
    runners.push(...(await Promise.all([startRunner(ctx.databaseUrl), startRunner(ctx.databaseUrl)])));
    ctx.log('two runner processes started');

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
    ctx.log(`${RUNS} runs submitted in ${Date.now() - submitted} ms`);
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
    const results = {
      runs: RUNS,
      actionsPerRun: ACTIONS.length,
      processes: 2,
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
    };
    ctx.log(JSON.stringify(results));
    if (!exactlyOnce)
      throw new Error(
        `expected ${expected} action executions once each, saw ${lines.length} (${unique.size} distinct)`,
      );
    return results;
  } finally {
    for (const child of runners) child.kill('SIGTERM');
    await pool.end();
    await rm(dir, { recursive: true, force: true });
  }
}
