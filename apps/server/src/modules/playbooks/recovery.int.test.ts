import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { createJobsService, type JobsService } from '../../platform/jobs/index.js';
import { waitFor } from '../../platform/jobs/test-fixtures/helpers.js';
import type { ModuleWorkers } from '../../server-module.js';
import { scheduleRun } from './runner.js';
import { startPlaybookWorkers } from './workers.js';

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'test-fixtures/runner-process.ts');
let db: TestDatabase;
let dir: string;
const children: ChildProcess[] = [];
let survivor: { jobs: JobsService; workers: ModuleWorkers } | undefined;

beforeAll(async () => {
  db = await createTestDatabase();
  dir = await mkdtemp(path.join(os.tmpdir(), 'opsdeck-recovery-'));
}, 60_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await survivor?.jobs.stop({ graceMs: 500 });
  await survivor?.workers.stop();
  // The killed process's scripts (own process groups) are ended here.
  for (const name of ['a.pid', 'b.pid']) {
    const pid = Number(await readFile(path.join(dir, name), 'utf8').catch(() => ''));
    if (pid > 0) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  }
  await rm(dir, { recursive: true, force: true });
  await db?.close();
});

function startReplica(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', SCRIPT], {
    env: { ...process.env, DATABASE_URL: db.url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('started')) resolve(child);
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', () => reject(new Error(`the replica exited: ${output}`)));
  });
}

async function createRun(name: string, spec: Record<string, unknown>): Promise<string> {
  const playbook = await db.pool.query<{ id: string }>(
    'INSERT INTO playbooks (name, spec) VALUES ($1, $2) RETURNING id',
    [name, spec],
  );
  const run = await db.pool.query<{ id: string }>(
    'INSERT INTO playbook_runs (playbook_id, spec, parameters) VALUES ($1, $2, $3) RETURNING id',
    [playbook.rows[0].id, spec, {}],
  );
  await scheduleRun(db.pool, run.rows[0].id);
  return run.rows[0].id;
}

describe('a process killed mid-run', () => {
  it('leaves no run stuck: a second process retries the interrupted action, or fails it with a message', async () => {
    const replica = await startReplica();
    // First attempt records its process group and hangs; a retry finds the marker and finishes.
    const retried = await createRun('crash-retry', {
      actions: [
        {
          name: 'work',
          retry: { limit: 1, duration: '100ms' },
          exec: {
            script: `if [ -f ${dir}/a.pid ]; then echo second attempt; else echo $$ > ${dir}/a.pid; sleep 60; fi`,
          },
        },
        { name: 'after', exec: { script: 'echo after' } },
      ],
    });
    const failed = await createRun('crash-fail', {
      actions: [{ name: 'work', exec: { script: `echo $$ > ${dir}/b.pid; sleep 60` } }],
    });
    await waitFor(
      async () => {
        const { rows } = await db.pool.query(
          `SELECT count(*)::int AS n FROM playbook_run_actions WHERE status = 'running' AND playbook_run_id = ANY($1)`,
          [[retried, failed]],
        );
        return rows[0].n === 2;
      },
      // Generous: under a heavily loaded machine the replica's start and first claim are slow.
      { timeoutMs: 90_000, intervalMs: 100, what: 'both actions to run in the replica' },
    );
    replica.kill('SIGKILL');
    await new Promise((resolve) => replica.once('exit', resolve));

    const logger = pino({ level: 'silent' });
    const jobs = createJobsService({
      pool: db.pool,
      logger,
      heartbeatIntervalMs: 200,
      staleWorkerAfterMs: 1000,
      events: { pollIntervalMs: 100, leaseMs: 1000, renewIntervalMs: 200 },
    });
    const workers = await startPlaybookWorkers({ pool: db.pool, jobs, logger, metrics: undefined as never });
    survivor = { jobs, workers };
    await jobs.start();

    const final = await waitFor(
      async () => {
        const { rows } = await db.pool.query<{ id: string; status: string; error: string | null }>(
          'SELECT id, status, error FROM playbook_runs WHERE id = ANY($1) ORDER BY created_at',
          [[retried, failed]],
        );
        return rows.every((row) => ['completed', 'failed'].includes(row.status)) ? rows : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 100, what: 'both runs to finish in the survivor' },
    );
    expect(final.find((row) => row.id === retried)).toMatchObject({ status: 'completed' });
    expect(final.find((row) => row.id === failed)).toMatchObject({
      status: 'failed',
      error: 'work: the process running this action stopped before it finished',
    });
    const actions = await db.pool.query<{
      name: string;
      status: string;
      retry_count: number;
      result: unknown;
    }>(
      'SELECT name, status, retry_count, result FROM playbook_run_actions WHERE playbook_run_id = $1 ORDER BY created_at',
      [retried],
    );
    expect(actions.rows).toEqual([
      expect.objectContaining({ name: 'work', status: 'completed', retry_count: 1 }),
      expect.objectContaining({ name: 'after', status: 'completed', retry_count: 0 }),
    ]);
    expect((actions.rows[0].result as { stdout: string }).stdout).toBe('second attempt\n');
  }, 240_000);
});
