import { NIL_AGENT_ID } from '@opsdeck/contracts';
import { Registry } from 'prom-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { MAX_STORED_ERRORS } from './job-history.js';
import { createJobsService, type JobsService, type JobsServiceOptions } from './jobs-service.js';
import { recordingLogger, resetJobTables, waitFor } from './test-fixtures/helpers.js';

type HistoryRow = {
  name: string;
  agent_id: string;
  resource_id: string | null;
  resource_type: string | null;
  status: string;
  time_start: Date;
  time_end: Date | null;
  duration_millis: number | null;
  success_count: number;
  error_count: number;
  details: Record<string, unknown>;
  hostname: string | null;
};

describe('job history', () => {
  let db: TestDatabase;
  const services: JobsService[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.close());
  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.stop({ graceMs: 100 })));
    await resetJobTables(db.pool);
  });

  function service(overrides: Partial<JobsServiceOptions> = {}): JobsService {
    const jobs = createJobsService({
      pool: db.pool,
      logger: recordingLogger(),
      hostname: 'worker-a',
      schedules: { pollIntervalMs: 50 },
      ...overrides,
    });
    services.push(jobs);
    return jobs;
  }

  async function historyRow(id: string): Promise<HistoryRow> {
    const { rows } = await db.pool.query<HistoryRow>('SELECT * FROM job_history WHERE id = $1', [id]);
    return rows[0];
  }

  it('writes RUNNING at start and SUCCESS, WARNING or FAILED with counts and errors at the end', async () => {
    const jobs = service();
    const good = await jobs.startJob({ name: 'Scrape', resourceType: 'config_scraper', resourceId: 's-1' });
    expect(await historyRow(good.id)).toMatchObject({
      name: 'Scrape',
      status: 'RUNNING',
      agent_id: NIL_AGENT_ID,
      resource_type: 'config_scraper',
      resource_id: 's-1',
      hostname: 'worker-a',
      time_end: null,
      duration_millis: null,
    });
    good.incrementSuccess(3);
    good.setDetail('scrape_summary', { config_types: { 'Kubernetes::Pod': { added: 3 } } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await good.success()).toBe('SUCCESS');
    const goodRow = await historyRow(good.id);
    expect(goodRow).toMatchObject({
      status: 'SUCCESS',
      success_count: 3,
      error_count: 0,
      details: { scrape_summary: { config_types: { 'Kubernetes::Pod': { added: 3 } } } },
    });
    expect(goodRow.duration_millis).toBeGreaterThanOrEqual(20);
    expect(goodRow.time_end!.getTime()).toBeGreaterThanOrEqual(goodRow.time_start.getTime());

    const mixed = await jobs.startJob({ name: 'Scrape', resourceType: 'config_scraper', resourceId: 's-1' });
    mixed.incrementSuccess(2);
    mixed.addError(new Error('file /etc/app.yaml is not valid YAML'));
    expect(await mixed.success()).toBe('WARNING');
    expect(await historyRow(mixed.id)).toMatchObject({
      status: 'WARNING',
      success_count: 2,
      error_count: 1,
      details: { errors: ['file /etc/app.yaml is not valid YAML'] },
    });

    const bad = await jobs.startJob({ name: 'Canary', resourceType: 'canary', resourceId: 'c-9' });
    expect(await bad.failure(new Error('connection refused'))).toBe('FAILED');
    // The first ending wins; a later one changes nothing.
    expect(await bad.success()).toBe('FAILED');
    expect(await historyRow(bad.id)).toMatchObject({
      status: 'FAILED',
      success_count: 0,
      error_count: 1,
      details: { errors: ['connection refused'] },
    });

    const onlyErrors = await jobs.startJob({ name: 'Canary' });
    for (let index = 0; index < MAX_STORED_ERRORS + 5; index += 1)
      onlyErrors.addError(`check ${index} failed`);
    expect(await onlyErrors.success()).toBe('FAILED');
    const onlyErrorsRow = await historyRow(onlyErrors.id);
    expect(onlyErrorsRow.error_count).toBe(MAX_STORED_ERRORS + 5);
    expect(onlyErrorsRow.details.errors).toHaveLength(MAX_STORED_ERRORS);

    const names = await db.pool.query('SELECT name FROM job_history_names ORDER BY name');
    expect(names.rows).toEqual([{ name: 'Canary' }, { name: 'Scrape' }]);
  });

  it('with recordRunningAfterMs, writes a short run once, finished, and a long one RUNNING after the delay', async () => {
    // Every write to job_history, in order, to tell one insert from an insert and an update.
    await db.pool.query(`
      CREATE TABLE IF NOT EXISTS job_history_writes (op text, id uuid, status text);
      CREATE OR REPLACE FUNCTION log_job_history_write() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO job_history_writes VALUES (TG_OP, NEW.id, NEW.status); RETURN NEW; END $$;
      DROP TRIGGER IF EXISTS job_history_writes ON job_history;
      CREATE TRIGGER job_history_writes AFTER INSERT OR UPDATE ON job_history
        FOR EACH ROW EXECUTE FUNCTION log_job_history_write();`);
    try {
      const jobs = service();
      const writes = async (id: string) =>
        (await db.pool.query('SELECT op, status FROM job_history_writes WHERE id = $1', [id])).rows;

      const short = await jobs.startJob({
        name: 'Canary',
        resourceType: 'canary',
        recordRunningAfterMs: 500,
      });
      expect(await historyRow(short.id)).toBeUndefined();
      short.incrementSuccess(2);
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(await short.success()).toBe('SUCCESS');
      expect(await writes(short.id)).toEqual([{ op: 'INSERT', status: 'SUCCESS' }]);
      const shortRow = await historyRow(short.id);
      expect(shortRow).toMatchObject({
        name: 'Canary',
        status: 'SUCCESS',
        success_count: 2,
        hostname: 'worker-a',
      });
      expect(shortRow.duration_millis).toBeGreaterThanOrEqual(30);
      expect(short.durationMillis).toBe(shortRow.duration_millis);
      expect(shortRow.time_end!.getTime() - shortRow.time_start.getTime()).toBe(shortRow.duration_millis);

      const long = await jobs.startJob({ name: 'Canary', resourceType: 'canary', recordRunningAfterMs: 100 });
      const running = await waitFor(
        async () => {
          const row = await historyRow(long.id);
          return row?.status === 'RUNNING' ? row : undefined;
        },
        { what: 'the RUNNING row of the long run' },
      );
      expect(running.time_end).toBeNull();
      long.addError('boom');
      expect(await long.success()).toBe('FAILED');
      expect(await writes(long.id)).toEqual([
        { op: 'INSERT', status: 'RUNNING' },
        { op: 'UPDATE', status: 'FAILED' },
      ]);
      const longRow = await historyRow(long.id);
      // time_start is when the run started, not when its row was written.
      expect(longRow.duration_millis).toBeGreaterThanOrEqual(100);
      expect(longRow.details).toEqual({ errors: ['boom'] });
    } finally {
      await db.pool.query(`DROP TRIGGER IF EXISTS job_history_writes ON job_history;
        DROP TABLE IF EXISTS job_history_writes; DROP FUNCTION IF EXISTS log_job_history_write();`);
    }
  });

  it('writes one row per scheduled run: success, warning, failure and timeout', async () => {
    const registry = new Registry();
    const jobs = service({ metrics: registry });
    const schedule = { schedule: '@every 1s', timeoutMs: 1000 };
    await jobs.schedules.register({
      ...schedule,
      name: 'canary:ok',
      jobName: 'Canary',
      resource: { type: 'canary', id: 'ok' },
      handler: async ({ job }) => job.incrementSuccess(2),
    });
    await jobs.schedules.register({
      ...schedule,
      name: 'canary:partial',
      jobName: 'Canary',
      resource: { type: 'canary', id: 'partial' },
      handler: async ({ job }) => {
        job.incrementSuccess();
        job.addError('dns lookup failed');
      },
    });
    await jobs.schedules.register({
      ...schedule,
      name: 'topology:broken',
      jobName: 'Topology',
      resource: { type: 'topology', id: 'broken' },
      handler: async () => {
        throw new Error('lookup returned 500');
      },
    });
    await jobs.schedules.register({
      ...schedule,
      name: 'cleanup',
      handler: (context) =>
        new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve())),
    });
    await jobs.start();

    const finished = await waitFor(
      async () => {
        const { rows } = await db.pool.query<HistoryRow>(
          `SELECT DISTINCT ON (name, resource_id) * FROM job_history
           WHERE status <> 'RUNNING' ORDER BY name, resource_id, time_start`,
        );
        return rows.length === 4 ? rows : undefined;
      },
      { what: 'a finished run of each schedule' },
    );
    const summary = finished
      .sort((a, b) => `${a.name}/${a.resource_id}`.localeCompare(`${b.name}/${b.resource_id}`, 'en'))
      .map((row) => ({
        name: row.name,
        resource: row.resource_id,
        status: row.status,
        success_count: row.success_count,
        error_count: row.error_count,
        errors: row.details.errors,
      }));
    expect(summary).toEqual([
      {
        name: 'Canary',
        resource: 'ok',
        status: 'SUCCESS',
        success_count: 2,
        error_count: 0,
        errors: undefined,
      },
      {
        name: 'Canary',
        resource: 'partial',
        status: 'WARNING',
        success_count: 1,
        error_count: 1,
        errors: ['dns lookup failed'],
      },
      {
        name: 'cleanup',
        resource: null,
        status: 'FAILED',
        success_count: 0,
        error_count: 1,
        errors: ['cleanup timed out after 1000 ms'],
      },
      {
        name: 'Topology',
        resource: 'broken',
        status: 'FAILED',
        success_count: 0,
        error_count: 1,
        errors: ['lookup returned 500'],
      },
    ]);
    expect(finished.every((row) => row.agent_id === NIL_AGENT_ID && row.hostname === 'worker-a')).toBe(true);

    const text = await registry.metrics();
    expect(text).toMatch(/opsdeck_job_runs_total\{name="Canary",status="SUCCESS"\} [1-9]/);
    expect(text).toMatch(/opsdeck_job_runs_total\{name="Canary",status="WARNING"\} [1-9]/);
    expect(text).toMatch(/opsdeck_job_failures_total\{name="Topology"\} [1-9]/);
    expect(text).not.toMatch(/opsdeck_job_failures_total\{name="Canary"\}/);
  });

  it('marks RUNNING jobs of a process that stopped heartbeating as STOPPED', async () => {
    const dead = service({ hostname: 'worker-dead' });
    await dead.start();
    const orphan = await dead.startJob({ name: 'Scrape', resourceType: 'config_scraper', resourceId: 's-2' });
    const pushed = await db.pool.query<{ id: string }>(
      "INSERT INTO job_history (name, status) VALUES ('AgentPush', 'RUNNING') RETURNING id",
    );
    const alive = service({ hostname: 'worker-alive', heartbeatIntervalMs: 1000, staleWorkerAfterMs: 5000 });
    await alive.start();
    const aliveJob = await alive.startJob({ name: 'Scrape' });

    expect(await alive.markStaleRunningJobs()).toBe(0);
    // The dead process stops heartbeating (its row ages) without a clean shutdown.
    await db.pool.query("UPDATE job_workers SET heartbeat_at = now() - interval '10 minutes' WHERE id = $1", [
      dead.workerId,
    ]);
    expect(await alive.markStaleRunningJobs()).toBe(1);

    expect(await historyRow(orphan.id)).toMatchObject({
      status: 'STOPPED',
      details: { errors: ['The process running this job stopped before the job finished'] },
    });
    expect((await historyRow(aliveJob.id)).status).toBe('RUNNING');
    expect((await historyRow(pushed.rows[0].id)).status).toBe('RUNNING');
    const workers = await db.pool.query<{ id: string }>('SELECT id FROM job_workers');
    expect(workers.rows.map((row) => row.id)).toEqual([alive.workerId]);
  });
});
