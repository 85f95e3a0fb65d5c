import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { createJobsService, type JobsService } from './jobs-service.js';
import { recordingLogger, resetJobTables, spawnWorkerProcess, waitFor } from './test-fixtures/helpers.js';

describe('schedules', () => {
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

  function service(): JobsService {
    const jobs = createJobsService({
      pool: db.pool,
      logger: recordingLogger(),
      schedules: { pollIntervalMs: 100 },
    });
    services.push(jobs);
    return jobs;
  }

  it('runs each tick exactly once across two worker processes', async () => {
    await db.pool.query('CREATE TABLE tick_runs (tick timestamptz NOT NULL, pid integer NOT NULL)');
    const env = { DATABASE_URL: db.url, RUN_FOR_MS: '5000' };
    const workers = [spawnWorkerProcess('ticks', env), spawnWorkerProcess('ticks', env)];
    await Promise.all(workers.map((worker) => worker.printed('stopped', 30_000)));
    expect(await Promise.all(workers.map((worker) => worker.exited))).toEqual([0, 0]);

    const { rows } = await db.pool.query<{ tick: Date; pid: number }>(
      'SELECT tick, pid FROM tick_runs ORDER BY tick',
    );
    const ticks = rows.map((row) => row.tick.getTime());
    expect(new Set(ticks).size).toBe(ticks.length);
    // Both processes were up for about 5 s; every second in between ran once, none was lost.
    expect(ticks.length).toBeGreaterThanOrEqual(4);
    expect(ticks.length).toBeLessThanOrEqual(7);
    for (let index = 1; index < ticks.length; index += 1) {
      expect(ticks[index] - ticks[index - 1]).toBe(1000);
    }
    const history = await db.pool.query<{ status: string; count: number }>(
      "SELECT status, count(*)::integer AS count FROM job_history WHERE name = 'tick-test' GROUP BY status",
    );
    expect(history.rows).toEqual([{ status: 'SUCCESS', count: ticks.length }]);
    const schedule = await db.pool.query(
      "SELECT locked_by, last_status FROM job_schedules WHERE name = 'tick-test'",
    );
    expect(schedule.rows).toEqual([{ locked_by: null, last_status: 'SUCCESS' }]);
  });

  it('keeps other schedules running while one handler hangs, and times the hung one out', async () => {
    const jobs = service();
    const fastRuns: Date[] = [];
    const hungStarts: number[] = [];
    await jobs.schedules.register({
      name: 'hung',
      schedule: '@every 1s',
      timeoutMs: 1500,
      handler: () => {
        hungStarts.push(Date.now());
        return new Promise<void>(() => undefined);
      },
    });
    await jobs.schedules.register({
      name: 'fast',
      schedule: '@every 1s',
      handler: async ({ scheduledAt }) => {
        fastRuns.push(scheduledAt);
      },
    });
    await jobs.start();

    await waitFor(() => fastRuns.length >= 3, { what: 'three runs of the fast schedule' });
    const timedOut = await waitFor(
      async () =>
        (
          await db.pool.query<{ status: string; details: { errors: string[] } }>(
            "SELECT status, details FROM job_history WHERE name = 'hung' AND status <> 'RUNNING'",
          )
        ).rows[0],
      { what: 'the hung run to time out' },
    );
    expect(timedOut).toEqual({ status: 'FAILED', details: { errors: ['hung timed out after 1500 ms'] } });
    // Its next tick (due a second after the first) starts only once the timeout released the
    // schedule: runs of one schedule never overlap.
    await waitFor(() => hungStarts.length === 2, { what: 'the hung schedule to run again' });
    expect(hungStarts[1] - hungStarts[0]).toBeGreaterThanOrEqual(1450);
  });

  it('keeps a run that outlasts many leases to its owner, and other replicas wait for it', async () => {
    await db.pool.query(
      'CREATE TABLE long_runs (worker text NOT NULL, started timestamptz NOT NULL, ended timestamptz)',
    );
    // Leases of 600 ms renewed every 100 ms; each run takes 2 s, so without renewal the other
    // replica would claim the schedule mid-run.
    const replicas = [0, 1].map(() =>
      createJobsService({
        pool: db.pool,
        logger: recordingLogger(),
        schedules: { pollIntervalMs: 50, leaseMs: 600, renewIntervalMs: 100 },
      }),
    );
    services.push(...replicas);
    for (const jobs of replicas) {
      await jobs.schedules.register({
        name: 'long',
        schedule: '@every 1s',
        handler: async () => {
          const { rows } = await db.pool.query<{ id: string }>(
            'INSERT INTO long_runs (worker, started) VALUES ($1, clock_timestamp()) RETURNING ctid::text AS id',
            [jobs.workerId],
          );
          await new Promise((resolve) => setTimeout(resolve, 2000));
          await db.pool.query('UPDATE long_runs SET ended = clock_timestamp() WHERE ctid::text = $1', [
            rows[0].id,
          ]);
        },
      });
    }
    await Promise.all(replicas.map((jobs) => jobs.start()));
    await waitFor(
      async () => (await db.pool.query('SELECT 1 FROM long_runs WHERE ended IS NOT NULL')).rowCount! >= 2,
      { timeoutMs: 20_000, what: 'two long runs to finish' },
    );
    const { rows } = await db.pool.query<{ started: Date; ended: Date | null }>(
      'SELECT started, ended FROM long_runs ORDER BY started',
    );
    for (let index = 1; index < rows.length; index += 1) {
      // Each run starts after the one before it ended: never two at once.
      expect(rows[index - 1].ended).not.toBeNull();
      expect(rows[index].started.getTime()).toBeGreaterThanOrEqual(rows[index - 1].ended!.getTime());
    }
    const history = await db.pool.query<{ status: string }>(
      "SELECT DISTINCT status FROM job_history WHERE name = 'long' AND status <> 'RUNNING'",
    );
    expect(history.rows).toEqual([{ status: 'SUCCESS' }]);
  });

  it('stops a run whose claim another process took, and leaves that claim alone', async () => {
    const logger = recordingLogger();
    const jobs = createJobsService({
      pool: db.pool,
      logger,
      schedules: { pollIntervalMs: 50, leaseMs: 600, renewIntervalMs: 100 },
    });
    services.push(jobs);
    let started = false;
    await jobs.schedules.register({
      name: 'usurped',
      schedule: '@every 1s',
      handler: ({ signal }) => {
        started = true;
        return new Promise<void>((_, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason)),
        );
      },
    });
    await jobs.start();
    await waitFor(() => started, { what: 'the run to start' });
    // As if this process had been cut off past its lease and another replica claimed the tick.
    await db.pool.query(
      "UPDATE job_schedules SET locked_by = 'other-replica', locked_until = now() + interval '1 minute' WHERE name = 'usurped'",
    );
    const failed = await waitFor(
      async () =>
        (
          await db.pool.query<{ status: string; details: { errors: string[] } }>(
            "SELECT status, details FROM job_history WHERE name = 'usurped' AND status <> 'RUNNING'",
          )
        ).rows[0],
      { what: 'the run to be stopped' },
    );
    expect(failed).toEqual({
      status: 'FAILED',
      details: { errors: ['the claim on this schedule lapsed before the run finished'] },
    });
    const schedule = await db.pool.query("SELECT locked_by FROM job_schedules WHERE name = 'usurped'");
    expect(schedule.rows).toEqual([{ locked_by: 'other-replica' }]);
    expect(
      logger.entries.some((entry) => entry.text.includes('the claim of a running schedule lapsed')),
    ).toBe(true);
  });

  it('advances cron schedules from the expression and re-reads a changed expression', async () => {
    const jobs = service();
    await jobs.schedules.register({ name: 'nightly', schedule: '@daily', handler: async () => undefined });
    await jobs.start();
    const daily = await db.pool.query<{ next_run_at: Date; schedule: string }>(
      "SELECT next_run_at, schedule FROM job_schedules WHERE name = 'nightly'",
    );
    const nextMidnight = new Date();
    nextMidnight.setUTCHours(24, 0, 0, 0);
    expect(daily.rows[0]).toEqual({ next_run_at: nextMidnight, schedule: '@daily' });

    await jobs.schedules.register({
      name: 'nightly',
      schedule: '*/1 * * * * *',
      handler: async () => undefined,
    });
    const changed = await db.pool.query<{ next_run_at: Date; schedule: string }>(
      "SELECT next_run_at, schedule FROM job_schedules WHERE name = 'nightly'",
    );
    expect(changed.rows[0].schedule).toBe('*/1 * * * * *');
    expect(changed.rows[0].next_run_at.getTime() - Date.now()).toBeLessThan(2000);
  });

  it('runs a schedule at once when triggered, and forgets an unregistered one', async () => {
    const jobs = service();
    let runs = 0;
    await jobs.schedules.register({
      name: 'weekly-report',
      schedule: '@weekly',
      handler: async () => {
        runs += 1;
      },
    });
    await jobs.start();
    expect(await jobs.schedules.triggerNow('weekly-report')).toBe(true);
    await waitFor(() => runs === 1, { what: 'the triggered run' });
    expect(await jobs.schedules.triggerNow('missing')).toBe(false);

    await jobs.schedules.unregister('weekly-report');
    expect(jobs.schedules.names()).toEqual([]);
    const rows = await db.pool.query("SELECT 1 FROM job_schedules WHERE name = 'weekly-report'");
    expect(rows.rowCount).toBe(0);
  });

  it('rejects invalid schedules when they are registered', async () => {
    const jobs = service();
    await expect(
      jobs.schedules.register({ name: 'bad', schedule: '@every 5 minutes', handler: async () => undefined }),
    ).rejects.toThrow('Invalid schedule "@every 5 minutes"');
    expect(jobs.schedules.names()).toEqual([]);
  });
});
