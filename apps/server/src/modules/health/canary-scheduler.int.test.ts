import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanary } from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { createJobsService, type JobsService } from '../../platform/jobs/index.js';
import { runCanaryChecks } from './canary-runner.js';
import { loadCanary, syncCanaryChecks, type CanaryRow } from './canary-sync.js';
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

async function canaryRow(
  spec: Record<string, unknown>,
  overrides: Record<string, unknown> = {},
): Promise<CanaryRow> {
  const created = await createCanary(db.pool, { spec, ...overrides });
  const row = await loadCanary(db.pool, created.id);
  if (!row) throw new Error('canary not stored');
  return row;
}

async function checkIds(canaryId: string): Promise<Record<string, { id: string; deleted: boolean }>> {
  const { rows } = await db.pool.query<{ id: string; name: string; deleted_at: Date | null }>(
    'SELECT id, name, deleted_at FROM checks WHERE canary_id = $1',
    [canaryId],
  );
  return Object.fromEntries(rows.map((row) => [row.name, { id: row.id, deleted: row.deleted_at !== null }]));
}

describe('canary sync', () => {
  it('upserts one check per entry, soft-deletes removed ones and undeletes re-added ones with their id', async () => {
    const spec = {
      http: [
        { name: 'home', url: `${target.baseUrl}/ok`, description: 'Home page', labels: { tier: 'web' } },
        { name: 'api', url: `${target.baseUrl}/fail` },
      ],
      tcp: [{ name: 'port', endpoint: '127.0.0.1:1' }],
    };
    const canary = await canaryRow(spec, { labels: { team: 'ops' } });
    const first = await syncCanaryChecks(db.pool, canary);
    // jsonb keeps object keys in its own order, so only the set is compared.
    expect(first.map((check) => `${check.entry.type}/${check.entry.name}`).sort()).toEqual([
      'http/api',
      'http/home',
      'tcp/port',
    ]);
    const { rows } = await db.pool.query(
      "SELECT type, description, endpoint, namespace, labels FROM checks WHERE canary_id = $1 AND name = 'home'",
      [canary.id],
    );
    expect(rows[0]).toEqual({
      type: 'http',
      description: 'Home page',
      endpoint: `${target.baseUrl}/ok`,
      namespace: canary.namespace,
      labels: { team: 'ops', tier: 'web' },
    });
    const before = await checkIds(canary.id);

    await syncCanaryChecks(db.pool, { ...canary, spec: { http: [spec.http[0]] } });
    const removed = await checkIds(canary.id);
    expect(removed.home).toEqual({ id: before.home.id, deleted: false });
    expect(removed.api.deleted).toBe(true);
    expect(removed.port.deleted).toBe(true);

    await syncCanaryChecks(db.pool, canary);
    expect(await checkIds(canary.id)).toEqual(before);

    await syncCanaryChecks(db.pool, { ...canary, deleted_at: new Date() });
    const afterDelete = await checkIds(canary.id);
    expect(Object.values(afterDelete).every((check) => check.deleted)).toBe(true);
  });
});

describe('running a canary', () => {
  it('lets a hung target time out without holding the other check', async () => {
    const canary = await canaryRow({
      http: [
        { name: 'hung', url: `${target.baseUrl}/hang` },
        { name: 'quick', url: `${target.baseUrl}/ok` },
      ],
    });
    const started = Date.now();
    const running = runCanaryChecks(canary, { pool: db.pool, logger, checkTimeoutMs: 1500, concurrency: 2 });
    const quickRecordedAfter = await waitFor(
      async () => {
        const { rows } = await db.pool.query(
          `SELECT s.status FROM check_statuses s JOIN checks c ON c.id = s.check_id
           WHERE c.canary_id = $1 AND c.name = 'quick'`,
          [canary.id],
        );
        return rows.length > 0 ? Date.now() - started : undefined;
      },
      { what: 'the quick check to be recorded' },
    );
    expect(quickRecordedAfter).toBeLessThan(1200);
    const summary = await running;
    expect(summary.total).toBe(2);
    expect(summary.success).toBe(1);
    expect(summary.failed).toBe(1);
    expect(summary.errors).toEqual(['hung: check timed out after 1500ms']);
    const { rows } = await db.pool.query<{ name: string; status: string; error: string | null }>(
      `SELECT c.name, c.status, s.error FROM checks c JOIN check_statuses s ON s.check_id = c.id
       WHERE c.canary_id = $1 ORDER BY c.name`,
      [canary.id],
    );
    expect(rows).toEqual([
      { name: 'hung', status: 'unhealthy', error: 'check timed out after 1500ms' },
      { name: 'quick', status: 'healthy', error: null },
    ]);
  });

  it('queues exactly one event per status change, in the transaction of the status row', async () => {
    target.toggle.status = 200;
    const canary = await canaryRow({ http: [{ name: 'flip', url: `${target.baseUrl}/toggle` }] });
    const events = async () => {
      const { rows } = await db.pool.query<{ name: string; properties: Record<string, unknown> }>(
        `SELECT name, properties FROM event_queue
         WHERE name LIKE 'check.%' AND properties->>'canary_id' = $1 ORDER BY created_at`,
        [canary.id],
      );
      return rows;
    };
    const run = () => runCanaryChecks(canary, { pool: db.pool, logger, checkTimeoutMs: 2000 });

    await run();
    await run();
    // The first result has no previous status to change from.
    expect(await events()).toEqual([]);

    target.toggle.status = 503;
    await run();
    await run();
    const failed = await events();
    expect(failed.map((event) => event.name)).toEqual(['check.failed']);
    const ids = await checkIds(canary.id);
    expect(failed[0].properties).toMatchObject({
      id: ids.flip.id,
      canary_id: canary.id,
      status: 'unhealthy',
    });

    target.toggle.status = 200;
    await run();
    expect((await events()).map((event) => event.name)).toEqual(['check.failed', 'check.passed']);

    const { rows } = await db.pool.query<{
      last_transition_time: Date;
      last_runtime: Date;
      statuses: number;
    }>(
      `SELECT c.last_transition_time, c.last_runtime,
              (SELECT count(*)::integer FROM check_statuses WHERE check_id = c.id) AS statuses
       FROM checks c WHERE c.id = $1`,
      [ids.flip.id],
    );
    expect(rows[0].statuses).toBe(5);
    // The last run changed the status, so it is also the transition.
    expect(rows[0].last_transition_time.getTime()).toBe(rows[0].last_runtime.getTime());
  });
});

describe('health workers on the jobs platform', () => {
  let jobs: JobsService;
  let workers: HealthWorkers | undefined;

  beforeAll(async () => {
    jobs = createJobsService({
      pool: db.pool,
      logger,
      schedules: { pollIntervalMs: 100 },
    });
    await jobs.start();
  });

  afterAll(async () => {
    await workers?.stop();
    await jobs?.stop({ graceMs: 2000 });
  });

  it('runs a canary every second, records statuses and job history, and follows spec changes', async () => {
    const canary = await canaryRow({
      schedule: '@every 1s',
      http: [
        { name: 'passing', url: `${target.baseUrl}/ok`, responseCodes: [200] },
        { name: 'failing', url: `${target.baseUrl}/fail`, responseCodes: [200] },
      ],
    });
    const paused = await canaryRow({ replicas: 0, http: [{ name: 'never', url: `${target.baseUrl}/ok` }] });
    // Deleted while no process watched: its checks are still live until the workers start.
    const gone = await canaryRow({ http: [{ name: 'gone', url: `${target.baseUrl}/ok` }] });
    await syncCanaryChecks(db.pool, gone);
    await db.pool.query('UPDATE canaries SET deleted_at = now() WHERE id = $1', [gone.id]);
    workers = await startHealthWorkers({ pool: db.pool, jobs, logger, pollIntervalMs: 200 });
    expect((await checkIds(gone.id)).gone.deleted).toBe(true);
    expect(jobs.schedules.names()).not.toContain(`canary:${gone.id}`);
    const name = `canary:${canary.id}`;
    expect(jobs.schedules.names()).toContain(name);
    expect(jobs.schedules.names()).not.toContain(`canary:${paused.id}`);
    expect(jobs.schedules.names()).toEqual(
      expect.arrayContaining(['check_statuses_rollup', 'check_statuses_retention']),
    );

    const counts = async () => {
      const { rows } = await db.pool.query<{ name: string; passed: number; failed: number }>(
        `SELECT c.name, count(*) FILTER (WHERE s.status)::integer AS passed,
                count(*) FILTER (WHERE NOT s.status)::integer AS failed
         FROM checks c JOIN check_statuses s ON s.check_id = c.id
         WHERE c.canary_id = $1 GROUP BY c.name ORDER BY c.name`,
        [canary.id],
      );
      return rows;
    };
    await waitFor(
      async () => {
        const rows = await counts();
        return rows.length === 2 && rows.every((row) => row.passed + row.failed >= 2);
      },
      { timeoutMs: 15_000, what: 'two runs of both checks' },
    );
    const rows = await counts();
    expect(rows.find((row) => row.name === 'passing')?.failed).toBe(0);
    expect(rows.find((row) => row.name === 'failing')?.passed).toBe(0);

    const history = await db.pool.query<{
      name: string;
      status: string;
      success_count: number;
      error_count: number;
      resource_id: string;
    }>(
      `SELECT name, status, success_count, error_count, resource_id FROM job_history
       WHERE resource_type = 'canary' AND resource_id = $1 AND status <> 'RUNNING'`,
      [canary.id],
    );
    expect(history.rows.length).toBeGreaterThanOrEqual(2);
    for (const row of history.rows) {
      expect(row).toMatchObject({ name: 'Canary', status: 'WARNING', success_count: 1, error_count: 1 });
    }
    const next = await db.pool.query<{ next_runtime: Date | null; last_runtime: Date }>(
      "SELECT next_runtime, last_runtime FROM checks WHERE canary_id = $1 AND name = 'passing'",
      [canary.id],
    );
    expect(next.rows[0].next_runtime?.getTime()).toBeGreaterThan(next.rows[0].last_runtime.getTime());

    // A changed schedule is re-registered; a deleted canary is unregistered and its checks go.
    await db.pool.query(
      `UPDATE canaries SET spec = jsonb_set(spec, '{schedule}', '"@every 1h"') WHERE id = $1`,
      [canary.id],
    );
    await workers.refresh();
    const schedule = await db.pool.query('SELECT schedule FROM job_schedules WHERE name = $1', [name]);
    expect(schedule.rows).toEqual([{ schedule: '@every 1h' }]);

    await db.pool.query('UPDATE canaries SET deleted_at = now() WHERE id = $1', [canary.id]);
    await workers.refresh();
    expect(jobs.schedules.names()).not.toContain(name);
    const live = await db.pool.query('SELECT id FROM checks WHERE canary_id = $1 AND deleted_at IS NULL', [
      canary.id,
    ]);
    expect(live.rows).toEqual([]);
  });
});
