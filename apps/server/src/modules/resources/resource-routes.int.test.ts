import {
  configMapListItemSchema,
  resourceApplyResponseSchema,
  secretListItemSchema,
} from '@opsdeck/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { registerErrorHandling } from '../../platform/http/errors.js';
import { authPlugin } from '../auth/index.js';
import {
  bearer,
  createTestPerson,
  createTestToken,
  testAuthConfig,
} from '../auth/test-fixtures/auth-test-app.js';
import { resourceRoutes } from './resource-routes.js';
import { testSecretBox } from './test-fixtures/helpers.js';

// /api/resources on its contracts (resources.ts, ADR 0011): requests checked by the route
// schemas, answers parsed with the response schemas.

let db: TestDatabase;
let app: FastifyInstance;
let token: string;

beforeAll(async () => {
  db = await createTestDatabase();
  app = Fastify({ logger: false });
  registerErrorHandling(app);
  await app.register(authPlugin, { pool: db.pool, config: testAuthConfig() });
  await app.register(resourceRoutes, {
    pool: db.pool,
    logger: { info() {} } as never,
    secrets: testSecretBox(),
  });
  await app.ready();
  const admin = await createTestPerson(db.pool, { roles: ['admin'] });
  token = await createTestToken(db.pool, admin.id);
});

afterAll(async () => {
  await app?.close();
  await db?.close();
});

/** The real answer parsed with its schema gives back the same value: no key unnamed, no type off. */
function expectContract(schema: z.ZodType, body: unknown): void {
  const parsed = schema.safeParse(body);
  expect(parsed.error).toBeUndefined();
  expect(parsed.data).toEqual(body);
}

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
  app.inject({
    method,
    url,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

describe('/api/resources contracts', () => {
  it('applies, lists and deletes with answers its response schemas parse', async () => {
    const applied = await call('POST', '/api/resources', [
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db' }, stringData: { password: 'x' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { level: 'debug' } },
    ]);
    expect(applied.statusCode, applied.body).toBe(200);
    expectContract(resourceApplyResponseSchema, applied.json());

    const secrets = await call('GET', '/api/resources/secrets');
    expect(secrets.statusCode).toBe(200);
    expect(secrets.json()).toHaveLength(1);
    expectContract(z.array(secretListItemSchema), secrets.json());

    const configMaps = await call('GET', '/api/resources/ConfigMaps');
    expect(configMaps.statusCode).toBe(200);
    expectContract(z.array(configMapListItemSchema), configMaps.json());
    expect(configMaps.json()).toEqual([
      expect.objectContaining({ name: 'settings', data: { level: 'debug' } }),
    ]);

    expect((await call('DELETE', '/api/resources/configmaps/default/settings')).statusCode).toBe(204);
  });

  it('refuses a bad body or kind with a 400 naming the field', async () => {
    const wrongBody = await call('POST', '/api/resources', [1, 2]);
    expect(wrongBody.statusCode).toBe(400);
    expect(wrongBody.json()).toEqual({
      error: 'the body must be YAML text, {"yaml": "..."}, a resource document or a list of them',
    });

    for (const [method, url] of [
      ['GET', '/api/resources/widgets'],
      ['DELETE', '/api/resources/widgets/default/x'],
    ] as const) {
      const response = await call(method, url);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        field: 'kind',
        error: 'kind: "widgets" is not a resource kind of this API (use secrets or configmaps)',
      });
    }
  });
});
