import { ROLES, SETTINGS_RESOURCE_TABLES, type Role } from '@opsdeck/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import {
  bearer,
  buildAuthTestApp,
  createTestPerson,
  createTestToken,
  TestBrowser,
  type TestApp,
} from '../auth/test-fixtures/auth-test-app.js';
import { matrixAllows, specResourceOf } from '../auth/test-fixtures/role-matrix.js';
import { settingsResourcesRoutes } from './resources-routes.js';

/**
 * The generic settings resources (spec core §2 `/settings/{table}`, §9 "Settings lists capped at
 * 100 rows ordered by created_at descending"), through HTTP with real callers: the allowlist,
 * the editable columns, and every role × table × read/write answered as the role matrix says.
 */

let db: TestDatabase;
let testApp: TestApp;
const tokens = {} as Record<Role, string>;
const people = {} as Record<Role, { id: string; email: string; password: string }>;
const ids = {} as Record<(typeof SETTINGS_RESOURCE_TABLES)[number], string>;

beforeAll(async () => {
  db = await createTestDatabase();
  testApp = await buildAuthTestApp(db.pool, {
    register: async (app) => {
      await app.register(settingsResourcesRoutes);
    },
  });
  for (const role of ROLES) {
    people[role] = await createTestPerson(db.pool, { roles: [role] });
    tokens[role] = await createTestToken(db.pool, people[role].id);
  }
  // 101 live teams a minute apart (the newest is team-101) and one deleted even newer.
  await db.pool.query(
    `INSERT INTO teams (name, spec, created_at)
     SELECT 'team-' || n, '{}'::jsonb, now() - make_interval(mins => 500 - n) FROM generate_series(1, 101) n`,
  );
  await db.pool.query(
    `INSERT INTO teams (name, spec, created_at, deleted_at) VALUES ('gone', '{}', now(), now())`,
  );
  for (const table of SETTINGS_RESOURCE_TABLES) {
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO ${table} (name, namespace, labels, spec) VALUES ($1, 'default', '{"env":"prod"}', '{}') RETURNING id`,
      [`generic-${table.replace(/_/g, '-')}`],
    );
    ids[table] = rows[0].id;
  }
});

afterAll(async () => {
  await testApp?.app.close();
  await db?.close();
});

const get = (url: string, role: Role = 'admin') =>
  testApp.app.inject({ method: 'GET', url, headers: bearer(tokens[role]) });
const patch = (url: string, payload: unknown, role: Role = 'admin') =>
  testApp.app.inject({
    method: 'PATCH',
    url,
    headers: { ...bearer(tokens[role]), 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });

describe('GET /api/settings/resources/{table}', () => {
  it('lists at most 100 live rows, newest first', async () => {
    const response = await get('/api/settings/resources/teams');
    expect(response.statusCode).toBe(200);
    const body = response.json<{ table: string; rows: { name: string; created_at: string }[] }>();
    expect(body.table).toBe('teams');
    expect(body.rows).toHaveLength(100);
    expect(body.rows.map((row) => row.name)).not.toContain('gone');
    // generic-teams was made last, then team-101, team-100, …; team-1 and team-2 fall off.
    expect(body.rows.slice(0, 3).map((row) => row.name)).toEqual(['generic-teams', 'team-101', 'team-100']);
    expect(body.rows.at(-1)?.name).toBe('team-3');
    const times = body.rows.map((row) => Date.parse(row.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('refuses tables outside the allowlist, config scrapers included, naming the field', async () => {
    for (const table of ['config_scrapers', 'people', 'access_tokens', 'connections']) {
      const response = await get(`/api/settings/resources/${table}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ field: 'table' });
    }
  });
});

describe('GET and PATCH /api/settings/resources/{table}/{id}', () => {
  it('reads one resource with its spec', async () => {
    const response = await get(`/api/settings/resources/incident_rules/${ids.incident_rules}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: ids.incident_rules,
      name: 'generic-incident-rules',
      labels: { env: 'prod' },
      spec: {},
    });
  });

  it('saves labels and spec, which the table then holds', async () => {
    const response = await patch(`/api/settings/resources/logging_backends/${ids.logging_backends}`, {
      labels: { env: 'staging' },
      spec: { file: { path: '/var/log/app.log' } },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ name: 'generic-logging-backends', labels: { env: 'staging' } });
    const { rows } = await db.pool.query('SELECT labels, spec FROM logging_backends WHERE id = $1', [
      ids.logging_backends,
    ]);
    expect(rows[0]).toEqual({ labels: { env: 'staging' }, spec: { file: { path: '/var/log/app.log' } } });
  });

  it('changes the icon of a team but refuses columns the table does not allow', async () => {
    expect((await patch(`/api/settings/resources/teams/${ids.teams}`, { icon: 'group' })).statusCode).toBe(
      200,
    );
    const scheduled = await patch(`/api/settings/resources/incident_rules/${ids.incident_rules}`, {
      schedule: '@daily',
    });
    expect(scheduled.statusCode).toBe(400);
    expect(scheduled.json()).toMatchObject({ field: 'schedule' });
    const renamed = await patch(`/api/settings/resources/teams/${ids.teams}`, { name: 'renamed' });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json()).toMatchObject({ field: 'name' });
    const created = await patch(`/api/settings/resources/teams/${ids.teams}`, {
      created_by: people.admin.id,
    });
    expect(created.json()).toMatchObject({ field: 'created_by' });
  });

  it('answers bad input with a 4xx naming the field', async () => {
    const labels = await patch(`/api/settings/resources/teams/${ids.teams}`, { labels: { env: 3 } });
    expect(labels.statusCode).toBe(400);
    expect(labels.json<{ field: string }>().field).toBe('labels.env');
    const spec = await patch(`/api/settings/resources/teams/${ids.teams}`, { spec: 'not: an object' });
    expect(spec.statusCode).toBe(400);
    expect(spec.json()).toMatchObject({ field: 'spec' });
    const empty = await patch(`/api/settings/resources/teams/${ids.teams}`, {});
    expect(empty.statusCode).toBe(400);
    const badId = await get('/api/settings/resources/teams/not-a-uuid');
    expect(badId.statusCode).toBe(400);
    expect(badId.json()).toMatchObject({ field: 'id' });
    const missing = await get('/api/settings/resources/teams/00000000-0000-4000-8000-000000000001');
    expect(missing.statusCode).toBe(404);
    const missingWrite = await patch('/api/settings/resources/teams/00000000-0000-4000-8000-000000000001', {
      labels: {},
    });
    expect(missingWrite.statusCode).toBe(404);
  });

  it('works for a browser session (cookie and CSRF header carried to the data API)', async () => {
    const browser = new TestBrowser(testApp.app);
    expect((await browser.signIn(people.editor.email, people.editor.password)).statusCode).toBe(200);
    const saved = await browser.request({
      method: 'PATCH',
      url: `/api/settings/resources/topologies/${ids.topologies}`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ schedule: '@every 5m' }),
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ schedule: '@every 5m' });
    const withoutCsrf = await browser.request({
      method: 'PATCH',
      url: `/api/settings/resources/topologies/${ids.topologies}`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ schedule: '@hourly' }),
      csrf: false,
    });
    expect(withoutCsrf.statusCode).toBe(403);
  });

  it('answers 401 without a caller', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/settings/resources/teams' });
    expect(response.statusCode).toBe(401);
  });
});

describe('every role × table × read/write as the role matrix says', () => {
  const cases = ROLES.flatMap((role) => SETTINGS_RESOURCE_TABLES.map((table) => ({ role, table })));
  it.each(cases)('$role on $table', async ({ role, table }) => {
    const readResource = specResourceOf(table, 'read');
    const writeResource = specResourceOf(table, 'write');
    if (!readResource || !writeResource) throw new Error(`${table} has no place in the role matrix`);
    const list = await get(`/api/settings/resources/${table}`, role);
    expect(list.statusCode).toBe(matrixAllows(role, readResource, 'read') ? 200 : 403);
    const one = await get(`/api/settings/resources/${table}/${ids[table]}`, role);
    expect(one.statusCode).toBe(matrixAllows(role, readResource, 'read') ? 200 : 403);
    const write = await patch(
      `/api/settings/resources/${table}/${ids[table]}`,
      { labels: { by: role } },
      role,
    );
    expect(write.statusCode).toBe(matrixAllows(role, writeResource, 'write') ? 200 : 403);
  });
});
