import { canaryDetailSchema } from '@opsdeck/contracts';
import type { FastifyInstance } from 'fastify';
import Fastify from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { registerErrorHandling } from '../../platform/http/errors.js';
import { authPlugin } from '../auth/index.js';
import {
  bearer,
  createTestPerson,
  createTestToken,
  testAuthConfig,
} from '../auth/test-fixtures/auth-test-app.js';
import { canaryEditorRoutes } from './canary-routes.js';

let db: TestDatabase;
let app: FastifyInstance;
let admin: string;
let viewer: string;

beforeAll(async () => {
  db = await createTestDatabase();
  app = Fastify({ logger: false });
  registerErrorHandling(app);
  await app.register(authPlugin, { pool: db.pool, config: testAuthConfig() });
  await app.register(canaryEditorRoutes, { pool: db.pool, logger: pino({ level: 'silent' }) });
  await app.ready();
  admin = await createTestToken(db.pool, (await createTestPerson(db.pool, { roles: ['admin'] })).id);
  viewer = await createTestToken(db.pool, (await createTestPerson(db.pool, { roles: ['viewer'] })).id);
});

afterAll(async () => {
  await app?.close();
  await db?.close();
});

const SPEC = { schedule: '@every 1m', http: [{ name: 'self', url: 'http://127.0.0.1:1/healthz' }] };

function send(method: 'POST' | 'PUT' | 'DELETE' | 'GET', url: string, body?: unknown, token = admin) {
  return app.inject({
    method,
    url,
    headers: bearer(token),
    ...(body === undefined ? {} : { payload: body as object }),
  });
}

async function liveChecks(canaryId: string): Promise<string[]> {
  const { rows } = await db.pool.query<{ name: string }>(
    'SELECT name FROM checks WHERE canary_id = $1 AND deleted_at IS NULL ORDER BY name',
    [canaryId],
  );
  return rows.map((row) => row.name);
}

describe('canary editor routes', () => {
  it('creates a canary with source UI and its checks, then reads it', async () => {
    const created = await send('POST', '/api/canaries', {
      name: 'web',
      namespace: 'prod',
      labels: { team: 'a' },
      spec: SPEC,
    });
    expect(created.statusCode, created.body).toBe(201);
    const canary = created.json<{
      id: string;
      source: string;
      namespace: string;
      labels: object;
      spec: object;
    }>();
    expect(canary).toMatchObject({
      name: 'web',
      namespace: 'prod',
      source: 'UI',
      labels: { team: 'a' },
      spec: SPEC,
    });
    expect(await liveChecks(canary.id)).toEqual(['self']);
    const read = await send('GET', `/api/canaries/${canary.id}`, undefined, viewer);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id: canary.id, name: 'web' });
    // The answers are the contract's, key for key (parsing drops keys the schema does not name).
    expect(canaryDetailSchema.parse(created.json())).toEqual(created.json());
    expect(canaryDetailSchema.parse(read.json())).toEqual(read.json());
    const { rows } = await db.pool.query('SELECT schedule FROM canaries WHERE id = $1', [canary.id]);
    expect(rows[0].schedule).toBe('@every 1m');
  });

  it('defaults the namespace and refuses a second canary with the same name (409)', async () => {
    const first = await send('POST', '/api/canaries', { name: 'dup', spec: {} });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ namespace: 'default' });
    const second = await send('POST', '/api/canaries', { name: 'dup', namespace: 'default', spec: {} });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({
      error: 'A canary named "dup" already exists in namespace "default"',
      field: 'metadata.name',
    });
  });

  it('refuses an invalid spec with the path of the bad field', async () => {
    const bad = await send('POST', '/api/canaries', {
      name: 'bad',
      spec: { schedule: '@every 1m', severity: 'huge' },
    });
    expect(bad.statusCode).toBe(400);
    const body = bad.json<{ error: string; field: string }>();
    expect(body.field).toBe('spec.severity');
    expect(body.error).toMatch(/^spec\.severity: /);
    const noName = await send('POST', '/api/canaries', { spec: {} });
    expect(noName.statusCode).toBe(400);
    expect(noName.json()).toMatchObject({ field: 'metadata.name' });
    // The body's envelope is the route schema's: 400 {error, field} naming the body's field.
    const labels = await send('POST', '/api/canaries', { name: 'x', labels: ['a'], spec: {} });
    expect(labels.statusCode).toBe(400);
    expect(labels.json()).toEqual({ field: 'labels', error: 'Labels must be a JSON object' });
    const labelValue = await send('POST', '/api/canaries', { name: 'x', labels: { a: 1 }, spec: {} });
    expect(labelValue.json()).toEqual({
      field: 'labels.a',
      error: 'labels.a: Invalid input: expected string, received number',
    });
    const spec = await send('POST', '/api/canaries', { name: 'x', spec: 'http: []' });
    expect(spec.json()).toEqual({ field: 'spec', error: 'Spec must be a YAML object' });
    const name = await send('POST', '/api/canaries', { name: 7, spec: {} });
    expect(name.json()).toEqual({
      field: 'name',
      error: 'name: Invalid input: expected string, received number',
    });
    const notAnObject = await send('POST', '/api/canaries', ['x']);
    expect(notAnObject.statusCode).toBe(400);
    const { rows } = await db.pool.query(`SELECT 1 FROM canaries WHERE name IN ('bad', 'x')`);
    expect(rows).toHaveLength(0);
  });

  it('updates the spec and labels, syncs checks, and keeps namespace and name fixed', async () => {
    const created = (await send('POST', '/api/canaries', { name: 'upd', spec: SPEC })).json<{ id: string }>();
    const updated = await send('PUT', `/api/canaries/${created.id}`, {
      labels: { env: 'x' },
      spec: { schedule: '@every 2m', http: [{ name: 'other', url: 'http://127.0.0.1:1/' }] },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ labels: { env: 'x' }, spec: { schedule: '@every 2m' } });
    expect(canaryDetailSchema.parse(updated.json())).toEqual(updated.json());
    expect(await liveChecks(created.id)).toEqual(['other']);

    const moved = await send('PUT', `/api/canaries/${created.id}`, { namespace: 'elsewhere', spec: SPEC });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toMatchObject({ field: 'metadata.namespace' });
    const renamed = await send('PUT', `/api/canaries/${created.id}`, { name: 'new-name', spec: SPEC });
    expect(renamed.statusCode).toBe(400);
    const invalid = await send('PUT', `/api/canaries/${created.id}`, {
      spec: { schedule: 'not a schedule' },
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ field: 'spec.schedule' });
    const stored = await db.pool.query('SELECT spec FROM canaries WHERE id = $1', [created.id]);
    expect(stored.rows[0].spec.schedule).toBe('@every 2m');
  });

  it('soft-deletes a canary and its checks', async () => {
    const created = (await send('POST', '/api/canaries', { name: 'gone', spec: SPEC })).json<{
      id: string;
    }>();
    const deleted = await send('DELETE', `/api/canaries/${created.id}`);
    expect(deleted.statusCode).toBe(204);
    const { rows } = await db.pool.query('SELECT deleted_at FROM canaries WHERE id = $1', [created.id]);
    expect(rows[0].deleted_at).not.toBeNull();
    expect(await liveChecks(created.id)).toEqual([]);
    expect((await send('GET', `/api/canaries/${created.id}`)).statusCode).toBe(404);
    expect((await send('DELETE', `/api/canaries/${created.id}`)).statusCode).toBe(404);
    // The name is free again.
    expect((await send('POST', '/api/canaries', { name: 'gone', spec: {} })).statusCode).toBe(201);
  });

  it('refuses changes to canaries owned by a file, and writes without write permission', async () => {
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO canaries (name, namespace, spec, source) VALUES ('filed', 'default', '{}', 'resources/c.yaml') RETURNING id`,
    );
    const update = await send('PUT', `/api/canaries/${rows[0].id}`, { spec: {} });
    expect(update.statusCode).toBe(409);
    expect(update.json().error).toBe('This canary is managed by "resources/c.yaml"; change it there');
    expect((await send('DELETE', `/api/canaries/${rows[0].id}`)).statusCode).toBe(409);
    expect((await send('POST', '/api/canaries', { name: 'v', spec: {} }, viewer)).statusCode).toBe(403);
    expect((await send('DELETE', `/api/canaries/${rows[0].id}`, undefined, viewer)).statusCode).toBe(403);
    const malformed = await send('GET', '/api/canaries/not-a-uuid');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ error: 'id must be a canary id (a UUID)', field: 'id' });
    expect((await send('PUT', '/api/canaries/not-a-uuid', { spec: {} })).json()).toMatchObject({
      field: 'id',
    });
    // Permission is checked before the input.
    expect((await send('DELETE', '/api/canaries/not-a-uuid', undefined, viewer)).statusCode).toBe(403);
  });
});
