import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { enqueueEvent } from './event-queue.js';
import { createJobsService, type JobsService, type JobsServiceOptions } from './jobs-service.js';
import {
  recordingLogger,
  resetJobTables,
  spawnWorkerProcess,
  type WorkerProcess,
  waitFor,
} from './test-fixtures/helpers.js';

describe('jobs service lifecycle', () => {
  let db: TestDatabase;
  const services: JobsService[] = [];
  const processes: WorkerProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.close());
  afterEach(async () => {
    for (const worker of processes.splice(0)) worker.child.kill('SIGKILL');
    await Promise.all(services.splice(0).map((service) => service.stop({ graceMs: 100 })));
    await resetJobTables(db.pool);
  });

  function service(overrides: Partial<JobsServiceOptions> = {}): JobsService {
    const jobs = createJobsService({
      pool: db.pool,
      logger: recordingLogger(),
      events: { pollIntervalMs: 20 },
      schedules: { pollIntervalMs: 50 },
      ...overrides,
    });
    services.push(jobs);
    return jobs;
  }

  it('stop() waits for running handlers to finish, and claims nothing new meanwhile', async () => {
    const jobs = service();
    let releaseHandlers!: () => void;
    const handlersMayFinish = new Promise<void>((resolve) => (releaseHandlers = resolve));
    const started: string[] = [];
    jobs.events.on('work.item', async (event) => {
      started.push(event.id);
      await handlersMayFinish;
    });
    await jobs.schedules.register({
      name: 'sync',
      schedule: '@every 1s',
      handler: async ({ job }) => {
        started.push('sync');
        await handlersMayFinish;
        job.incrementSuccess();
      },
    });
    await jobs.start();
    const first = await enqueueEvent(db.pool, 'work.item');
    await waitFor(() => started.includes(first) && started.includes('sync'), {
      what: 'both handlers to start',
    });

    let stopped = false;
    const stopping = jobs.stop({ graceMs: 10_000 }).then(() => (stopped = true));
    const second = await enqueueEvent(db.pool, 'work.item');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stopped).toBe(false);
    releaseHandlers();
    await stopping;

    expect([...started].sort()).toEqual([first, 'sync'].sort());
    const queue = await db.pool.query<{ id: string; attempts: number }>(
      'SELECT id, attempts FROM event_queue',
    );
    expect(queue.rows).toEqual([{ id: second, attempts: 0 }]);
    const history = await db.pool.query("SELECT status, success_count FROM job_history WHERE name = 'sync'");
    expect(history.rows).toEqual([{ status: 'SUCCESS', success_count: 1 }]);
    const workers = await db.pool.query('SELECT id FROM job_workers');
    expect(workers.rowCount).toBe(0);

    // A stopped service starts again and takes the event it left alone.
    await jobs.start();
    await waitFor(async () => (await db.pool.query('SELECT 1 FROM event_queue')).rowCount === 0, {
      what: 'the second event after a restart',
    });
    expect(started).toContain(second);
  });

  it('after the grace period, stops hung handlers and releases their claims at once', async () => {
    const jobs = service();
    const started: string[] = [];
    jobs.events.on('work.item', async (event) => {
      started.push(event.id);
      await new Promise<void>(() => undefined);
    });
    await jobs.schedules.register({
      name: 'stuck',
      schedule: '@every 1s',
      handler: async () => {
        started.push('stuck');
        await new Promise<void>(() => undefined);
      },
    });
    await jobs.start();
    const id = await enqueueEvent(db.pool, 'work.item');
    await waitFor(() => started.length === 2, { what: 'both handlers to start' });

    const before = Date.now();
    await jobs.stop({ graceMs: 200 });
    expect(Date.now() - before).toBeLessThan(2000);

    // The interrupted attempt is not counted and the event is visible again now.
    const event = await db.pool.query(
      'SELECT attempts, locked_by, available_at <= now() AS available FROM event_queue WHERE id = $1',
      [id],
    );
    expect(event.rows).toEqual([{ attempts: 0, locked_by: null, available: true }]);
    const history = await db.pool.query("SELECT status, details FROM job_history WHERE name = 'stuck'");
    expect(history.rows).toEqual([
      { status: 'STOPPED', details: { errors: ['The process stopped before the job finished'] } },
    ]);
    const schedule = await db.pool.query(
      "SELECT locked_by, last_status FROM job_schedules WHERE name = 'stuck'",
    );
    expect(schedule.rows).toEqual([{ locked_by: null, last_status: 'STOPPED' }]);
  });

  it('re-claims the work of a killed worker process once its lease lapses', async () => {
    await db.pool.query('CREATE TABLE hang_started (what text, attempts integer, pid integer)');
    const eventId = await enqueueEvent(db.pool, 'hang.event', { target: 'x' });
    const worker = spawnWorkerProcess('hang', { DATABASE_URL: db.url });
    processes.push(worker);
    await worker.printed('started');
    await waitFor(
      async () => (await db.pool.query('SELECT DISTINCT what FROM hang_started')).rowCount === 2,
      { what: 'the event and the schedule to start in the worker process' },
    );
    const claimed = await db.pool.query<{ available_at: Date; locked_by: string }>(
      'SELECT available_at, locked_by FROM event_queue WHERE id = $1',
      [eventId],
    );
    const leaseEnd = claimed.rows[0].available_at.getTime();
    const scheduleLock = await db.pool.query<{ locked_until: Date }>(
      "SELECT locked_until FROM job_schedules WHERE name = 'hang-schedule'",
    );
    worker.child.kill('SIGKILL');
    expect(await worker.exited).toBe('SIGKILL');

    const survivor = service({ heartbeatIntervalMs: 200, staleWorkerAfterMs: 1000 });
    const handledAt: Array<{ attempts: number; lastError: string | null; at: number }> = [];
    survivor.events.on('hang.event', async (event) => {
      handledAt.push({ attempts: event.attempts, lastError: event.lastError, at: Date.now() });
    });
    const scheduleRunsAt: number[] = [];
    await survivor.schedules.register({
      name: 'hang-schedule',
      schedule: '@every 1s',
      handler: async () => {
        scheduleRunsAt.push(Date.now());
      },
    });
    await survivor.start();

    await waitFor(() => handledAt.length === 1 && scheduleRunsAt.length > 0, {
      what: 'the survivor to take over the event and the schedule',
    });
    expect(handledAt[0].at).toBeGreaterThanOrEqual(leaseEnd - 50);
    expect(scheduleRunsAt[0]).toBeGreaterThanOrEqual(scheduleLock.rows[0].locked_until.getTime() - 50);
    expect(handledAt[0]).toMatchObject({
      attempts: 2,
      lastError: `the claim of ${claimed.rows[0].locked_by} expired before it finished`,
    });
    await waitFor(async () => (await db.pool.query('SELECT 1 FROM event_queue')).rowCount === 0, {
      what: 'the event to be deleted',
    });

    // The dead process's RUNNING job is closed by the survivor's sweep once its heartbeat is stale.
    const orphan = await waitFor(
      async () =>
        (
          await db.pool.query<{ status: string; details: { errors: string[] } }>(
            "SELECT status, details FROM job_history WHERE name = 'hang-schedule' AND worker_id = $1",
            [claimed.rows[0].locked_by],
          )
        ).rows.find((row) => row.status !== 'RUNNING'),
      { what: 'the orphaned job to be marked' },
    );
    expect(orphan).toEqual({
      status: 'STOPPED',
      details: { errors: ['The process running this job stopped before the job finished'] },
    });
  });
  it('a consumer with a concurrency of its own runs that many at once in its own lane, without taking the shared slots', async () => {
    const jobs = service({ events: { pollIntervalMs: 20, concurrency: 2 } });
    let releaseLong!: () => void;
    const longMayFinish = new Promise<void>((resolve) => (releaseLong = resolve));
    let running = 0;
    let most = 0;
    jobs.events.on(
      'long.run',
      async () => {
        running += 1;
        most = Math.max(most, running);
        await longMayFinish;
        running -= 1;
      },
      { concurrency: 8 },
    );
    const quick: string[] = [];
    jobs.events.on('quick.event', async (event) => {
      quick.push(event.id);
    });
    expect(() => jobs.events.on('long.*', async () => undefined)).toThrow(
      'Events "long.run" already have a consumer of their own',
    );
    expect(() => jobs.events.on('long.run', async () => undefined, { concurrency: 2 })).toThrow(
      'Events "long.run" already have a consumer',
    );
    expect(() => jobs.events.on('other.*', async () => undefined, { concurrency: 2 })).toThrow(
      'a consumer with its own concurrency takes an exact event name',
    );
    await jobs.start();
    for (let index = 0; index < 12; index++) await enqueueEvent(db.pool, 'long.run');
    await waitFor(() => running === 8, { what: 'eight long handlers at once (more than the shared two)' });
    // The shared slots are free: other events are handled while the lane is full.
    const quickId = await enqueueEvent(db.pool, 'quick.event');
    await waitFor(() => quick.includes(quickId), { what: 'the quick event beside the full lane' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(most).toBe(8);
    releaseLong();
    await waitFor(async () => (await db.pool.query('SELECT 1 FROM event_queue')).rowCount === 0, {
      what: 'every long event to finish',
    });
    expect(most).toBe(8);
  });
});
