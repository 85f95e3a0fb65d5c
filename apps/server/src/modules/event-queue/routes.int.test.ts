import {
  eventQueueActionResponseSchema,
  eventQueueFailedResponseSchema,
  eventQueueSummaryResponseSchema,
} from '@opsdeck/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { registerErrorHandling } from '../../platform/http/errors.js';
import { createJobsService, enqueueEvent, type JobsService } from '../../platform/jobs/index.js';
import { waitFor } from '../../platform/jobs/test-fixtures/helpers.js';
import { authPlugin } from '../auth/index.js';
import {
  bearer,
  createTestPerson,
  createTestToken,
  testAuthConfig,
} from '../auth/test-fixtures/auth-test-app.js';
import { eventQueueRoutes } from './routes.js';

let db: TestDatabase;
let app: FastifyInstance;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  db = await createTestDatabase();
  app = Fastify({ logger: false });
  registerErrorHandling(app);
  await app.register(authPlugin, { pool: db.pool, config: testAuthConfig() });
  await app.register(eventQueueRoutes, { pool: db.pool });
  await app.ready();
  for (const role of ['admin', 'editor', 'viewer'] as const) {
    const person = await createTestPerson(db.pool, { roles: [role] });
    tokens[role] = await createTestToken(db.pool, person.id);
  }
}, 60_000);

afterAll(async () => {
  await app?.close();
  await db?.close();
});

beforeEach(async () => {
  await db.pool.query('TRUNCATE event_queue');
  await db.pool.query(`DELETE FROM properties WHERE name = 'settings.event_queue_status.disable'`);
});

/** Makes `count` events of `name` fail for good through a real worker with one attempt. */
async function failEvents(name: string, count: number, message: string): Promise<JobsService> {
  const jobs = createJobsService({
    pool: db.pool,
    logger: pino({ level: 'silent' }),
    events: { pollIntervalMs: 20, maxAttempts: 1 },
  });
  jobs.events.on(name, async () => {
    throw new Error(message);
  });
  await jobs.start();
  for (let index = 0; index < count; index += 1) await enqueueEvent(db.pool, name, { id: `r${index}` });
  await waitFor(
    async () =>
      (await db.pool.query(`SELECT 1 FROM event_queue WHERE name = $1 AND status = 'failed'`, [name]))
        .rowCount === count,
    { what: `${count} failed ${name} events` },
  );
  await jobs.stop({ graceMs: 100 });
  return jobs;
}

async function get(url: string, token = tokens.admin) {
  return app.inject({ method: 'GET', url, headers: bearer(token) });
}

async function post(url: string, payload: unknown, token = tokens.admin) {
  return app.inject({ method: 'POST', url, headers: bearer(token), payload: payload as object });
}

describe('event queue status', () => {
  it('summarises per name with pending, in flight, failed, oldest age, attempts and the last error', async () => {
    await failEvents('test.broken', 2, 'the peer said no');
    await db.pool.query(
      `INSERT INTO event_queue (name, created_at) VALUES ('test.waiting', now() - interval '90 seconds'), ('test.waiting', now())`,
    );
    await db.pool.query(
      `INSERT INTO event_queue (name, attempts, locked_by, available_at) VALUES ('test.waiting', 1, 'w1', now() + interval '30 seconds')`,
    );
    const response = await get('/api/event-queue/summary');
    expect(response.statusCode).toBe(200);
    const { names } = eventQueueSummaryResponseSchema.parse(response.json());
    const broken = names.find((row) => row.name === 'test.broken');
    const waiting = names.find((row) => row.name === 'test.waiting');
    expect(broken).toMatchObject({
      pending: 0,
      in_flight: 0,
      failed: 2,
      average_attempts: 1,
      last_error: 'the peer said no',
    });
    expect(broken?.last_failure).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(waiting).toMatchObject({ pending: 2, in_flight: 1, failed: 0, last_error: null });
    expect(waiting?.oldest_pending_age_seconds).toBeGreaterThanOrEqual(89);
    expect(names[0].name).toBe('test.broken');
  });

  it('lists failed events with their error; retry requeues them and a worker handles them; discard deletes', async () => {
    await failEvents('test.flaky', 3, 'timeout talking to the peer');
    await failEvents('test.other', 1, 'bad');
    const listed = eventQueueFailedResponseSchema.parse(
      (await get('/api/event-queue/failed?name=test.flaky&limit=2')).json(),
    );
    expect(listed.total).toBe(3);
    expect(listed.events).toHaveLength(2);
    expect(listed.events[0]).toMatchObject({
      name: 'test.flaky',
      error: 'timeout talking to the peer',
      attempts: 1,
    });

    const retried = await post('/api/event-queue/retry', { ids: [listed.events[0].id] });
    expect(eventQueueActionResponseSchema.parse(retried.json())).toEqual({ count: 1 });
    // A healthy consumer now handles the retried event (and deletes it).
    const handled: string[] = [];
    const jobs = createJobsService({
      pool: db.pool,
      logger: pino({ level: 'silent' }),
      events: { pollIntervalMs: 20 },
    });
    jobs.events.on('test.flaky', async (event) => void handled.push(event.id));
    await jobs.start();
    await waitFor(() => handled.length === 1, { what: 'the retried event to be handled' });
    await jobs.stop({ graceMs: 100 });
    expect(handled).toEqual([listed.events[0].id]);

    const discarded = await post('/api/event-queue/discard', { name: 'test.flaky' });
    expect(discarded.json()).toEqual({ count: 2 });
    const all = eventQueueFailedResponseSchema.parse((await get('/api/event-queue/failed')).json());
    expect(all.events.map((event) => event.name)).toEqual(['test.other']);
  });

  it('refuses bad input naming the field, writes by viewers, and everything when the feature is off', async () => {
    const empty = await post('/api/event-queue/retry', {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ field: 'ids' });
    const badId = await post('/api/event-queue/discard', { ids: ['nope'] });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().field).toMatch(/^ids/);
    expect((await get('/api/event-queue/failed?limit=0')).json()).toMatchObject({ field: 'limit' });

    expect((await get('/api/event-queue/summary', tokens.viewer)).statusCode).toBe(200);
    expect((await post('/api/event-queue/retry', { name: 'x' }, tokens.viewer)).statusCode).toBe(403);
    expect((await post('/api/event-queue/discard', { name: 'x' }, tokens.viewer)).statusCode).toBe(403);
    expect((await post('/api/event-queue/retry', { name: 'x' }, tokens.editor)).statusCode).toBe(200);
    expect((await get('/api/event-queue/summary', '')).statusCode).toBe(401);

    await db.pool.query(
      `INSERT INTO properties (name, value) VALUES ('settings.event_queue_status.disable', 'true')`,
    );
    expect((await get('/api/event-queue/summary')).statusCode).toBe(403);
    expect((await post('/api/event-queue/retry', { name: 'x' })).statusCode).toBe(403);
  });
});
