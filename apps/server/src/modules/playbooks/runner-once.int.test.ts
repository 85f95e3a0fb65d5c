import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { createJobsService, type JobsService } from '../../platform/jobs/index.js';
import { waitFor } from '../../platform/jobs/test-fixtures/helpers.js';
import type { ModuleWorkers } from '../../server-module.js';
import { advanceRun, scheduleRun } from './runner.js';
import { startPlaybookWorkers } from './workers.js';

const logger = pino({ level: 'silent' });
let db: TestDatabase;
let dir: string;
const started: { jobs: JobsService; workers: ModuleWorkers }[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  dir = await mkdtemp(path.join(os.tmpdir(), 'opsdeck-once-'));
}, 60_000);

afterAll(async () => {
  for (const { jobs, workers } of started) {
    await jobs.stop({ graceMs: 1000 });
    await workers.stop();
  }
  await rm(dir, { recursive: true, force: true });
  await db?.close();
});

/** A playbook whose three exec actions append `<run id> <action>` to `ledger`, and `count` runs of it. */
async function runsWritingTo(ledger: string, name: string, count: number): Promise<string[]> {
  const spec = {
    actions: ['first', 'second', 'third'].map((action) => ({
      name: action,
      exec: { script: `echo "{{.run.id}} ${action}" >> ${ledger}` },
    })),
  };
  const playbook = await db.pool.query<{ id: string }>(
    'INSERT INTO playbooks (name, spec) VALUES ($1, $2) RETURNING id',
    [name, spec],
  );
  const runs = await db.pool.query<{ id: string }>(
    `INSERT INTO playbook_runs (playbook_id, spec, parameters)
     SELECT $1, $2, '{}' FROM generate_series(1, $3) RETURNING id`,
    [playbook.rows[0].id, spec, count],
  );
  return runs.rows.map((row) => row.id);
}

async function ledgerLines(ledger: string): Promise<string[]> {
  return (await readFile(ledger, 'utf8').catch(() => '')).split('\n').filter((line) => line !== '');
}

describe('each action runs once', () => {
  it('when two processes advance the same runs at the same moment (a lease that lapsed), no action starts twice', async () => {
    const ledger = path.join(dir, 'concurrent');
    const ids = await runsWritingTo(ledger, 'concurrent', 15);
    const jobs = { startJob: createJobsService({ pool: db.pool, logger }).startJob };
    const never = new AbortController().signal;
    await Promise.all(
      ids.flatMap((id) => [
        advanceRun({ pool: db.pool, jobs }, id, never),
        advanceRun({ pool: db.pool, jobs }, id, never),
      ]),
    );
    // The second process to reach an action finds it taken and leaves the run to the first one
    // (a real takeover happens only after the first one's lease lapsed: it is gone or stopped).
    const lines = await ledgerLines(ledger);
    expect(new Set(lines).size).toBe(lines.length);
    expect(lines.length).toBeGreaterThanOrEqual(ids.length);
    const rows = await db.pool.query<{ n: number }>(
      `SELECT max(n)::int AS n FROM (SELECT count(*) AS n FROM playbook_run_actions
        WHERE playbook_run_id = ANY($1) GROUP BY playbook_run_id, name) per_action`,
      [ids],
    );
    expect(rows.rows[0].n).toBe(1);
  }, 120_000);

  it('two runner processes (jobs services) work a burst of runs: all complete, each action once', async () => {
    const ledger = path.join(dir, 'burst');
    for (let index = 0; index < 2; index++) {
      const jobs = createJobsService({
        pool: db.pool,
        logger,
        events: { pollIntervalMs: 100, leaseMs: 10_000 },
      });
      const workers = await startPlaybookWorkers({
        pool: db.pool,
        jobs,
        logger,
        metrics: undefined as never,
        runConcurrency: 20,
      });
      started.push({ jobs, workers });
      await jobs.start();
    }
    const ids = await runsWritingTo(ledger, 'burst', 40);
    for (const id of ids) await scheduleRun(db.pool, id);
    await waitFor(
      async () => {
        const { rows } = await db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM playbook_runs WHERE id = ANY($1) AND status = 'completed'`,
          [ids],
        );
        return rows[0].n === ids.length;
      },
      { timeoutMs: 100_000, intervalMs: 200, what: 'every run to complete' },
    );
    const lines = await ledgerLines(ledger);
    expect(lines).toHaveLength(ids.length * 3);
    expect(new Set(lines).size).toBe(ids.length * 3);
    // Both processes took part.
    const workersSeen = await db.pool.query<{ n: number }>(
      `SELECT count(DISTINCT worker_id)::int AS n FROM job_history WHERE name = 'playbook run burst'`,
    );
    expect(workersSeen.rows[0].n).toBe(2);
  }, 150_000);
});
