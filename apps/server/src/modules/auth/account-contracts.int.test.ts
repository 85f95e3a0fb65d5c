import {
  accessTokensResponseSchema,
  createTokenResponseSchema,
  deletePersonResponseSchema,
  deleteTokenResponseSchema,
  flowDoneResponseSchema,
  flowErrorBodySchema,
  flowSchema,
  inviteUserResponseSchema,
  logoutBrowserResponseSchema,
  personViewSchema,
  propertiesResponseSchema,
  relationRowSchemas,
  tokenPermissionsResponseSchema,
  updateRolesResponseSchema,
  whoamiResponseSchema,
  type Relation,
} from '@opsdeck/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { settingsRoutes } from '../settings/routes.js';
import {
  buildAuthTestApp,
  createTestPerson,
  TestBrowser,
  type TestApp,
  type TestPerson,
} from './test-fixtures/auth-test-app.js';

/**
 * The account routes against their contracts (`@opsdeck/contracts` auth.ts, settings.ts): a
 * request the route schema refuses is a 400 naming the field, and each real answer parses with
 * its response schema exactly (parsing drops unknown keys, so an equal result means the server
 * sent no key the contract lacks).
 */

let db: TestDatabase;
let testApp: TestApp;
let admin: TestPerson;
let browser: TestBrowser;

beforeAll(async () => {
  db = await createTestDatabase();
  testApp = await buildAuthTestApp(db.pool, {
    register: async (app) => {
      await app.register(settingsRoutes, { pool: db.pool });
    },
  });
  admin = await createTestPerson(db.pool, { roles: ['admin'] });
  browser = new TestBrowser(testApp.app);
  expect((await browser.signIn(admin.email, admin.password)).statusCode).toBe(200);
});

afterAll(async () => {
  await testApp?.app.close();
  await db?.close();
});

function expectExactly(schema: z.ZodType, response: LightMyRequestResponse, status = 200): void {
  expect(response.statusCode, response.body).toBe(status);
  const body: unknown = response.json();
  const parsed = schema.safeParse(body);
  expect(parsed.error?.issues ?? []).toEqual([]);
  expect(parsed.data).toEqual(body);
}

function expectRefused(response: LightMyRequestResponse, error: string, field: string): void {
  expect(response.statusCode, response.body).toBe(400);
  expect(response.json()).toEqual({ error, field });
}

const del = (url: string) => browser.request({ method: 'DELETE', url });
const NOT_AN_ID = 'not-a-uuid';

describe('account routes: requests refused by their contract schema', () => {
  it('POST /api/auth/invite_user names the field', async () => {
    expectRefused(
      await browser.post('/api/auth/invite_user', { role: 'viewer' }),
      'Email is required',
      'email',
    );
    expectRefused(
      await browser.post('/api/auth/invite_user', { email: 'nobody', role: 'viewer' }),
      'Email must be a valid email address',
      'email',
    );
    expectRefused(
      await browser.post('/api/auth/invite_user', { email: 'new@example.com', role: 'boss' }),
      'Role must be one of admin, editor, commander, responder, viewer, guest',
      'role',
    );
    expectRefused(
      await browser.post('/api/auth/invite_user', { email: 'new@example.com', role: 'viewer', firstName: 7 }),
      'firstName: Invalid input: expected string, received number',
      'firstName',
    );
  });

  it('DELETE /api/auth/token/:id and GET /api/rbac/token/:id/permissions name the id', async () => {
    expectRefused(await del(`/api/auth/token/${NOT_AN_ID}`), 'id must be a uuid', 'id');
    expectRefused(await browser.get(`/api/rbac/token/${NOT_AN_ID}/permissions`), 'id must be a uuid', 'id');
  });

  it('POST /api/people/update names the field', async () => {
    expectRefused(await browser.post('/api/people/update', { name: 'x' }), 'id must be a person id', 'id');
    expectRefused(
      await browser.post('/api/people/update', { id: admin.id, email: 'nobody' }),
      'Email must be a valid email address',
      'email',
    );
    expectRefused(
      await browser.post('/api/people/update', { id: admin.id, roles: ['admin', 'boss'] }),
      'Role must be one of admin, editor, commander, responder, viewer, guest',
      'roles.1',
    );
    expectRefused(
      await browser.post('/api/people/update', { id: admin.id, name: '  ' }),
      'Name is required',
      'name',
    );
  });

  it('DELETE /api/people/:id and POST /api/rbac/:id/update_role name the field', async () => {
    expectRefused(await del(`/api/people/${NOT_AN_ID}`), 'id must be a uuid', 'id');
    expectRefused(
      await browser.post(`/api/rbac/${NOT_AN_ID}/update_role`, { roles: ['viewer'] }),
      'id must be a uuid',
      'id',
    );
    expectRefused(
      await browser.post(`/api/rbac/${admin.id}/update_role`, { roles: 'viewer' }),
      'Roles must be a list of role names',
      'roles',
    );
    expectRefused(
      await browser.post(`/api/rbac/${admin.id}/update_role`, { roles: ['boss'] }),
      'Role must be one of admin, editor, commander, responder, viewer, guest',
      'roles.0',
    );
  });
});

describe('account routes: answers parse exactly with their response schema', () => {
  it('whoami, invite, people update, role update and delete', async () => {
    expectExactly(whoamiResponseSchema, await browser.get('/api/auth/whoami'));
    const invite = await browser.post('/api/auth/invite_user', {
      email: `invited-${Date.now()}@example.com`,
      role: 'viewer',
    });
    expectExactly(inviteUserResponseSchema, invite);

    const person = await createTestPerson(db.pool, { roles: ['viewer'] });
    expectExactly(
      personViewSchema,
      await browser.post('/api/people/update', { id: person.id, name: 'Renamed Person', roles: ['editor'] }),
    );
    expectExactly(
      updateRolesResponseSchema,
      await browser.post(`/api/rbac/${person.id}/update_role`, { roles: ['viewer', 'responder'] }),
    );
    expectExactly(deletePersonResponseSchema, await del(`/api/people/${person.id}`));
  });

  it('tokens: create, list, permissions (scoped and not) and delete', async () => {
    const scoped = await browser.post('/api/auth/create_token', {
      name: 'scoped',
      scope: [{ subject: '', object: 'canaries', action: 'read' }],
    });
    expectExactly(createTokenResponseSchema, scoped);
    expectExactly(
      createTokenResponseSchema,
      await browser.post('/api/auth/create_token', { name: 'unscoped' }),
    );

    const list = await browser.get('/api/auth/tokens');
    expectExactly(accessTokensResponseSchema, list);
    const tokens = accessTokensResponseSchema.parse(list.json()).payload;
    expect(tokens.map((token) => token.name)).toEqual(expect.arrayContaining(['scoped', 'unscoped']));
    for (const token of tokens) {
      expectExactly(
        tokenPermissionsResponseSchema,
        await browser.get(`/api/rbac/token/${token.id}/permissions`),
      );
    }
    expectExactly(deleteTokenResponseSchema, await del(`/api/auth/token/${tokens[0]?.id}`));
  });

  it('GET /api/properties', async () => {
    await db.pool.query(
      `INSERT INTO properties (name, value, type, description) VALUES ('incidents.disable', 'false', 'bool', 'Turns incidents off'), ('plain', 'x', NULL, NULL)`,
    );
    const response = await browser.get('/api/properties');
    expectExactly(propertiesResponseSchema, response);
    expect(response.json()).toEqual(
      expect.arrayContaining([{ name: 'plain', value: 'x', source: 'db', type: null, description: null }]),
    );
  });

  it('self-service: a flow, a refused call, a finished sign-in and the logout link', async () => {
    const other = new TestBrowser(testApp.app);
    const created = await other.get('/api/auth/self-service/login/browser');
    expectExactly(flowSchema, created);
    expectExactly(flowErrorBodySchema, await other.get('/api/auth/self-service/login/flows?id=unknown'), 404);
    const signedIn = await other.signIn(admin.email, admin.password);
    expect(signedIn.statusCode).toBe(200);
    // A finished submit also carries the session; the web app reads only where to go next.
    expect(flowDoneResponseSchema.parse(signedIn.json())).toEqual({
      return_to: '/',
      redirect_browser_to: '/',
    });
    const settings = await other.get('/api/auth/self-service/settings/browser');
    // A settings flow also carries the identity, which the screens do not read.
    expect(flowSchema.safeParse(settings.json()).error).toBeUndefined();
    expectExactly(logoutBrowserResponseSchema, await other.get('/api/auth/self-service/logout/browser'));
  });
});

describe('data API rows of people, teams, tokens and properties parse exactly with relationRowSchemas', () => {
  it.each<Relation>(['people', 'people_roles', 'teams', 'team_members', 'access_tokens', 'properties'])(
    '%s',
    async (relation) => {
      const { rows } = await db.pool.query<{ id: string }>(
        `INSERT INTO teams (name, labels) VALUES ($1, '{"tier": "1"}') RETURNING id`,
        [`team-${relation}-${Date.now()}`],
      );
      await db.pool.query(`INSERT INTO team_members (team_id, person_id) VALUES ($1, $2)`, [
        rows[0]?.id,
        admin.id,
      ]);
      await db.pool.query(
        `INSERT INTO properties (name, value) VALUES ($1, 'true') ON CONFLICT (name) DO NOTHING`,
        [`${relation}.row-test`],
      );
      await browser.post('/api/auth/create_token', { name: `row-${relation}` });
      const response = await browser.get(`/api/db/${relation}?limit=50`);
      const body = response.json<unknown[]>();
      expect(body.length).toBeGreaterThan(0);
      const schema = relationRowSchemas[relation];
      for (const row of body) {
        const parsed = schema.safeParse(row);
        expect(parsed.error?.issues ?? []).toEqual([]);
        expect(parsed.data).toEqual(row);
      }
    },
  );
});
