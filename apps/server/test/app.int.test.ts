import { Writable } from 'node:stream';
import { aboutResponseSchema, probeResponseSchema } from '@opsdeck/contracts';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { createTokenForUser } from '../src/modules/auth/index.js';
import { loadConfig } from '../src/config.js';
import { createJobsService, type JobsService } from '../src/platform/jobs/index.js';
import { createPool } from '../src/platform/db/pool.js';
import { createLogger, loggerOptions } from '../src/platform/logger.js';
import { createSecretBox, keyFromSecret } from '../src/platform/secrets.js';
import { createTestDatabase, type TestDatabase } from './harness/db.js';
import { createPerson } from './harness/factories.js';

/** The composed application (buildApp) as `opsdeck serve` runs it, driven through HTTP. */
describe('the composed API', () => {
  let db: TestDatabase;
  let jobs: JobsService;
  let app: FastifyInstance;
  const tokens: Record<string, string> = {};
  const people: Record<string, string> = {};

  beforeAll(async () => {
    db = await createTestDatabase();
    const logger = createLogger('silent');
    jobs = createJobsService({ pool: db.pool, logger });
    await jobs.start();
    const config = loadConfig({ WEB_DIST_DIR: '/nonexistent', LOG_LEVEL: 'silent' });
    ({ app } = await buildApp({
      config,
      pool: db.pool,
      logger,
      secrets: createSecretBox(keyFromSecret('a-test-secret-key')),
      jobs,
    }));
    for (const role of ['responder', 'viewer']) {
      const person = await createPerson(db.pool, { name: `A ${role}`, roles: [role] });
      people[role] = person.id;
      tokens[role] = await createTokenForUser(db.pool, { email: person.email as string, name: role });
    }
  });
  afterAll(async () => {
    await app?.close();
    await jobs?.stop();
    await db?.close();
  });

  const call = (role: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      payload: payload === undefined ? undefined : JSON.stringify(payload),
      headers: {
        authorization: `Bearer ${tokens[role]}`,
        'content-type': 'application/json',
        prefer: 'return=representation',
      },
    });

  it('answers /api/version, /api/about, /api/canary/about, /healthz and /readyz as their contracts say', async () => {
    for (const url of ['/api/version', '/api/about', '/api/canary/about']) {
      const body: unknown = (await call('viewer', 'GET', url)).json();
      expect(aboutResponseSchema.strict().parse(body)).toEqual(body);
    }
    for (const url of ['/healthz', '/readyz']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(probeResponseSchema.strict().parse(response.json())).toEqual({ status: 'ok' });
    }
  });

  it('answers /api/canary/about without credentials, as /api/about', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/canary/about' });
    expect(response.statusCode).toBe(200);
    expect(aboutResponseSchema.strict().parse(response.json()).name).toBe('opsdeck');
  });

  it('refuses callers without credentials', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/db/incidents' });
    expect(response.statusCode).toBe(401);
  });

  it('lets a responder declare and update an incident, recording who did what', async () => {
    const created = await call('responder', 'POST', '/api/db/incidents', {
      title: 'Checkout is slow',
      severity: 'high',
      type: 'performance',
    });
    expect(created.statusCode).toBe(201);
    const [incident] = created.json() as {
      id: string;
      status: string;
      commander_id: string;
      created_by: string;
    }[];
    expect(incident).toMatchObject({
      status: 'open',
      created_by: people.responder,
      commander_id: people.responder,
    });

    const updated = await call('responder', 'PATCH', `/api/db/incidents?id=eq.${incident?.id}`, {
      status: 'investigating',
    });
    expect(updated.statusCode).toBe(200);
    const history = await call(
      'responder',
      'GET',
      `/api/db/incident_histories?incident_id=eq.${incident?.id}&type=eq.incident.status_updated&select=type,created_by`,
    );
    expect(history.json()).toEqual([{ type: 'incident.status_updated', created_by: people.responder }]);

    const badStatus = await call('responder', 'PATCH', `/api/db/incidents?id=eq.${incident?.id}`, {
      status: 'on-fire',
    });
    expect(badStatus.statusCode).toBe(400);
    const unchanged = await call('responder', 'GET', `/api/db/incidents?id=eq.${incident?.id}&select=status`);
    expect(unchanged.json()).toEqual([{ status: 'investigating' }]);
  });

  it('takes a bodiless JSON POST as no body and refuses malformed JSON with 400', async () => {
    const empty = await app.inject({
      method: 'POST',
      url: '/api/canary/api/summary',
      headers: { authorization: `Bearer ${tokens.viewer}`, 'content-type': 'application/json' },
    });
    expect(empty.statusCode).toBe(200);
    const broken = await app.inject({
      method: 'POST',
      url: '/api/canary/api/summary',
      payload: '{"start":',
      headers: { authorization: `Bearer ${tokens.viewer}`, 'content-type': 'application/json' },
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ error: 'The request body is not valid JSON', field: 'body' });
  });

  it('lets a viewer read but not write, and says who the caller is', async () => {
    const refused = await call('viewer', 'POST', '/api/db/incidents', {
      title: 'x',
      severity: 'low',
      type: 'cost',
    });
    expect(refused.statusCode).toBe(403);
    expect((await call('viewer', 'GET', '/api/db/incidents?select=title')).statusCode).toBe(200);
    const whoami = await call('viewer', 'GET', '/api/auth/whoami');
    expect(whoami.json()).toMatchObject({ payload: { user: { id: people.viewer }, roles: ['viewer'] } });
  });
});

describe('answers that say the server cannot serve', () => {
  it('leaves a log line for every 503, with the route and the request id', async () => {
    const db = await createTestDatabase();
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    // A pool of its own, so the test can take the database away from this app only.
    const pool = createPool(db.url, { max: 2 });
    const logger = pino(loggerOptions('warn'), sink);
    const { app, markShuttingDown } = await buildApp({
      config: loadConfig({ WEB_DIST_DIR: '/nonexistent', LOG_LEVEL: 'warn' }),
      pool,
      logger,
      secrets: createSecretBox(keyFromSecret('a-test-secret-key')),
      jobs: createJobsService({ pool, logger }),
    });
    try {
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      expect(lines.filter((line) => line.statusCode === 503)).toEqual([]);

      await pool.end();
      const unavailable = await app.inject({ method: 'GET', url: '/readyz' });
      expect(unavailable.json()).toEqual({ status: 'database unavailable' });
      markShuttingDown();
      const draining = await app.inject({ method: 'GET', url: '/readyz' });
      expect(draining.statusCode).toBe(503);

      const logged = lines.filter((line) => line.msg === 'answered 503');
      expect(logged).toEqual([
        expect.objectContaining({ level: 40, reqId: unavailable.headers['x-request-id'], route: '/readyz' }),
        expect.objectContaining({ level: 40, reqId: draining.headers['x-request-id'], route: '/readyz' }),
      ]);
    } finally {
      await app.close();
      await db.close();
    }
  });
});
