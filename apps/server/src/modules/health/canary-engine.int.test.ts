// The check engine's batching and wake-ups (issue 22): results written together are the results
// written one by one; two processes on one database never run a canary's tick twice; a canary
// created or edited anywhere runs at once, in one process only.
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCanary } from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { createPool, type Pool } from '../../platform/db/pool.js';
import { createJobsService, type JobsService } from '../../platform/jobs/index.js';
import { recordCheckResult } from './check-recorder.js';
import { loadCanary, syncCanariesChecks, syncCanaryChecks } from './canary-sync.js';
import { startHealthWorkers, type HealthWorkers } from './index.js';
import { startTestTarget, waitFor, type TestTarget } from './test-fixtures/targets.js';

const logger = pino({ level: 'silent' });
let db: TestDatabase;
let target: TestTarget;

beforeAll(async () => {
  db = await createTestDatabase();
  target = await startTestTarget();
});

afterAll(async () => {
  await target?.close();
  await db?.close();
});

/** A process: its own pool, jobs service and health workers. */
interface Process {
  pool: Pool;
  jobs: JobsService;
  workers: HealthWorkers;
}

const processes: Process[] = [];

async function startProcess(options: { canaryPollMs?: number } = {}): Promise<Process> {
  const pool = createPool(db.url, { max: 10 });
  const jobs = createJobsService({ pool, logger, schedules: { pollIntervalMs: 200 } });
  await jobs.start();
  const workers = await startHealthWorkers({
    pool,
    jobs,
    logger,
    pollIntervalMs: options.canaryPollMs ?? 60_000,
  });
  const started = { pool, jobs, workers };
  processes.push(started);
  return started;
}

afterEach(async () => {
  for (const process of processes.splice(0)) {
    await process.workers.stop();
    await process.jobs.stop({ graceMs: 2000 });
    await process.pool.end();
  }
  // Canaries of one test do not run in the next.
  await db.pool.query(`UPDATE canaries SET deleted_at = now() WHERE deleted_at IS NULL`);
  await db.pool.query(`DELETE FROM job_schedules WHERE name LIKE 'canary:%'`);
});

async function syncedCheck(spec: Record<string, unknown>): Promise<{ canaryId: string; checkId: string }> {
  const created = await createCanary(db.pool, { spec });
  const row = await loadCanary(db.pool, created.id);
  const [check] = await syncCanaryChecks(db.pool, row!);
  return { canaryId: created.id, checkId: check.id };
}

const result = (pass: boolean, message = '') => ({
  pass,
  duration: 12.4,
  message,
  error: pass ? '' : 'down',
  data: {},
});

describe('recording results in batches', () => {
  it('writes results recorded together exactly as one by one: statuses, transitions and events', async () => {
    const checks = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        syncedCheck({ http: [{ name: `c${i}`, url: `${target.baseUrl}/ok` }] }),
      ),
    );
    const first = new Date('2026-01-01T00:00:00Z');
    const second = new Date('2026-01-01T00:00:20Z');
    // Round 1: every check passes (no previous status: no event).
    const round1 = await Promise.all(
      checks.map(({ checkId, canaryId }) =>
        recordCheckResult(db.pool, checkId, canaryId, {
          startedAt: first.toISOString(),
          result: result(true),
        }),
      ),
    );
    expect(round1.every((recorded) => recorded.status === 'healthy' && !recorded.transition)).toBe(true);
    // Round 2, together with a result for a check that does not exist and a second result of one
    // check: even checks fail, the missing one alone is refused.
    const missing = '00000000-0000-4000-8000-000000000001';
    const round2 = await Promise.allSettled([
      ...checks.map(({ checkId, canaryId }, i) =>
        recordCheckResult(
          db.pool,
          checkId,
          canaryId,
          { startedAt: second.toISOString(), result: result(i % 2 === 1, `run ${i}`) },
          { nextRuntime: new Date('2026-01-01T00:00:40Z') },
        ),
      ),
      recordCheckResult(db.pool, missing, checks[0].canaryId, {
        startedAt: second.toISOString(),
        result: result(true),
      }),
      recordCheckResult(db.pool, checks[1].checkId, checks[1].canaryId, {
        startedAt: new Date('2026-01-01T00:00:21Z').toISOString(),
        result: result(false),
      }),
    ]);
    expect(round2[12]).toMatchObject({ status: 'rejected' });
    expect(String((round2[12] as PromiseRejectedResult).reason)).toContain(`check ${missing} does not exist`);
    for (let i = 0; i < 12; i += 1) {
      expect(round2[i]).toEqual({
        status: 'fulfilled',
        value:
          i % 2 === 0
            ? { checkId: checks[i].checkId, status: 'unhealthy', transition: 'unhealthy' }
            : { checkId: checks[i].checkId, status: 'healthy' },
      });
    }
    // The second result of check 1 follows its first (healthy) one in the same batch.
    expect(round2[13]).toEqual({
      status: 'fulfilled',
      value: { checkId: checks[1].checkId, status: 'unhealthy', transition: 'unhealthy' },
    });

    const { rows } = await db.pool.query<{
      id: string;
      status: string;
      last_runtime: Date;
      next_runtime: Date | null;
      last_transition_time: Date | null;
      statuses: number;
    }>(
      `SELECT c.id, c.status, c.last_runtime, c.next_runtime, c.last_transition_time,
              (SELECT count(*)::integer FROM check_statuses s WHERE s.check_id = c.id) AS statuses
       FROM checks c WHERE c.id = ANY($1::uuid[])`,
      [checks.map((check) => check.checkId)],
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    checks.forEach(({ checkId }, i) => {
      const row = byId.get(checkId)!;
      expect(row.statuses).toBe(i === 1 ? 3 : 2);
      expect(row.status).toBe(i % 2 === 0 || i === 1 ? 'unhealthy' : 'healthy');
      if (i !== 1) {
        expect(row.last_runtime).toEqual(second);
        expect(row.next_runtime).toEqual(new Date('2026-01-01T00:00:40Z'));
      }
      expect(row.last_transition_time).toEqual(
        i % 2 === 0 ? second : i === 1 ? new Date('2026-01-01T00:00:21Z') : first,
      );
    });
    const events = await db.pool.query<{ name: string; check_id: string }>(
      `SELECT name, properties->>'check_id' AS check_id FROM event_queue
       WHERE name LIKE 'check.%' AND properties->>'check_id' = ANY($1::text[])`,
      [checks.map((check) => check.checkId)],
    );
    // One check.failed per even check, and one for check 1's second result.
    expect(events.rows.map((event) => event.name)).toEqual(Array(7).fill('check.failed'));
    expect(new Set(events.rows.map((event) => event.check_id)).size).toBe(7);
  });
});

describe('scheduled canaries across processes', () => {
  it('runs each tick of many one-check canaries once, with two processes on one database', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 15; i += 1) {
      const canary = await createCanary(db.pool, {
        spec: { schedule: '@every 1s', http: [{ name: 'ok', url: `${target.baseUrl}/ok?c=${i}` }] },
      });
      ids.push(canary.id);
    }
    const [a, b] = [await startProcess(), await startProcess()];
    await new Promise((resolve) => setTimeout(resolve, 4000));
    await Promise.all([a.workers.stop(), b.workers.stop()]);
    await Promise.all([a.jobs.stop({ graceMs: 2000 }), b.jobs.stop({ graceMs: 2000 })]);

    const { rows } = await db.pool.query<{
      canary_id: string;
      time: Date;
      worker_id: string;
      status: string;
    }>(
      `SELECT resource_id AS canary_id, time_start AS time, worker_id, status FROM job_history
       WHERE resource_type = 'canary' AND resource_id = ANY($1::text[]) ORDER BY time_start`,
      [ids],
    );
    const runs = new Map<string, Date[]>();
    for (const row of rows) runs.set(row.canary_id, [...(runs.get(row.canary_id) ?? []), row.time]);
    // Every canary ran (about 4 times), never twice for one tick: runs of a canary a tick apart.
    expect(runs.size).toBe(15);
    for (const times of runs.values()) {
      expect(times.length).toBeGreaterThanOrEqual(2);
      for (let i = 1; i < times.length; i += 1) {
        expect(times[i].getTime() - times[i - 1].getTime()).toBeGreaterThan(500);
      }
    }
    expect(rows.every((row) => row.status === 'SUCCESS')).toBe(true);
    // Statuses agree with the job history: one status row per run.
    const statuses = await db.pool.query<{ count: number }>(
      `SELECT count(*)::integer AS count FROM check_statuses s JOIN checks c ON c.id = s.check_id
       WHERE c.canary_id = ANY($1::uuid[])`,
      [ids],
    );
    expect(statuses.rows[0].count).toBe(rows.length);
    // Every schedule was unlocked at the end of its last run.
    const locked = await db.pool.query(
      `SELECT name FROM job_schedules WHERE name LIKE 'canary:%' AND locked_by IS NOT NULL`,
    );
    expect(locked.rows).toEqual([]);
  });

  it('keeps a check row another process inserted while this one was syncing the same canary', async () => {
    // Two processes sync a new canary at once: the second's upsert waits on the first's row and
    // then finds it already as declared, outside its snapshot. It must answer that row, not mark
    // it deleted as no longer declared (the canary would then run no check at all).
    const created = await createCanary(db.pool, {
      spec: { schedule: '@every 1h', http: [{ name: 'raced', url: `${target.baseUrl}/ok` }] },
    });
    const canary = (await loadCanary(db.pool, created.id))!;
    const other = await db.pool.connect();
    try {
      await other.query('BEGIN');
      const [first] = await syncCanaryChecks(other, canary);
      const racing = syncCanariesChecks(db.pool, [canary]);
      // The racing upsert is now waiting on the uncommitted row.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await other.query('COMMIT');
      const [[second]] = await racing;
      expect(second.id).toBe(first.id);
    } finally {
      other.release();
    }
    const { rows } = await db.pool.query<{ name: string; deleted_at: Date | null }>(
      `SELECT name, deleted_at FROM checks WHERE canary_id = $1`,
      [canary.id],
    );
    expect(rows).toEqual([{ name: 'raced', deleted_at: null }]);
  });

  it('runs a canary created or edited elsewhere at once, once across processes', async () => {
    const [a, b] = [await startProcess(), await startProcess()];
    // Hourly, and canaries re-read only every minute: only the change notification can run it now.
    const canary = await createCanary(db.pool, {
      spec: { schedule: '@every 1h', http: [{ name: 'first', url: `${target.baseUrl}/ok` }] },
    });
    const ranChecks = async () => {
      const { rows } = await db.pool.query<{ name: string }>(
        `SELECT DISTINCT c.name FROM check_statuses s JOIN checks c ON c.id = s.check_id WHERE c.canary_id = $1`,
        [canary.id],
      );
      return rows.map((row) => row.name).sort();
    };
    await waitFor(async () => (await ranChecks()).includes('first'), {
      timeoutMs: 5000,
      what: 'the new canary to run',
    });

    await db.pool.query(`UPDATE canaries SET spec = jsonb_set(spec, '{http}', $2::jsonb) WHERE id = $1`, [
      canary.id,
      JSON.stringify([{ name: 'second', url: `${target.baseUrl}/ok` }]),
    ]);
    await waitFor(async () => (await ranChecks()).includes('second'), {
      timeoutMs: 5000,
      what: 'the edited canary to run',
    });
    // Both processes heard of both changes; each change ran once.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const { rows } = await db.pool.query<{ count: number }>(
      `SELECT count(*)::integer AS count FROM job_history WHERE resource_type = 'canary' AND resource_id = $1`,
      [canary.id],
    );
    expect(rows[0].count).toBe(2);
    expect(a.jobs.schedules.names()).toContain(`canary:${canary.id}`);
    expect(b.jobs.schedules.names()).toContain(`canary:${canary.id}`);
  });
});
