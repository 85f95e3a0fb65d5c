import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestPerson,
  TestBrowser,
  type TestPerson,
} from '../src/modules/auth/test-fixtures/auth-test-app.js';
import type { TestDatabase } from './harness/db.js';
import { startFullApp, type FullApp } from './harness/full-app.js';
import { createCanary } from './harness/factories.js';

/**
 * Token scopes through the composed app (issue 18 §5): a scoped token cannot manage its owner's
 * account (tokens, people, roles), and one scope gives the same answer on a custom route and on
 * the data API for the same action on the same kind of row.
 */
let full: FullApp;
let db: TestDatabase;
let app: FastifyInstance;
let admin: TestPerson;
let browser: TestBrowser;

beforeAll(async () => {
  full = await startFullApp('Scope Admin');
  ({ db, app } = full);
  admin = await createTestPerson(db.pool, { roles: ['admin'] });
  browser = new TestBrowser(app);
  expect((await browser.signIn(admin.email, admin.password)).statusCode).toBe(200);
});

afterAll(async () => {
  await full?.close();
});

async function createToken(name: string, scope: { object: string; action: string }[]): Promise<string> {
  const response = await browser.post('/api/auth/create_token', {
    name,
    expiry: 'never',
    scope: scope.map((entry) => ({ subject: '', ...entry })),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ payload: { token: string } }>().payload.token;
}

async function tokenIdByName(name: string): Promise<string> {
  const list = await browser.get('/api/auth/tokens');
  const entry = list.json<{ payload: { id: string; name: string }[] }>().payload.find((t) => t.name === name);
  if (!entry) throw new Error(`no token named ${name}`);
  return entry.id;
}

/** Writes ask for `return=minimal`: a representation is a read, which needs a read scope too. */
function call(
  token: string,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${token}`,
      prefer: method === 'GET' ? 'return=representation' : 'return=minimal',
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}

describe("a scoped token and its owner's account", () => {
  it("cannot list, inspect or revoke the owner's tokens, nor edit people or roles", async () => {
    const scoped = await createToken('scoped canaries:read', [{ object: 'canaries', action: 'read' }]);
    await createToken('another token', []);
    const otherId = await tokenIdByName('another token');
    const ownId = await tokenIdByName('scoped canaries:read');

    const attempts: [string, Promise<LightMyRequestResponse>][] = [
      ['revoke another token', call(scoped, 'DELETE', `/api/auth/token/${otherId}`)],
      ['revoke itself', call(scoped, 'DELETE', `/api/auth/token/${ownId}`)],
      ['list tokens', call(scoped, 'GET', '/api/auth/tokens')],
      ["read a token's permissions", call(scoped, 'GET', `/api/rbac/token/${otherId}/permissions`)],
      ['rename the owner', call(scoped, 'POST', '/api/people/update', { id: admin.id, name: 'Mallory' })],
      ['give roles', call(scoped, 'POST', `/api/rbac/${admin.id}/update_role`, { roles: ['admin'] })],
      [
        'invite someone',
        call(scoped, 'POST', '/api/auth/invite_user', {
          firstName: 'A',
          lastName: 'B',
          email: 'invited@example.com',
          role: 'admin',
        }),
      ],
      [
        'create a token',
        call(scoped, 'POST', '/api/auth/create_token', { name: 'x', expiry: 'never', scope: [] }),
      ],
    ];
    for (const [label, attempt] of attempts) {
      const response = await attempt;
      expect(response.statusCode, `${label}: ${response.body}`).toBe(403);
    }
    // The scoped token still does what its scope names.
    expect((await call(scoped, 'GET', '/api/db/canaries?select=id')).statusCode).toBe(200);
    const { rows } = await db.pool.query<{ name: string }>(
      'SELECT name FROM access_tokens WHERE person_id = $1 ORDER BY name',
      [admin.id],
    );
    expect(rows.map((row) => row.name)).toEqual(['another token', 'scoped canaries:read']);
    expect((await call(scoped, 'DELETE', `/api/auth/token/${otherId}`)).json()).toMatchObject({
      error: expect.stringMatching(/token with scopes cannot manage the account/),
    });
  });

  it('an unscoped token and the session still manage the account', async () => {
    const unscoped = await createToken('unscoped', []);
    await createToken('to revoke by token', []);
    await createToken('to revoke by session', []);
    expect((await call(unscoped, 'GET', '/api/auth/tokens')).statusCode).toBe(200);
    const byToken = await call(
      unscoped,
      'DELETE',
      `/api/auth/token/${await tokenIdByName('to revoke by token')}`,
    );
    expect(byToken.statusCode, byToken.body).toBe(200);
    const bySession = await browser.request({
      method: 'DELETE',
      url: `/api/auth/token/${await tokenIdByName('to revoke by session')}`,
    });
    expect(bySession.statusCode, bySession.body).toBe(200);
    const renamed = await call(unscoped, 'POST', '/api/people/update', { id: admin.id, name: 'Ada Admin' });
    expect(renamed.statusCode, renamed.body).toBe(200);
  });
});

describe('one scope, one answer on the custom routes and the data API', () => {
  const VERBS = ['read', 'create', 'update', 'delete'] as const;
  type Verb = (typeof VERBS)[number];
  let sequence = 0;

  /** Each door of one action on a canary, with a fresh row where the action needs one. */
  async function canaryDoors(
    verb: Verb,
  ): Promise<Record<'custom' | 'data', (token: string) => Promise<LightMyRequestResponse>>> {
    sequence += 1;
    const spec = { schedule: '@every 5m' };
    const row = async () =>
      (await createCanary(db.pool, { name: `row-${verb}-${sequence}-${Math.random()}`, source: 'UI' }))
        .id as string;
    const [a, b] = verb === 'create' ? ['', ''] : [await row(), await row()];
    switch (verb) {
      case 'read':
        return {
          custom: (token) => call(token, 'GET', `/api/canaries/${a}`),
          data: (token) => call(token, 'GET', `/api/db/canaries?id=eq.${b}`),
        };
      case 'create':
        return {
          custom: (token) => call(token, 'POST', '/api/canaries', { name: `made-${sequence}-a`, spec }),
          data: (token) => call(token, 'POST', '/api/db/canaries', { name: `made-${sequence}-b`, spec }),
        };
      case 'update':
        return {
          custom: (token) => call(token, 'PUT', `/api/canaries/${a}`, { spec: { schedule: '@every 7m' } }),
          data: (token) =>
            call(token, 'PATCH', `/api/db/canaries?id=eq.${b}`, { spec: { schedule: '@every 7m' } }),
        };
      case 'delete':
        return {
          custom: (token) => call(token, 'DELETE', `/api/canaries/${a}`),
          data: (token) => call(token, 'DELETE', `/api/db/canaries?id=eq.${b}`),
        };
    }
  }

  it.each(VERBS)('a canaries:%s token', async (scope) => {
    const token = await createToken(`canaries:${scope}`, [{ object: 'canaries', action: scope }]);
    for (const verb of VERBS) {
      const doors = await canaryDoors(verb);
      const custom = await doors.custom(token);
      const data = await doors.data(token);
      const allowed = (response: LightMyRequestResponse) => response.statusCode < 300;
      const expected = verb === scope;
      expect(allowed(custom), `${verb} through /api/canaries: ${custom.statusCode} ${custom.body}`).toBe(
        expected,
      );
      expect(allowed(data), `${verb} through /api/db/canaries: ${data.statusCode} ${data.body}`).toBe(
        expected,
      );
      if (!expected) {
        expect(custom.statusCode).toBe(403);
        expect(data.statusCode).toBe(403);
      }
    }
  });

  it.each(['create', 'update'] as const)('a catalog:%s token on scrapers', async (scope) => {
    const token = await createToken(`catalog:${scope}`, [{ object: 'catalog', action: scope }]);
    const spec = { file: [{ type: 'Sync::File', id: '$.id', paths: ['nothing.json'] }] };
    const admins = await createToken(`catalog admin ${scope}`, []);
    const made = async (name: string) => {
      const response = await call(admins, 'POST', '/api/catalog/scrapers', { name, spec });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ id: string }>().id;
    };
    const results = {
      create: {
        custom: await call(token, 'POST', '/api/catalog/scrapers', { name: `${scope}-new-a`, spec }),
        data: await call(token, 'POST', '/api/db/config_scrapers', { name: `${scope}-new-b`, spec }),
      },
      update: {
        custom: await call(token, 'PUT', `/api/catalog/scrapers/${await made(`${scope}-old-a`)}`, {
          name: `${scope}-old-a`,
          spec,
        }),
        data: await call(token, 'PATCH', `/api/db/config_scrapers?id=eq.${await made(`${scope}-old-b`)}`, {
          spec,
        }),
      },
    };
    for (const [verb, { custom, data }] of Object.entries(results)) {
      const expected = verb === scope;
      expect(custom.statusCode < 300, `${verb} through /api/catalog/scrapers: ${custom.body}`).toBe(expected);
      expect(data.statusCode < 300, `${verb} through /api/db/config_scrapers: ${data.body}`).toBe(expected);
    }
  });
});
