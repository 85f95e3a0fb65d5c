import { RESOURCES, ROLES, type Role } from '@opsdeck/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { isFeatureEnabled } from './feature-flags.js';
import {
  bearer,
  buildAuthTestApp,
  createTestPerson,
  createTestToken,
  TestBrowser,
  type TestApp,
} from './test-fixtures/auth-test-app.js';
import { matrixAllows } from './test-fixtures/role-matrix.js';

const expected = matrixAllows;

let db: TestDatabase;
let testApp: TestApp;
const tokens = {} as Record<Role, string>;
const people = {} as Record<Role, { id: string; email: string; password: string }>;

beforeAll(async () => {
  db = await createTestDatabase();
  testApp = await buildAuthTestApp(db.pool);
  for (const role of ROLES) {
    people[role] = await createTestPerson(db.pool, { roles: [role] });
    tokens[role] = await createTestToken(db.pool, people[role].id);
  }
});

afterAll(async () => {
  await testApp?.app.close();
  await db?.close();
});

describe('every role × resource × read/write through requirePermission routes', () => {
  const cases = ROLES.flatMap((role) =>
    RESOURCES.flatMap((resource) =>
      (['read', 'write'] as const).map((action) => ({ role, resource, action })),
    ),
  );

  it.each(cases)('$role $action /api/test/$resource', async ({ role, resource, action }) => {
    const response = await testApp.app.inject({
      method: action === 'read' ? 'GET' : 'POST',
      url: `/api/test/${resource}`,
      headers: bearer(tokens[role]),
    });
    const allowed = expected(role, resource, action);
    expect(response.statusCode).toBe(allowed ? 200 : 403);
    if (!allowed) expect(response.json<{ error: string }>().error).toMatch(/not allowed/);
  });
});

describe('the data API through createDataApiAuthorizer', () => {
  it('lets responders write incidents and viewers only read them', async () => {
    const create = (role: Role, title: string) =>
      testApp.app.inject({
        method: 'POST',
        url: '/api/db/incidents',
        headers: {
          ...bearer(tokens[role]),
          'content-type': 'application/json',
          prefer: 'return=representation',
        },
        payload: { title, type: 'availability', severity: 'low', status: 'open' },
      });
    expect((await create('responder', 'Disk full')).statusCode).toBe(201);
    const refused = await create('viewer', 'Not allowed');
    expect(refused.statusCode).toBe(403);
    const read = await testApp.app.inject({
      method: 'GET',
      url: '/api/db/incidents?select=title',
      headers: bearer(tokens.viewer),
    });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual([{ title: 'Disk full' }]);
  });

  it('hides connections from viewers and editors cannot write them', async () => {
    expect(
      (
        await testApp.app.inject({
          method: 'GET',
          url: '/api/db/connections',
          headers: bearer(tokens.viewer),
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await testApp.app.inject({
          method: 'GET',
          url: '/api/db/connections',
          headers: bearer(tokens.editor),
        })
      ).statusCode,
    ).toBe(200);
    const write = await testApp.app.inject({
      method: 'POST',
      url: '/api/db/connections',
      headers: { ...bearer(tokens.editor), 'content-type': 'application/json' },
      payload: { name: 'db', type: 'postgres' },
    });
    expect(write.statusCode).toBe(403);
  });

  it('answers 401 without a caller and never exposes token hashes', async () => {
    expect((await testApp.app.inject({ method: 'GET', url: '/api/db/incidents' })).statusCode).toBe(401);
    const rows = await testApp.app.inject({
      method: 'GET',
      url: '/api/db/access_tokens',
      headers: bearer(tokens.admin),
    });
    expect(rows.statusCode).toBe(200);
    const stored = await db.pool.query<{ value: string }>('SELECT value FROM access_tokens');
    for (const { value } of stored.rows) expect(rows.body).not.toContain(value);
    expect(rows.json<Record<string, unknown>[]>().every((row) => !('value' in row))).toBe(true);
  });
});

describe('tokens with narrower scopes', () => {
  it('an admin token scoped to catalog:read reads the catalog and nothing else', async () => {
    const token = await createTestToken(db.pool, people.admin.id, [{ object: 'catalog', action: 'read' }]);
    expect(
      (await testApp.app.inject({ method: 'GET', url: '/api/db/configs', headers: bearer(token) }))
        .statusCode,
    ).toBe(200);
    expect(
      (await testApp.app.inject({ method: 'GET', url: '/api/db/incidents', headers: bearer(token) }))
        .statusCode,
    ).toBe(403);
    const write = await testApp.app.inject({
      method: 'POST',
      url: '/api/db/config_scrapers',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: { name: 'files', spec: {} },
    });
    expect(write.statusCode).toBe(403);
    expect(write.json<{ message: string }>().message).toMatch(/scope/);
  });

  it('a viewer token scoped to canaries:create still cannot write (the owner cannot)', async () => {
    const token = await createTestToken(db.pool, people.viewer.id, [
      { object: 'canaries', action: 'create' },
    ]);
    expect(
      (await testApp.app.inject({ method: 'POST', url: '/api/test/canaries', headers: bearer(token) }))
        .statusCode,
    ).toBe(403);
  });

  it('accepts Basic token:<token> like Bearer, and refuses a wrong secret', async () => {
    const basic = Buffer.from(`token:${tokens.editor}`).toString('base64');
    expect(
      (
        await testApp.app.inject({
          method: 'GET',
          url: '/api/test/canaries',
          headers: { authorization: `Basic ${basic}` },
        })
      ).statusCode,
    ).toBe(200);
    const wrong = `${tokens.editor.slice(0, -4)}AAAA`;
    expect(
      (await testApp.app.inject({ method: 'GET', url: '/api/test/canaries', headers: bearer(wrong) }))
        .statusCode,
    ).toBe(401);
    const otherUser = Buffer.from(`admin:${tokens.editor}`).toString('base64');
    expect(
      (
        await testApp.app.inject({
          method: 'GET',
          url: '/api/test/canaries',
          headers: { authorization: `Basic ${otherUser}` },
        })
      ).statusCode,
    ).toBe(401);
  });
});

describe('fine-grained permissions from the permissions table', () => {
  it('a deny on the editor role beats the role; an expired deny does not', async () => {
    const editor = await createTestPerson(db.pool, { roles: ['editor'] });
    const token = await createTestToken(db.pool, editor.id);
    const inserted = await db.pool.query<{ id: string }>(
      `INSERT INTO permissions (subject, subject_type, object, action, deny) VALUES ('editor', 'group', 'canaries', 'create', true) RETURNING id`,
    );
    const createCanary = () =>
      testApp.app.inject({ method: 'POST', url: '/api/test/canaries', headers: bearer(token) });
    expect((await createCanary()).statusCode).toBe(403);
    expect((await createCanary()).json<{ error: string }>().error).toMatch(/permission denies/);
    expect(
      (await testApp.app.inject({ method: 'GET', url: '/api/test/canaries', headers: bearer(token) }))
        .statusCode,
    ).toBe(200);
    await db.pool.query(`UPDATE permissions SET until = now() - interval '1 minute' WHERE id = $1`, [
      inserted.rows[0]?.id,
    ]);
    expect((await createCanary()).statusCode).toBe(200);
    await db.pool.query(`DELETE FROM permissions WHERE id = $1`, [inserted.rows[0]?.id]);
  });

  it('a team allow lets a viewer write, until it expires', async () => {
    const viewer = await createTestPerson(db.pool, { roles: ['viewer'] });
    const token = await createTestToken(db.pool, viewer.id);
    const team = await db.pool.query<{ id: string }>(`INSERT INTO teams (name) VALUES ('sre') RETURNING id`);
    const teamId = team.rows[0]?.id;
    await db.pool.query(`INSERT INTO team_members (team_id, person_id) VALUES ($1, $2)`, [teamId, viewer.id]);
    const permission = await db.pool.query<{ id: string }>(
      `INSERT INTO permissions (subject_type, team_id, object, action, until) VALUES ('team', $1, 'topology', '*', now() + interval '1 hour') RETURNING id`,
      [teamId],
    );
    const write = () =>
      testApp.app.inject({ method: 'POST', url: '/api/test/topologies', headers: bearer(token) });
    expect((await write()).statusCode).toBe(200);
    await db.pool.query(`UPDATE permissions SET until = now() - interval '1 second' WHERE id = $1`, [
      permission.rows[0]?.id,
    ]);
    expect((await write()).statusCode).toBe(403);
  });

  it('a person deny reaches the data API', async () => {
    const commander = await createTestPerson(db.pool, { roles: ['commander'] });
    const token = await createTestToken(db.pool, commander.id);
    await db.pool.query(
      `INSERT INTO permissions (subject_type, person_id, object, action, deny) VALUES ('person', $1, 'incident', 'read', true)`,
      [commander.id],
    );
    expect(
      (await testApp.app.inject({ method: 'GET', url: '/api/db/incidents', headers: bearer(token) }))
        .statusCode,
    ).toBe(403);
    expect(
      (await testApp.app.inject({ method: 'GET', url: '/api/db/canaries', headers: bearer(token) }))
        .statusCode,
    ).toBe(200);
  });
});

describe('feature flags', () => {
  it('refuses a disabled area with a message, and settings areas follow the area they depend on', async () => {
    expect(await isFeatureEnabled(db.pool, 'settings.health')).toBe(true);
    await db.pool.query(`INSERT INTO properties (name, value) VALUES ('health.disable', 'true')`);
    expect(await isFeatureEnabled(db.pool, 'health')).toBe(false);
    expect(await isFeatureEnabled(db.pool, 'settings.health')).toBe(false);
    expect(await isFeatureEnabled(db.pool, 'settings.job_history')).toBe(false);
    expect(await isFeatureEnabled(db.pool, 'incidents')).toBe(true);
    const refused = await testApp.app.inject({
      method: 'GET',
      url: '/api/test/canaries',
      headers: bearer(tokens.admin),
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'The health feature is disabled' });
    const data = await testApp.app.inject({
      method: 'GET',
      url: '/api/db/checks',
      headers: bearer(tokens.admin),
    });
    expect(data.statusCode).toBe(403);
    expect(data.json<{ message: string }>().message).toBe('The health feature is disabled');
    await db.pool.query(`UPDATE properties SET value = 'false' WHERE name = 'health.disable'`);
    expect(
      (await testApp.app.inject({ method: 'GET', url: '/api/test/canaries', headers: bearer(tokens.admin) }))
        .statusCode,
    ).toBe(200);
  });
});

describe('whoami and the open paths', () => {
  it('returns the caller with roles and permissions', async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/api/auth/whoami',
      headers: bearer(tokens.commander),
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{
      message: string;
      payload: {
        user: { id: string; email: string };
        roles: string[];
        permissions: { subject: string; object: string; action: string; deny: boolean }[];
        hostname: string;
        database: string;
      };
    }>();
    expect(body.payload.user).toMatchObject({ id: people.commander.id, email: people.commander.email });
    expect(body.payload.roles).toEqual(['commander']);
    expect(body.payload.permissions).toContainEqual({
      subject: 'commander',
      object: 'incident',
      action: 'write',
      deny: false,
    });
    expect(body.payload.permissions).not.toContainEqual(expect.objectContaining({ object: 'connections' }));
    expect(body.payload.database).toBe(db.name);
    expect(body.payload.hostname).toBeTruthy();
  });

  it('requires a caller on /api except the open paths', async () => {
    expect((await testApp.app.inject({ method: 'GET', url: '/api/auth/whoami' })).json()).toEqual({
      error: 'Unauthorized',
    });
    expect((await testApp.app.inject({ method: 'GET', url: '/api/auth/whoami' })).statusCode).toBe(401);
    expect((await testApp.app.inject({ method: 'GET', url: '/api/version' })).statusCode).toBe(200);
    expect(
      (await testApp.app.inject({ method: 'GET', url: '/api/auth/self-service/login/browser' })).statusCode,
    ).toBe(200);
    expect((await testApp.app.inject({ method: 'GET', url: '/api/nothing-here' })).statusCode).toBe(401);
    // The router decodes %61 to 'a': the check must see the same path the router does.
    expect((await testApp.app.inject({ method: 'GET', url: '/%61pi/test/incident' })).statusCode).toBe(401);
    expect((await testApp.app.inject({ method: 'GET', url: '/%61pi/db/incidents' })).statusCode).toBe(401);
  });

  it('works with a browser session too', async () => {
    const browser = new TestBrowser(testApp.app);
    expect((await browser.signIn(people.viewer.email, people.viewer.password)).statusCode).toBe(200);
    expect((await browser.get('/api/test/incident')).statusCode).toBe(200);
    expect((await browser.post('/api/test/incident', {})).statusCode).toBe(403);
  });
});
