import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../db/pool.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { enqueueEvent } from './event-queue.js';
import { listEventSubscriptions, setEventSubscriptions } from './event-queue-subscriptions.js';
import { createJobsService, type JobsService } from './jobs-service.js';
import { recordingLogger, resetJobTables, waitFor } from './test-fixtures/helpers.js';
import type { QueuedEvent } from './event-queue.js';

describe('event queue subscriptions (fan-out)', () => {
  let db: TestDatabase;
  const services: JobsService[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.close());
  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.stop({ graceMs: 100 })));
    await db.pool.query('DELETE FROM event_queue_subscriptions');
    await resetJobTables(db.pool);
  });

  async function names(): Promise<string[]> {
    const { rows } = await db.pool.query<{ name: string }>('SELECT name FROM event_queue ORDER BY name');
    return rows.map((row) => row.name);
  }

  it('copies one event to every subscriber, once per owner, with the original kept for its own consumer', async () => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    await setEventSubscriptions(db.pool, 'alpha', a, ['check.failed', 'config.updated']);
    await setEventSubscriptions(db.pool, 'alpha', b, ['check.failed']);
    await setEventSubscriptions(db.pool, 'beta.copy', c, ['check.failed']);
    const jobs = createJobsService({
      pool: db.pool,
      logger: recordingLogger(),
      events: { pollIntervalMs: 20 },
    });
    services.push(jobs);
    const seen: Record<string, QueuedEvent[]> = { original: [], alpha: [], beta: [] };
    jobs.events.on('check.failed', async (event) => void seen.original.push(event));
    jobs.events.on('alpha.*', async (event) => void seen.alpha.push(event));
    jobs.events.on('beta.copy.*', async (event) => void seen.beta.push(event));
    await jobs.start();

    const id = await enqueueEvent(db.pool, 'check.failed', { id: 'c1' });
    await enqueueEvent(db.pool, 'check.passed', { id: 'c1' });
    await waitFor(() => seen.original.length === 1 && seen.alpha.length === 2 && seen.beta.length === 1, {
      what: 'the original and its three copies',
    });
    expect(seen.alpha.map((event) => event.name)).toEqual(['alpha.check.failed', 'alpha.check.failed']);
    expect(seen.alpha.map((event) => event.properties.subscription_owner).sort()).toEqual([a, b].sort());
    expect(seen.beta[0]).toMatchObject({
      name: 'beta.copy.check.failed',
      properties: { id: 'c1', event_id: id, event_name: 'check.failed', subscription_owner: c },
    });
    // Handled rows are deleted just after their handler returns; check.passed has no subscriber
    // and no consumer here: it stays, not copied.
    await waitFor(async () => (await names()).join() === 'check.passed', { what: 'only check.passed left' });
    expect(await names()).toEqual(['check.passed']);
  });

  it('copies in the transaction of the event: a rolled-back event has no copies', async () => {
    await setEventSubscriptions(db.pool, 'alpha', randomUUID(), ['config.updated']);
    await expect(
      withTransaction(db.pool, async (client) => {
        await enqueueEvent(client, 'config.updated', { id: 'x' });
        expect((await client.query('SELECT name FROM event_queue')).rowCount).toBe(2);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await names()).toEqual([]);
  });

  it("replaces an owner's subscriptions, refuses loops and never copies a copy", async () => {
    const owner = randomUUID();
    await setEventSubscriptions(db.pool, 'alpha', owner, ['a.one', 'a.two']);
    await setEventSubscriptions(db.pool, 'alpha', owner, ['a.two', 'a.three']);
    expect((await listEventSubscriptions(db.pool, 'alpha')).map((s) => s.eventName)).toEqual([
      'a.three',
      'a.two',
    ]);
    await expect(setEventSubscriptions(db.pool, 'alpha', owner, ['alpha.a.two'])).rejects.toThrow(
      /cannot be subscribed/,
    );
    await expect(setEventSubscriptions(db.pool, 'Bad Name', owner, ['a.two'])).rejects.toThrow(/lowercase/);
    // Another subscriber listening to alpha's copy name still gets nothing: copies are final.
    await setEventSubscriptions(db.pool, 'gamma', owner, ['alpha.a.two']);
    await enqueueEvent(db.pool, 'a.two', {});
    expect(await names()).toEqual(['a.two', 'alpha.a.two']);
    await setEventSubscriptions(db.pool, 'alpha', owner, []);
    expect(await listEventSubscriptions(db.pool, 'alpha')).toEqual([]);
  });
});
