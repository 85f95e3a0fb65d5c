import { Registry } from 'prom-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../db/pool.js';
import { createPool } from '../db/pool.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { enqueueEvent, enqueueEvents, requeueFailedEvents } from './event-queue.js';
import { createJobsService, type JobsService, type JobsServiceOptions } from './jobs-service.js';
import { recordingLogger, resetJobTables, waitFor } from './test-fixtures/helpers.js';

type EventRow = {
  status: string;
  attempts: number;
  error: string | null;
  last_attempt: Date | null;
  available_at: Date;
  locked_by: string | null;
};

describe('event queue', () => {
  let db: TestDatabase;
  const services: JobsService[] = [];
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.close());
  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.stop({ graceMs: 100 })));
    for (const cleanup of cleanups.splice(0)) await cleanup();
    await resetJobTables(db.pool);
  });

  function service(overrides: Partial<JobsServiceOptions> = {}): JobsService {
    const jobs = createJobsService({
      pool: db.pool,
      logger: recordingLogger(),
      ...overrides,
      events: { pollIntervalMs: 50, ...overrides.events },
    });
    services.push(jobs);
    return jobs;
  }

  async function eventRow(id: string): Promise<EventRow | undefined> {
    const { rows } = await db.pool.query<EventRow>(
      'SELECT status, attempts, error, last_attempt, available_at, locked_by FROM event_queue WHERE id = $1',
      [id],
    );
    return rows[0];
  }

  it('retries a failing event with exponential backoff, then leaves it failed with its error', async () => {
    const logger = recordingLogger();
    const jobs = service({
      logger,
      events: { pollIntervalMs: 20, maxAttempts: 3, backoff: { baseMs: 300, maxMs: 10_000 } },
    });
    const attemptsAt: number[] = [];
    jobs.events.on('config.changed', async (event) => {
      attemptsAt.push(Date.now());
      throw new Error(`upstream refused attempt ${event.attempts}`);
    });
    await jobs.start();
    const id = await enqueueEvent(db.pool, 'config.changed', { configId: 'c1', password: 'hunter2' });

    const retrying = await waitFor(async () => {
      const row = await eventRow(id);
      return row?.attempts === 1 && row.locked_by === null ? row : undefined;
    });
    expect(retrying).toMatchObject({ status: 'pending', error: 'upstream refused attempt 1' });
    expect(retrying.available_at.getTime() - retrying.last_attempt!.getTime()).toBeGreaterThanOrEqual(300);

    const failed = await waitFor(async () => {
      const row = await eventRow(id);
      return row?.status === 'failed' ? row : undefined;
    });
    expect(failed).toMatchObject({ attempts: 3, error: 'upstream refused attempt 3', locked_by: null });
    expect(attemptsAt).toHaveLength(3);
    // Delays of base × 2^(attempt − 1): 300 ms, then 600 ms (the poll adds a little).
    expect(attemptsAt[1] - attemptsAt[0]).toBeGreaterThanOrEqual(290);
    expect(attemptsAt[2] - attemptsAt[1]).toBeGreaterThanOrEqual(590);

    // A failed event stays put; it is not retried again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(attemptsAt).toHaveLength(3);

    const summary = await db.pool.query('SELECT * FROM event_queue_summary');
    expect(summary.rows).toEqual([
      expect.objectContaining({
        name: 'config.changed',
        pending: 0,
        retrying: 0,
        failed: 1,
        average_attempts: 3,
        most_common_error: 'upstream refused attempt 3',
      }),
    ]);
    // Names and ids only: the properties (which may hold secrets) never reach a log line.
    expect(logger.entries.some((entry) => entry.text.includes(id))).toBe(true);
    expect(logger.entries.some((entry) => entry.text.includes('hunter2'))).toBe(false);

    expect(await requeueFailedEvents(db.pool, { name: 'config.changed' })).toBe(1);
    await waitFor(() => attemptsAt.length === 4, { what: 'the requeued event to run again' });
  });

  it('consumes a committed event once, and never one whose transaction rolled back', async () => {
    // A poll interval this long means only the NOTIFY at commit can wake the consumer in time.
    const jobs = service({ events: { pollIntervalMs: 60_000 } });
    const handled: string[] = [];
    jobs.events.on('incident.created', async (event) => {
      handled.push(String(event.properties.incidentId));
    });
    await jobs.start();
    await waitFor(
      async () =>
        (
          await db.pool.query(
            `SELECT 1 FROM pg_stat_activity
             WHERE datname = current_database() AND application_name = 'opsdeck-jobs-listener'
               AND query LIKE 'LISTEN%'`,
          )
        ).rowCount === 1,
      { what: 'the listener to connect' },
    );

    await expect(
      withTransaction(db.pool, async (client) => {
        await enqueueEvent(client, 'incident.created', { incidentId: 'rolled-back' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const id = await withTransaction(db.pool, (client) =>
      enqueueEvent(client, 'incident.created', { incidentId: 'i-1' }),
    );

    await waitFor(async () => (await eventRow(id)) === undefined, {
      timeoutMs: 3000,
      what: 'the event to be consumed and deleted',
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(handled).toEqual(['i-1']);
  });

  it('hands each of 1000 events to exactly one of two parallel consumers', async () => {
    await db.pool.query('CREATE TABLE handled (event_id uuid NOT NULL, worker text NOT NULL)');
    const secondPool = createPool(db.url, { max: 10 });
    cleanups.push(() => secondPool.end());
    const workers = [
      service({ events: { pollIntervalMs: 20, concurrency: 8 } }),
      service({ pool: secondPool, events: { pollIntervalMs: 20, concurrency: 8 } }),
    ];
    const ids = await enqueueEvents(
      db.pool,
      Array.from({ length: 1000 }, (_, index) => ({ name: 'check.result', properties: { index } })),
    );
    for (const worker of workers) {
      worker.events.on('check.*', async (event, { pool }) => {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
        await pool.query('INSERT INTO handled (event_id, worker) VALUES ($1, $2)', [
          event.id,
          worker.workerId,
        ]);
      });
    }
    await Promise.all(workers.map((worker) => worker.start()));

    await waitFor(
      async () =>
        (await db.pool.query<{ count: number }>('SELECT count(*)::integer AS count FROM event_queue')).rows[0]
          .count === 0,
      { timeoutMs: 30_000, what: 'the queue to drain' },
    );
    const { rows } = await db.pool.query<{ total: number; distinct_events: number; workers: number }>(
      `SELECT count(*)::integer AS total, count(DISTINCT event_id)::integer AS distinct_events,
              count(DISTINCT worker)::integer AS workers
       FROM handled WHERE event_id = ANY($1::uuid[])`,
      [ids],
    );
    expect(rows[0]).toEqual({ total: 1000, distinct_events: 1000, workers: 2 });
  });

  it('takes higher priority first and leaves events of other names and delayed events alone', async () => {
    const jobs = service({ events: { pollIntervalMs: 20, concurrency: 1 } });
    const order: string[] = [];
    await enqueueEvents(db.pool, [
      { name: 'job.run', properties: { label: 'low' } },
      { name: 'job.run', properties: { label: 'high' }, priority: 10 },
      { name: 'job.run', properties: { label: 'later' }, delayMs: 60_000, priority: 100 },
      { name: 'other.thing', properties: { label: 'other' } },
    ]);
    jobs.events.on('job.run', async (event) => {
      order.push(String(event.properties.label));
    });
    await jobs.start();
    await waitFor(() => order.length === 2, { what: 'two events' });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(order).toEqual(['high', 'low']);
    const left = await db.pool.query<{ name: string }>('SELECT name FROM event_queue ORDER BY name');
    expect(left.rows.map((row) => row.name)).toEqual(['job.run', 'other.thing']);
  });

  it('fails an event whose handler times out, and reports queue depth and durations as metrics', async () => {
    const registry = new Registry();
    const jobs = service({
      metrics: registry,
      events: { pollIntervalMs: 20, maxAttempts: 1 },
    });
    jobs.events.on('slow.event', () => new Promise<void>(() => undefined), { timeoutMs: 200 });
    jobs.events.on('quick.event', async () => undefined);
    const slowId = await enqueueEvent(db.pool, 'slow.event');
    await enqueueEvent(db.pool, 'quick.event');
    await enqueueEvent(db.pool, 'unhandled.event');
    await jobs.start();

    const failed = await waitFor(async () => {
      const row = await eventRow(slowId);
      return row?.status === 'failed' ? row : undefined;
    });
    expect(failed.error).toBe('handler timed out after 200 ms');

    const text = await registry.metrics();
    expect(text).toContain('opsdeck_event_queue_depth{name="slow.event",status="failed"} 1');
    expect(text).toContain('opsdeck_event_queue_depth{name="unhandled.event",status="pending"} 1');
    expect(text).toContain(
      'opsdeck_event_handling_duration_seconds_count{name="quick.event",outcome="success"} 1',
    );
    expect(text).toContain(
      'opsdeck_event_handling_duration_seconds_count{name="slow.event",outcome="failed"} 1',
    );
  });

  it('keeps a slow event to its worker past many leases, and gives it up when another worker took it', async () => {
    const workers = [0, 1].map(() =>
      service({ events: { pollIntervalMs: 20, leaseMs: 600, renewIntervalMs: 100 } }),
    );
    const handled: Array<{ worker: string; attempts: number }> = [];
    const aborted: string[] = [];
    for (const worker of workers) {
      worker.events.on('slow.export', async (event, { signal }) => {
        handled.push({ worker: worker.workerId, attempts: event.attempts });
        // Two seconds (more than three leases) unless aborted.
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, event.properties.hold === 'forever' ? 60_000 : 2000);
          signal.addEventListener('abort', () => {
            clearTimeout(timer);
            aborted.push(String((signal.reason as Error).message));
            reject(signal.reason);
          });
        });
      });
    }
    await Promise.all(workers.map((worker) => worker.start()));
    const slow = await enqueueEvent(db.pool, 'slow.export');
    await waitFor(async () => (await eventRow(slow)) === undefined, {
      what: 'the slow event to be handled and deleted',
    });
    expect(handled).toEqual([{ worker: expect.any(String), attempts: 1 }]);

    // As if the worker had been cut off past its lease and another one claimed the event.
    const usurped = await enqueueEvent(db.pool, 'slow.export', { hold: 'forever' });
    await waitFor(() => handled.length === 2, { what: 'the second event to start' });
    await db.pool.query("UPDATE event_queue SET locked_by = 'other-worker' WHERE id = $1", [usurped]);
    await waitFor(() => aborted.length === 1, { what: 'the handler to be aborted' });
    expect(aborted).toEqual(['the claim on this event lapsed before its handler finished']);
    // The other worker's claim stands: the aborted attempt wrote nothing.
    expect(await eventRow(usurped)).toMatchObject({ locked_by: 'other-worker', attempts: 1 });
  });

  it('validates what is enqueued', async () => {
    await expect(enqueueEvent(db.pool, '  ')).rejects.toThrow('non-empty name');
    await expect(enqueueEvent(db.pool, 'x', [] as unknown as Record<string, unknown>)).rejects.toThrow(
      'must be an object',
    );
  });
});
