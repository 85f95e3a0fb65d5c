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
  method: 'GET' | 'POST' | 'PUT' | 'PATCH',
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
      body: { error: 'You may not edit notification default/team-b-pager' },
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
