import { randomBytes } from 'node:crypto';
import {
  CONNECTION_MASK,
  CONNECTION_TYPES,
  connectionFromForm,
  connectionSchema,
  connectionToForm,
  defaultConnectionFormValues,
  visibleConnectionFields,
  type Connection,
  type ConnectionFormValues,
  type ConnectionType,
} from '@opsdeck/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { registerErrorHandling } from '../../platform/http/errors.js';
import { createSecretBox } from '../../platform/secrets.js';
import { authPlugin } from '../auth/index.js';
import {
  bearer,
  createTestPerson,
  createTestToken,
  testAuthConfig,
} from '../auth/test-fixtures/auth-test-app.js';
import { createConnectionResolver } from './connection-resolver.js';
import { connectionRoutes } from './connection-routes.js';
import { resourceRoutes } from './resource-routes.js';
import { createValueFromResolver } from './value-from.js';

// /api/connections: every catalogue type's form through the API (create, read masked as an
// editor, read in full as an admin, update with the masked value kept), the catalogue's
// validation naming the field, and who may write.

let db: TestDatabase;
let app: FastifyInstance;
const box = createSecretBox(randomBytes(32));
const tokens: Record<'admin' | 'editor' | 'viewer' | 'responder', string> = {
  admin: '',
  editor: '',
  viewer: '',
  responder: '',
};

beforeAll(async () => {
  db = await createTestDatabase();
  app = Fastify({ logger: false });
  registerErrorHandling(app);
  await app.register(authPlugin, { pool: db.pool, config: testAuthConfig() });
  await app.register(connectionRoutes, { pool: db.pool, secrets: box });
  await app.register(resourceRoutes, { pool: db.pool, logger: { info() {} } as never, secrets: box });
  await app.ready();
  for (const role of Object.keys(tokens) as (keyof typeof tokens)[]) {
    const person = await createTestPerson(db.pool, { roles: [role] });
    tokens[role] = await createTestToken(db.pool, person.id);
  }
}, 60_000);

afterAll(async () => {
  await app?.close();
  await db?.close();
});

const call = (
  role: keyof typeof tokens,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
) =>
  app.inject({
    method,
    url,
    headers: bearer(tokens[role]),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

/** A filled form of a type: every visible field with a value of its kind (secrets with characters to escape). */
function filledValues(type: ConnectionType): ConnectionFormValues {
  const values = defaultConnectionFormValues(type);
  for (const field of visibleConnectionFields(type, values)) {
    if (field.input === 'boolean') values[field.key] = true;
    else if (field.input === 'select') values[field.key] = field.options?.[0] ?? '';
    else if (field.input === 'number') values[field.key] = '1234';
    else if (field.input === 'secret') values[field.key] = `${type.type}-${field.key}-s3cr3t/+@`;
    else if (/url/i.test(field.key)) values[field.key] = `https://${type.type}.example/${field.key}?a=b`;
    else values[field.key] = `${type.type}-${field.key}.example:8/+@`;
  }
  return values;
}

function expectMasked(stored: Connection, type: ConnectionType): void {
  for (const column of ['url', 'username', 'password', 'certificate'] as const)
    if (stored[column] !== undefined)
      expect({ column, value: stored[column] }).toEqual({ column, value: CONNECTION_MASK });
  for (const field of type.fields)
    if (
      field.target === 'properties' &&
      field.input === 'secret' &&
      stored.properties[field.key] !== undefined
    )
      expect({ key: field.key, value: stored.properties[field.key] }).toEqual({
        key: field.key,
        value: CONNECTION_MASK,
      });
  expect(JSON.stringify(stored)).not.toContain('s3cr3t');
}

describe('every connection type through the API', () => {
  for (const type of CONNECTION_TYPES) {
    it(`${type.label}: create, read masked as an editor, in full as an admin, update keeping the masked secret`, async () => {
      const values = filledValues(type);
      const name = `c-${type.type.replace(/_/g, '-')}`;
      const input = connectionFromForm({ name, namespace: 'default', type: type.type, values });
      const created = await call('admin', 'POST', '/api/connections', input);
      expect(created.statusCode, created.body).toBe(201);
      const id = connectionSchema.parse(created.json()).id;

      const asEditor = await call('editor', 'GET', `/api/connections/${id}`);
      expect(asEditor.statusCode).toBe(200);
      const masked = connectionSchema.parse(asEditor.json());
      expectMasked(masked, type);

      const asAdmin = connectionSchema.parse((await call('admin', 'GET', `/api/connections/${id}`)).json());
      expect(connectionToForm(asAdmin).values).toEqual(values);

      // The masked read sent back (a changed non-secret only) keeps every stored secret.
      const {
        id: _id,
        source: _s,
        created_by: _c,
        created_at: _ca,
        updated_at: _u,
        last_test_at: _t,
        last_test_message: _m,
        last_test_status: _st,
        ...body
      } = masked;
      const updated = await call('admin', 'PUT', `/api/connections/${id}`, {
        ...body,
        insecure_tls: !masked.insecure_tls,
      });
      expect(updated.statusCode, updated.body).toBe(200);
      const after = connectionSchema.parse((await call('admin', 'GET', `/api/connections/${id}`)).json());
      expect(after.insecure_tls).toBe(!masked.insecure_tls);
      const { insecure_tls: _a, ...kept } = connectionToForm(after).values;
      const { insecure_tls: _b, ...wanted } = values;
      expect(kept).toEqual(wanted);
    });
  }

  it('lists id, name, type and the rest, masked for editors, refused to viewers and responders', async () => {
    const list = await call('editor', 'GET', '/api/connections');
    expect(list.statusCode).toBe(200);
    const rows = (list.json() as unknown[]).map((row) => connectionSchema.parse(row));
    expect(rows.length).toBe(CONNECTION_TYPES.length);
    expect(JSON.stringify(rows)).not.toContain('s3cr3t');
    expect(rows[0]).toMatchObject({
      id: expect.any(String),
      name: expect.any(String),
      type: expect.any(String),
    });
    expect(rows[0].created_by?.id).toEqual(expect.any(String));
    const asAdmin = await call('admin', 'GET', '/api/connections');
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.body).not.toContain('s3cr3t');
    expect((await call('viewer', 'GET', '/api/connections')).statusCode).toBe(403);
    expect((await call('responder', 'GET', '/api/connections')).statusCode).toBe(403);
  });
});

describe('validation and permissions', () => {
  it('names the missing required field, an unknown type and a duplicate name', async () => {
    const noBucket = await call('admin', 'POST', '/api/connections', { name: 'bucketless', type: 's3' });
    expect(noBucket.statusCode).toBe(400);
    expect(noBucket.json()).toMatchObject({
      field: 'properties.bucket',
      error: 'properties.bucket: Bucket is required',
    });

    const noPassword = await call('admin', 'POST', '/api/connections', {
      name: 'pg',
      type: 'postgres',
      url: 'postgres://127.0.0.1/postgres',
      username: 'postgres',
    });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json()).toMatchObject({ field: 'password' });

    const unknown = await call('admin', 'POST', '/api/connections', { name: 'x', type: 'carrier-pigeon' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ field: 'type' });

    const badName = await call('admin', 'POST', '/api/connections', { name: 'Not Valid', type: 'folder' });
    expect(badName.statusCode).toBe(400);
    expect(JSON.stringify(badName.json())).toContain('name');

    const mask = await call('admin', 'POST', '/api/connections', {
      name: 'masked',
      type: 'github',
      password: CONNECTION_MASK,
    });
    expect(mask.statusCode).toBe(400);
    expect(mask.json()).toMatchObject({ field: 'password' });

    const duplicate = await call('admin', 'POST', '/api/connections', { name: 'c-folder', type: 'folder' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({ field: 'name' });
  });

  it('refuses writes and tests to editors and viewers', async () => {
    const body = { name: 'refused', type: 'folder', properties: { path: '/tmp' } };
    for (const role of ['editor', 'viewer', 'responder'] as const) {
      expect((await call(role, 'POST', '/api/connections', body)).statusCode).toBe(403);
      expect((await call(role, 'POST', '/api/connection/test', body)).statusCode).toBe(403);
    }
    const created = connectionSchema.parse((await call('admin', 'POST', '/api/connections', body)).json());
    for (const role of ['editor', 'viewer'] as const) {
      expect((await call(role, 'PUT', `/api/connections/${created.id}`, body)).statusCode).toBe(403);
      expect((await call(role, 'DELETE', `/api/connections/${created.id}`)).statusCode).toBe(403);
      expect((await call(role, 'POST', `/api/connection/test/${created.id}`)).statusCode).toBe(403);
    }
    expect((await call('admin', 'DELETE', `/api/connections/${created.id}`)).statusCode).toBe(204);
    expect((await call('admin', 'GET', `/api/connections/${created.id}`)).statusCode).toBe(404);
  });

  it('stores a valueFrom reference as it is and shows it to editors', async () => {
    const created = await call('admin', 'POST', '/api/connections', {
      name: 'by-reference',
      type: 'postgres',
      url: { valueFrom: { configMapKeyRef: { name: 'db', key: 'url' } } },
      username: 'postgres',
      password: { valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const read = connectionSchema.parse(
      (await call('editor', 'GET', `/api/connections/${created.json().id}`)).json(),
    );
    expect(read.password).toEqual({ valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } });
    expect(read.url).toEqual({ valueFrom: { configMapKeyRef: { name: 'db', key: 'url' } } });
    expect(read.username).toBe(CONNECTION_MASK);
    const stored = await db.pool.query<{ password: string; username: string }>(
      'SELECT password, username FROM connections WHERE id = $1',
      [read.id],
    );
    expect(stored.rows[0].password).toBe('secret://db/password');
    expect(stored.rows[0].username).not.toContain('postgres');
  });

  it('gives checks, scrapers, playbooks and notifications the connection by reference, opened', async () => {
    const secret = await call('admin', 'POST', '/api/resources', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'ops-db', namespace: 'ops' },
      stringData: { password: 'from-the-secret' },
    });
    expect(secret.statusCode, secret.body).toBe(200);
    const created = await call('admin', 'POST', '/api/connections', {
      name: 'orders',
      namespace: 'ops',
      type: 'postgres',
      url: 'postgres://db.internal:5432/orders',
      username: 'app',
      password: { valueFrom: { secretKeyRef: { name: 'ops-db', key: 'password' } } },
      insecure_tls: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    const resolve = createConnectionResolver(db.pool, box, createValueFromResolver(db.pool, box));
    const expected = {
      name: 'orders',
      namespace: 'ops',
      type: 'postgres',
      url: 'postgres://db.internal:5432/orders',
      username: 'app',
      password: 'from-the-secret',
      insecureTls: true,
    };
    expect(await resolve('connection://ops/orders')).toMatchObject(expected);
    expect(await resolve('connection://default/orders')).toBeUndefined();
    // A deleted connection is gone for its users too.
    expect((await call('admin', 'DELETE', `/api/connections/${created.json().id}`)).statusCode).toBe(204);
    expect(await resolve('connection://ops/orders')).toBeUndefined();
  });
});
