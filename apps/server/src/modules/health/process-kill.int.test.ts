import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCanary } from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { createJobsService, type JobsService } from '../../platform/jobs/index.js';
import { canaryScheduleName } from './canary-scheduler.js';
import { startHealthWorkers, type HealthWorkers } from './index.js';
import { startTestTarget, waitFor, type TestTarget } from './test-fixtures/targets.js';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'test-fixtures', 'canary-worker.ts');
const logger = pino({ level: 'silent' });
let db: TestDatabase;
let target: TestTarget;
let jobs: JobsService | undefined;
let workers: HealthWorkers | undefined;
const children: ChildProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  target = await startTestTarget();
});

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await workers?.stop();
  await jobs?.stop({ graceMs: 2000 });
  workers = undefined;
  jobs = undefined;
  // The next test's replicas leave this test's canaries alone.
  await db.pool.query('UPDATE canaries SET deleted_at = now() WHERE deleted_at IS NULL');
});

afterAll(async () => {
  await target?.close();
  await db?.close();
});

/** Starts test-fixtures/canary-worker.ts as a separate OS process (another replica). */
function spawnReplica(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', WORKER], {
    env: { ...process.env, DATABASE_URL: db.url, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<string | number>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code ?? 'unknown')),
  );
  return { child, exited, output: () => output };
}

/** This process as the surviving replica, with the same lease as the child. */
async function startSurvivor(schedules: { leaseMs: number; renewIntervalMs: number }): Promise<JobsService> {
  jobs = createJobsService({
    pool: db.pool,
    logger,
    heartbeatIntervalMs: 200,
    staleWorkerAfterMs: 1000,
    schedules: { pollIntervalMs: 100, ...schedules },
  });
  workers = await startHealthWorkers({
    pool: db.pool,
    jobs,
    logger,
    pollIntervalMs: 200,
    runner: { checkTimeoutMs: 300 },
  });
  await jobs.start();
  return jobs;
}

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
    const replica = spawnReplica({ RUN_TIMEOUT_MS: '3000' });
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
      { timeoutMs: 30_000, what: `a run in the child. Output:\n${replica.output()}` },
    );
    replica.child.kill('SIGKILL');
    expect(await replica.exited).toBe('SIGKILL');

    const survivor = await startSurvivor({ leaseMs: 1000, renewIntervalMs: 200 });

    // The killed run is marked STOPPED once its worker's heartbeat is stale.
    await waitFor(
      async () => {
        await survivor.markStaleRunningJobs();
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
      [canary.id, survivor.workerId],
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

  it('frees its claim within one lease of its death, though its run was allowed ten minutes', async () => {
    // The lease is the bound: the run's own timeouts (10 min) must not delay the next replica.
    const lease = { leaseMs: 1500, renewIntervalMs: 300 };
    const canary = await createCanary(db.pool, {
      spec: {
        schedule: '@every 1s',
        http: [
          { name: 'hung', url: `${target.baseUrl}/hang` },
          { name: 'quick', url: `${target.baseUrl}/ok` },
        ],
      },
    });
    const name = canaryScheduleName(canary.id);
    const replica = spawnReplica({
      RUN_TIMEOUT_MS: '600000',
      CHECK_TIMEOUT_MS: '600000',
      LEASE_MS: String(lease.leaseMs),
      RENEW_INTERVAL_MS: String(lease.renewIntervalMs),
    });
    const claimed = await waitFor(
      async () => {
        const { rows } = await db.pool.query<{ worker_id: string; locked_until: Date; last_run_at: Date }>(
          `SELECT h.worker_id, s.locked_until, s.last_run_at
           FROM job_history h JOIN job_schedules s ON s.name = $2 AND s.locked_by = h.worker_id
           WHERE h.resource_id = $1::text AND h.status = 'RUNNING'`,
          [canary.id, name],
        );
        return rows[0];
      },
      { timeoutMs: 30_000, what: `a run in the child. Output:\n${replica.output()}` },
    );

    // While the child lives, its run outlasts its first lease twice over without being taken
    // over, though this replica polls the same schedule all along.
    const survivor = await startSurvivor(lease);
    expect(survivor.schedules.names()).toContain(name);
    await waitFor(
      async () => {
        const { rows } = await db.pool.query<{ locked_until: Date }>(
          'SELECT locked_until FROM job_schedules WHERE name = $1',
          [name],
        );
        return rows[0].locked_until.getTime() >= claimed.locked_until.getTime() + 2 * lease.leaseMs;
      },
      { timeoutMs: 20_000, what: 'the child to renew its claim' },
    );
    const { rows: beforeKill } = await db.pool.query(
      `SELECT s.locked_by, s.last_run_at,
              (SELECT count(*)::integer FROM job_history WHERE resource_id = $2::text AND worker_id = $3)
                AS survivor_runs
       FROM job_schedules s WHERE s.name = $1`,
      [name, canary.id, survivor.workerId],
    );
    expect(beforeKill).toEqual([
      { locked_by: claimed.worker_id, last_run_at: claimed.last_run_at, survivor_runs: 0 },
    ]);

    replica.child.kill('SIGKILL');
    expect(await replica.exited).toBe('SIGKILL');
    // Its last renewal was before it died, so its claim ends at most one lease from now.
    const { rows: afterKill } = await db.pool.query<{ locked_by: string; lease_left_ms: number }>(
      `SELECT locked_by, extract(epoch FROM locked_until - now()) * 1000 AS lease_left_ms
       FROM job_schedules WHERE name = $1`,
      [name],
    );
    expect(afterKill[0].locked_by).toBe(claimed.worker_id);
    expect(Number(afterKill[0].lease_left_ms)).toBeLessThanOrEqual(lease.leaseMs);
    const { rows: lapse } = await db.pool.query<{ locked_until: Date }>(
      'SELECT locked_until FROM job_schedules WHERE name = $1',
      [name],
    );

    // The surviving replica takes the schedule once the lease lapsed (not before), and its run
    // records the hung check; the wait is far shorter than the child's 10-minute run timeout.
    const taken = await waitFor(
      async () => {
        const { rows } = await db.pool.query<{ time_start: Date }>(
          `SELECT time_start FROM job_history WHERE resource_id = $1::text AND worker_id = $2
           ORDER BY time_start LIMIT 1`,
          [canary.id, survivor.workerId],
        );
        return rows[0];
      },
      { timeoutMs: 20_000, what: 'the surviving replica to run the canary' },
    );
    expect(taken.time_start.getTime()).toBeGreaterThanOrEqual(lapse[0].locked_until.getTime());
    await waitFor(
      async () => {
        const { rows } = await db.pool.query<{ status: string }>(
          `SELECT status FROM checks WHERE canary_id = $1 AND name = 'hung'`,
          [canary.id],
        );
        return rows[0]?.status === 'unhealthy';
      },
      { timeoutMs: 20_000, what: "the survivor's run to record the hung check" },
    );
  });
});
