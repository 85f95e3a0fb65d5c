import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanary } from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { createJobsService, type JobsService } from '../../platform/jobs/index.js';
import { startHealthWorkers, type HealthWorkers } from './index.js';
import { startTestTarget, waitFor, type TestTarget } from './test-fixtures/targets.js';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'test-fixtures', 'canary-worker.ts');
const logger = pino({ level: 'silent' });
let db: TestDatabase;
let target: TestTarget;
let jobs: JobsService | undefined;
let workers: HealthWorkers | undefined;

beforeAll(async () => {
  db = await createTestDatabase();
  target = await startTestTarget();
});

afterAll(async () => {
  await workers?.stop();
  await jobs?.stop({ graceMs: 2000 });
  await target?.close();
  await db?.close();
});

describe('a replica killed during a canary run', () => {
  it('leaves no run or check stuck, and another replica takes the next tick', async () => {
    const canary = await createCanary(db.pool, {
      spec: {
        schedule: '@every 1s',
        http: [
          { name: 'hung', url: `${target.baseUrl}/hang` },
          { name: 'quick', url: `${target.baseUrl}/ok` },
        ],
      },
    });
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', WORKER], {
      env: { ...process.env, DATABASE_URL: db.url, RUN_TIMEOUT_MS: '3000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<string | number>((resolve) =>
      child.on('exit', (code, signal) => resolve(signal ?? code ?? 'unknown')),
    );
    try {
      // The child's run is under way: the quick check is recorded, the hung one still waits.
      await waitFor(
        async () => {
          const { rows } = await db.pool.query(
            `SELECT 1 FROM job_history h WHERE h.resource_id = $1::text AND h.status = 'RUNNING'
               AND EXISTS (SELECT 1 FROM checks c JOIN check_statuses s ON s.check_id = c.id
                           WHERE c.canary_id = $1::uuid AND c.name = 'quick')`,
            [canary.id],
          );
          return rows.length > 0;
        },
        { timeoutMs: 30_000, what: `a run in the child. Output:\n${output}` },
      );
    } catch (error) {
      child.kill('SIGKILL');
      throw error;
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    jobs = createJobsService({
      pool: db.pool,
      logger,
      heartbeatIntervalMs: 200,
      staleWorkerAfterMs: 1000,
      schedules: { pollIntervalMs: 100, leaseMarginMs: 500 },
    });
    workers = await startHealthWorkers({
      pool: db.pool,
      jobs,
      logger,
      pollIntervalMs: 200,
      runner: { checkTimeoutMs: 300 },
    });
    await jobs.start();

    // The killed run is marked STOPPED once its worker's heartbeat is stale.
    await waitFor(
      async () => {
        await jobs?.markStaleRunningJobs();
        const { rows } = await db.pool.query(
          `SELECT 1 FROM job_history WHERE resource_id = $1 AND status = 'STOPPED'`,
          [canary.id],
        );
        return rows.length > 0;
      },
      { timeoutMs: 10_000, what: 'the killed run to be marked STOPPED' },
    );
    // Once the dead replica's lease lapses this process runs the canary, hung check included.
    await waitFor(
      async () => {
        const { rows } = await db.pool.query(
          `SELECT s.error FROM checks c JOIN check_statuses s ON s.check_id = c.id
           WHERE c.canary_id = $1 AND c.name = 'hung'`,
          [canary.id],
        );
        return rows.length > 0 ? rows : undefined;
      },
      { timeoutMs: 15_000, what: 'the next tick on the surviving replica' },
    );
    const running = await db.pool.query(
      `SELECT count(*)::integer AS count FROM job_history
       WHERE resource_id = $1 AND status = 'RUNNING' AND worker_id <> $2`,
      [canary.id, jobs.workerId],
    );
    expect(running.rows[0].count).toBe(0);
    const checks = await db.pool.query<{ name: string; status: string }>(
      'SELECT name, status FROM checks WHERE canary_id = $1 ORDER BY name',
      [canary.id],
    );
    expect(checks.rows).toEqual([
      { name: 'hung', status: 'unhealthy' },
      { name: 'quick', status: 'healthy' },
    ]);
  });
});
