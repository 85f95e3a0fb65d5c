/**
 * Selector-narrowed permissions with notifications as their object (issue 25, spec settings §3
 * permission entity; the ecosystem's `object: {notifications: [selector]}`): through real HTTP,
 * a permission row whose object selector picks notifications by name, namespace or labels
 * narrows which notifications a user may read (the data API's relations and the send history
 * route) and edit (the rule route and the data API), and a Deny wins over what roles or other
 * rows allow. An edit may not take the notification out of what the user may edit.
 */
import type { Role } from '@opsdeck/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import {
  bearer,
  buildAuthTestApp,
  createTestPerson,
  createTestToken,
  type TestApp,
} from '../auth/test-fixtures/auth-test-app.js';
import { notificationRoutes } from './routes.js';

let db: TestDatabase;
let testApp: TestApp;

const RULE = {
  teamA: 'b0250000-0000-4000-8000-000000000001',
  teamB: 'b0250000-0000-4000-8000-000000000002',
  secret: 'b0250000-0000-4000-8000-000000000003',
};

interface Grant {
  action: string;
  selector: Record<string, unknown>;
  deny?: boolean;
}

async function personWith(roles: Role[], grants: Grant[]): Promise<Record<string, string>> {
  const person = await createTestPerson(db.pool, { roles });
  for (const grant of grants) {
    await db.pool.query(
      `INSERT INTO permissions (subject, subject_type, person_id, action, deny, object_selector)
       VALUES ($1::text, 'person', $1::uuid, $2, $3, $4)`,
      [person.id, grant.action, grant.deny ?? false, JSON.stringify({ notifications: [grant.selector] })],
    );
  }
  return bearer(await createTestToken(db.pool, person.id));
}

beforeAll(async () => {
  db = await createTestDatabase();
  testApp = await buildAuthTestApp(db.pool, {
    register: async (app) => {
      await app.register(notificationRoutes, { pool: db.pool });
    },
  });
  await db.pool.query(`
    INSERT INTO notifications (id, name, namespace, labels, events, spec) VALUES
      ('${RULE.teamA}', 'team-a-pager', 'default', '{"team": "a"}', '{check.failed}', '{"events": ["check.failed"]}'),
      ('${RULE.teamB}', 'team-b-pager', 'default', '{"team": "b"}', '{check.failed}', '{"events": ["check.failed"]}'),
      ('${RULE.secret}', 'exec-pager', 'secret', '{"team": "a"}', '{check.failed}', '{"events": ["check.failed"]}');
    INSERT INTO notification_send_history (notification_id, status, source_event, recipient)
    SELECT id, 'sent', 'check.failed', name || '@example.test' FROM notifications;
  `);
});

afterAll(async () => {
  await testApp?.app.close();
  await db?.close();
});

async function request(
  headers: Record<string, string>,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) {
  const response = await testApp.app.inject({
    method,
    url,
    headers: { ...headers, prefer: 'return=representation' },
    ...(payload ? { payload } : {}),
  });
  return { status: response.statusCode, body: response.body ? (response.json() as unknown) : null };
}

async function visibleRules(headers: Record<string, string>): Promise<string[]> {
  const answer = await request(headers, 'GET', '/api/db/notifications_summary?select=name&order=name.asc');
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return (answer.body as { name: string }[]).map((row) => row.name);
}

async function historyRules(headers: Record<string, string>): Promise<string[]> {
  const answer = await request(headers, 'POST', '/api/notification/summary', {});
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return (answer.body as { results: { notification: { name: string } }[] }).results
    .map((row) => row.notification.name)
    .sort();
}

const edit = (headers: Record<string, string>, id: string, labels?: Record<string, string>) =>
  request(headers, 'PUT', `/api/notification/rules/${id}`, {
    spec: { events: ['check.passed'] },
    ...(labels ? { labels } : {}),
  });

describe('permissions whose object selects notifications', () => {
  it('a user without a role for notifications reads only the ones its selector names', async () => {
    const scoped = await personWith([], [{ action: 'read', selector: { name: 'team-a-*' } }]);
    expect(await visibleRules(scoped)).toEqual(['team-a-pager']);
    expect(await historyRules(scoped)).toEqual(['team-a-pager']);
    const history = await request(scoped, 'GET', '/api/db/notification_send_history?select=recipient');
    expect(history.body).toEqual([{ recipient: 'team-a-pager@example.test' }]);
    // Read gives no edit.
    expect((await edit(scoped, RULE.teamA)).status).toBe(403);
    const unscoped = await personWith([], []);
    expect((await request(unscoped, 'POST', '/api/notification/summary', {})).status).toBe(403);
  });

  it('a Deny by namespace hides those notifications and their history from a viewer', async () => {
    const viewer = await personWith(
      ['viewer'],
      [{ action: 'read', selector: { namespace: 'secret' }, deny: true }],
    );
    expect(await visibleRules(viewer)).toEqual(['team-a-pager', 'team-b-pager']);
    expect(await historyRules(viewer)).toEqual(['team-a-pager', 'team-b-pager']);
    const plainViewer = await personWith(['viewer'], []);
    expect(await historyRules(plainViewer)).toEqual(['exec-pager', 'team-a-pager', 'team-b-pager']);
  });

  it('an update grant by labels edits only those notifications, and cannot move one out of reach', async () => {
    const responder = await personWith(
      ['responder'],
      [{ action: 'update', selector: { labelSelector: 'team=a', namespace: 'default' } }],
    );
    expect(await edit(responder, RULE.teamA)).toMatchObject({
      status: 200,
      body: { id: RULE.teamA, name: 'team-a-pager' },
    });
    expect(await edit(responder, RULE.teamB)).toMatchObject({
      status: 403,
      body: {
        error:
          'You may not edit notification default/team-b-pager: your notification permissions do not cover it',
      },
    });
    expect((await edit(responder, RULE.secret)).status).toBe(403);
    expect(await edit(responder, RULE.teamA, { team: 'b' })).toMatchObject({
      status: 403,
      body: { error: 'The change would take notification default/team-a-pager out of what you may edit' },
    });
    const { rows } = await db.pool.query<{ labels: unknown; events: string[] }>(
      'SELECT labels, events FROM notifications WHERE id = $1',
      [RULE.teamA],
    );
    expect(rows[0]).toEqual({ labels: { team: 'a' }, events: ['check.passed'] });
    // Through the data API too: a write reaches only granted rows.
    const patched = await request(responder, 'PATCH', `/api/db/notifications?id=eq.${RULE.teamB}`, {
      title: 'changed',
    });
    expect(patched.body).toEqual([]);
    const { rows: untouched } = await db.pool.query('SELECT title FROM notifications WHERE id = $1', [
      RULE.teamB,
    ]);
    expect(untouched[0]).toEqual({ title: null });
  });

  it("a Deny wins over an editor's role and over an allow row naming the same notifications", async () => {
    const editor = await personWith(
      ['editor'],
      [
        { action: 'update', selector: { name: 'team-*' } },
        { action: 'update', selector: { labelSelector: 'team=a' }, deny: true },
      ],
    );
    expect((await edit(editor, RULE.teamA)).status).toBe(403);
    expect((await edit(editor, RULE.secret)).status).toBe(403);
    expect((await edit(editor, RULE.teamB)).status).toBe(200);
    // Reading is not denied.
    expect(await visibleRules(editor)).toEqual(['exec-pager', 'team-a-pager', 'team-b-pager']);
  });
});

const createRule = (headers: Record<string, string>, name: string, namespace: string, labels?: object) =>
  request(headers, 'POST', '/api/notification/rules', {
    name,
    namespace,
    ...(labels ? { labels } : {}),
    spec: { events: ['check.failed'] },
  });

const createSilence = (headers: Record<string, string>, fields: Record<string, unknown>) =>
  request(headers, 'POST', '/api/notification/silence', {
    description: 'maintenance',
    selectors: [{ name: 'orders-*' }],
    until: null,
    ...fields,
  });

async function liveRules(namespace: string): Promise<string[]> {
  const { rows } = await db.pool.query<{ name: string }>(
    'SELECT name FROM notifications WHERE namespace = $1 AND deleted_at IS NULL ORDER BY name',
    [namespace],
  );
  return rows.map((row) => row.name);
}

async function silenceIn(namespace: string, name: string | null = null): Promise<string> {
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO notification_silences (namespace, name, description, filter) VALUES ($1, $2, 'seeded', 'true')
     RETURNING id`,
    [namespace, name],
  );
  return rows[0].id;
}

describe('creating and deleting rules and silences within a selector grant (ADR 0041)', () => {
  it('a create grant by namespace lets a user without a role create rules there, and nowhere else', async () => {
    const creator = await personWith([], [{ action: 'create', selector: { namespace: 'team-a' } }]);
    expect(await createRule(creator, 'disk-alerts', 'team-a')).toMatchObject({
      status: 201,
      body: { name: 'disk-alerts', namespace: 'team-a' },
    });
    expect(await createRule(creator, 'disk-alerts', 'team-b')).toMatchObject({
      status: 403,
      body: {
        error:
          'You may not create notification team-b/disk-alerts: your notification permissions do not cover it',
      },
    });
    expect(await liveRules('team-b')).toEqual([]);
    expect(await liveRules('team-a')).toEqual(['disk-alerts']);
    // A grant to create is no grant to delete; a user with no grant at all is refused at the door.
    const created = await db.pool.query<{ id: string }>(
      "SELECT id FROM notifications WHERE namespace = 'team-a' AND name = 'disk-alerts'",
    );
    expect((await request(creator, 'DELETE', `/api/notification/rules/${created.rows[0].id}`)).status).toBe(
      403,
    );
    const nobody = await personWith([], []);
    expect((await createRule(nobody, 'x', 'team-a')).status).toBe(403);
  });

  it('a create grant by labels needs the new rule to carry them', async () => {
    const creator = await personWith([], [{ action: 'create', selector: { labelSelector: 'team=a' } }]);
    expect((await createRule(creator, 'cpu-alerts', 'labelled', { team: 'a' })).status).toBe(201);
    expect(await createRule(creator, 'mem-alerts', 'labelled', { team: 'b' })).toMatchObject({
      status: 403,
      body: {
        error:
          'You may not create notification labelled/mem-alerts: your notification permissions do not cover it',
      },
    });
    expect(await liveRules('labelled')).toEqual(['cpu-alerts']);
  });

  it('a delete grant soft-deletes the rules it covers and refuses the others, saying why', async () => {
    const { rows } = await db.pool.query<{ id: string; name: string }>(
      `INSERT INTO notifications (name, namespace, events, spec) VALUES
         ('old-pager', 'ops-a', '{check.failed}', '{"events": ["check.failed"]}'),
         ('old-pager', 'ops-b', '{check.failed}', '{"events": ["check.failed"]}')
       RETURNING id, namespace AS name`,
    );
    const [inside, outside] = rows;
    const deleter = await personWith([], [{ action: 'delete', selector: { namespace: 'ops-a' } }]);
    expect(await request(deleter, 'DELETE', `/api/notification/rules/${outside.id}`)).toMatchObject({
      status: 403,
      body: {
        error:
          'You may not delete notification ops-b/old-pager: your notification permissions do not cover it',
      },
    });
    expect(await request(deleter, 'DELETE', `/api/notification/rules/${inside.id}`)).toMatchObject({
      status: 200,
      body: { id: inside.id, namespace: 'ops-a' },
    });
    expect(await liveRules('ops-a')).toEqual([]);
    expect(await liveRules('ops-b')).toEqual(['old-pager']);
    expect((await request(deleter, 'DELETE', `/api/notification/rules/${inside.id}`)).status).toBe(404);
  });

  it("a Deny by namespace wins over an editor's role for creating and deleting", async () => {
    const editor = await personWith(
      ['editor'],
      [
        { action: 'create', selector: { namespace: 'locked' }, deny: true },
        { action: 'delete', selector: { namespace: 'locked' }, deny: true },
      ],
    );
    expect((await createRule(editor, 'free', 'open')).status).toBe(201);
    expect(await createRule(editor, 'blocked', 'locked')).toMatchObject({
      status: 403,
      body: {
        error:
          'You may not create notification locked/blocked: your notification permissions do not cover it',
      },
    });
    expect((await createSilence(editor, { namespace: 'locked' })).status).toBe(403);
    const lockedSilence = await silenceIn('locked');
    expect(await request(editor, 'DELETE', `/api/notification/silence/${lockedSilence}`)).toMatchObject({
      status: 403,
      body: {
        error:
          'You may not delete silence in namespace locked: your notification permissions do not cover it',
      },
    });
    expect(await liveRules('locked')).toEqual([]);
  });

  it('silences follow the same grants on their own namespace, name and labels', async () => {
    const user = await personWith(
      [],
      [
        { action: 'create', selector: { namespace: 'team-a' } },
        { action: 'delete', selector: { namespace: 'team-a' } },
        { action: 'update', selector: { namespace: 'team-a' } },
        { action: 'read', selector: { namespace: 'team-a' } },
      ],
    );
    const created = await createSilence(user, { namespace: 'team-a', name: 'friday-deploy' });
    expect(created).toMatchObject({ status: 201, body: { namespace: 'team-a', name: 'friday-deploy' } });
    expect(await createSilence(user, { namespace: 'default' })).toMatchObject({
      status: 403,
      body: {
        error:
          'You may not create silence in namespace default: your notification permissions do not cover it',
      },
    });
    expect(await createSilence(user, {})).toMatchObject({ status: 403 });
    const { rows: saved } = await db.pool.query<{ namespace: string }>(
      "SELECT namespace FROM notification_silences WHERE description = 'maintenance' ORDER BY namespace",
    );
    expect(saved).toEqual([{ namespace: 'team-a' }]);

    // Reads and edits through the data API are narrowed the same way.
    const other = await silenceIn('team-b', 'elsewhere');
    const listed = await request(
      user,
      'GET',
      '/api/db/notification_silences?select=namespace,name&deleted_at=is.null',
    );
    expect(listed).toEqual({ status: 200, body: [{ namespace: 'team-a', name: 'friday-deploy' }] });
    const ownId = (created.body as { id: string }).id;
    const patched = await request(user, 'PATCH', `/api/db/notification_silences?id=eq.${ownId}`, {
      description: 'longer maintenance',
    });
    expect(patched).toMatchObject({ status: 200, body: [{ description: 'longer maintenance' }] });
    expect(
      (await request(user, 'PATCH', `/api/db/notification_silences?id=eq.${other}`, { description: 'x' }))
        .body,
    ).toEqual([]);
    // Moving a silence out of the grant is refused and leaves it where it was.
    const moved = await request(user, 'PATCH', `/api/db/notification_silences?id=eq.${ownId}`, {
      namespace: 'team-b',
    });
    expect(moved.status).toBe(403);

    expect(await request(user, 'DELETE', `/api/notification/silence/${other}`)).toMatchObject({
      status: 403,
      body: {
        error: 'You may not delete silence team-b/elsewhere: your notification permissions do not cover it',
      },
    });
    expect(await request(user, 'DELETE', `/api/notification/silence/${ownId}`)).toMatchObject({
      status: 200,
      body: { id: ownId, namespace: 'team-a', name: 'friday-deploy' },
    });
    const { rows } = await db.pool.query<{ id: string; live: boolean; description: string }>(
      'SELECT id, deleted_at IS NULL AS live, description FROM notification_silences WHERE id = ANY($1::uuid[]) ORDER BY namespace',
      [[ownId, other]],
    );
    expect(rows).toEqual([
      { id: ownId, live: false, description: 'longer maintenance' },
      { id: other, live: true, description: 'seeded' },
    ]);
  });
});
