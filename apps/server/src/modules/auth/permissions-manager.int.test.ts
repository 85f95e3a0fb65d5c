import { relationRowSchemas, type Relation, type Role } from '@opsdeck/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFullApp, type FullApp } from '../../../test/harness/full-app.js';
import {
  buildAuthTestApp,
  createTestPerson,
  TestBrowser,
  type TestApp,
} from './test-fixtures/auth-test-app.js';

/**
 * The permissions manager (settings §2.2) writes through the data API of the whole app exactly as
 * the page does (POST, PATCH and DELETE on /api/db/permissions, the list from
 * /api/db/permissions_summary, with the data API's row checks): a rule made that way changes at
 * once what its subject can do, probed on the auth test app's per-resource routes.
 */

let full: FullApp;
let testApp: TestApp;
let admin: TestBrowser & { personId: string };

beforeAll(async () => {
  full = await startFullApp('Permissions Admin');
  testApp = await buildAuthTestApp(full.db.pool);
  admin = await signedIn(['admin'], 'full');
});

afterAll(async () => {
  await testApp?.app.close();
  await full?.close();
});

/** A signed-in browser on the whole app ('full', the page's calls) or the auth test app ('probe'). */
async function signedIn(roles: Role[], on: 'full' | 'probe' = 'probe') {
  const person = await createTestPerson(full.db.pool, { roles });
  const browser = new TestBrowser(on === 'full' ? full.app : testApp.app);
  expect((await browser.signIn(person.email, person.password)).statusCode).toBe(200);
  return Object.assign(browser, { personId: person.id });
}

async function addPermission(body: Record<string, unknown>): Promise<string> {
  const response = await admin.request({
    method: 'POST',
    url: '/api/db/permissions',
    headers: { Prefer: 'return=representation' },
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string }[]>()[0]!.id;
}

describe('each subject tab, saved through the page calls, is enforced', () => {
  it('Person × Global: a viewer given canaries create,read,update,delete may write canaries; Deny takes even reading away; Delete restores the role', async () => {
    const viewer = await signedIn(['viewer']);
    expect((await viewer.post('/api/test/canaries', {})).statusCode).toBe(403);
    const id = await addPermission({
      subject_type: 'person',
      subject: viewer.personId,
      person_id: viewer.personId,
      object: 'canaries',
      action: 'create,read,update,delete',
      description: 'lets the viewer manage checks',
    });
    expect((await viewer.post('/api/test/canaries', {})).statusCode).toBe(200);

    const denied = await admin.request({
      method: 'PATCH',
      url: `/api/db/permissions?id=eq.${id}`,
      payload: { action: 'read', deny: true },
    });
    expect(denied.statusCode, denied.body).toBeLessThan(300);
    expect((await viewer.get('/api/test/canaries')).statusCode).toBe(403);

    const removed = await admin.request({ method: 'DELETE', url: `/api/db/permissions?id=${'eq.' + id}` });
    expect(removed.statusCode).toBeLessThan(300);
    expect((await viewer.get('/api/test/canaries')).statusCode).toBe(200);
    expect((await viewer.post('/api/test/canaries', {})).statusCode).toBe(403);
  });

  it('Team × Global: a rule on a team reaches its members, and ends when they leave it', async () => {
    const viewer = await signedIn(['viewer']);
    const team = (
      await full.db.pool.query<{ id: string }>(`INSERT INTO teams (name) VALUES ($1) RETURNING id`, [
        `responders-${Date.now()}`,
      ])
    ).rows[0]!.id;
    const joined = await admin.post('/api/db/team_members', [{ team_id: team, person_id: viewer.personId }]);
    expect(joined.statusCode, joined.body).toBe(201);
    expect((await viewer.post('/api/test/incident', {})).statusCode).toBe(403);
    await addPermission({
      subject_type: 'team',
      subject: team,
      team_id: team,
      object: 'incident',
      action: 'create,read,update,delete',
    });
    expect((await viewer.post('/api/test/incident', {})).statusCode).toBe(200);
    const left = await admin.request({
      method: 'DELETE',
      url: `/api/db/team_members?team_id=eq.${team}&person_id=eq.${viewer.personId}`,
    });
    expect(left.statusCode).toBeLessThan(300);
    expect((await viewer.post('/api/test/incident', {})).statusCode).toBe(403);
  });

  it('Role × Playbook: a rule on the guest role lets every guest run playbooks (playbook:run only)', async () => {
    const guest = await signedIn(['guest']);
    expect((await guest.post('/api/test/playbooks/run', {})).statusCode).toBe(403);
    await addPermission({
      subject_type: 'group',
      subject: 'guest',
      object: 'playbooks',
      action: 'playbook:run',
    });
    expect((await guest.post('/api/test/playbooks/run', {})).statusCode).toBe(200);
    expect((await guest.post('/api/test/playbooks/approve', {})).statusCode).toBe(403);
  });

  it('Person × Catalog: a Deny on one catalog item hides that item only', async () => {
    const viewer = await signedIn(['viewer']);
    const insert = (name: string) =>
      full.db.pool
        .query<{ id: string }>(
          `INSERT INTO config_items (name, type) VALUES ($1, 'Kubernetes::Pod') RETURNING id`,
          [name],
        )
        .then(({ rows }) => rows[0]!.id);
    const hidden = await insert(`secret-pod-${Date.now()}`);
    const shown = await insert(`public-pod-${Date.now()}`);
    const read = async (id: string) =>
      (await viewer.get(`/api/db/config_items?select=id&id=eq.${id}`)).json<{ id: string }[]>();
    expect(await read(hidden)).toHaveLength(1);
    await addPermission({
      subject_type: 'person',
      subject: viewer.personId,
      person_id: viewer.personId,
      config_id: hidden,
      action: 'read',
      deny: true,
    });
    expect(await read(hidden)).toEqual([]);
    expect(await read(shown)).toEqual([{ id: shown }]);
  });

  it('Person × Connection: a viewer (no read on connections) given read on one connection reads that one only', async () => {
    const viewer = await signedIn(['viewer']);
    const insert = (name: string) =>
      full.db.pool
        .query<{ id: string }>(`INSERT INTO connections (name, type) VALUES ($1, 'postgres') RETURNING id`, [
          name,
        ])
        .then(({ rows }) => rows[0]!.id);
    const granted = await insert(`granted-${Date.now()}`);
    const other = await insert(`other-${Date.now()}`);
    expect((await viewer.get('/api/db/connections?select=id')).statusCode).toBe(403);
    await addPermission({
      subject_type: 'person',
      subject: viewer.personId,
      person_id: viewer.personId,
      connection_id: granted,
      action: 'read',
    });
    const listed = await viewer.get(`/api/db/connections?select=id&id=in.(${granted},${other})`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json()).toEqual([{ id: granted }]);
  });

  it('Person × Global notification narrowed by a selector: a grant reads only the matching notifications, a Deny hides only them', async () => {
    const stamp = Date.now().toString(36);
    const names = [`ops-pager-${stamp}`, `exec-pager-${stamp}`];
    await full.db.pool.query(
      `INSERT INTO notifications (name, namespace, labels, events, spec)
       SELECT name, 'default', jsonb_build_object('team', split_part(name, '-', 1)), '{check.failed}', '{"events": ["check.failed"]}'
         FROM unnest($1::text[]) AS name`,
      [names],
    );
    const readable = async (browser: TestBrowser) => {
      const response = await browser.get(
        `/api/db/notifications?select=name&name=in.(${names.join(',')})&order=name`,
      );
      return response.statusCode === 200
        ? response.json<{ name: string }[]>().map((row) => row.name)
        : response.statusCode;
    };
    // No role: nothing to read until a permission selects notifications by labels.
    const nobody = await signedIn([]);
    expect(await readable(nobody)).toBe(403);
    const granted = await addPermission({
      subject_type: 'person',
      subject: nobody.personId,
      person_id: nobody.personId,
      object: null,
      object_selector: { notifications: [{ labelSelector: 'team=ops' }] },
      action: 'read',
    });
    expect(await readable(nobody)).toEqual([`ops-pager-${stamp}`]);

    const viewer = await signedIn(['viewer']);
    expect(await readable(viewer)).toEqual([`exec-pager-${stamp}`, `ops-pager-${stamp}`]);
    const denied = await addPermission({
      subject_type: 'person',
      subject: viewer.personId,
      person_id: viewer.personId,
      object_selector: { notifications: [{ name: 'exec-pager-*', namespace: 'default' }] },
      action: 'read',
      deny: true,
    });
    expect(await readable(viewer)).toEqual([`ops-pager-${stamp}`]);

    for (const id of [granted, denied]) {
      const removed = await admin.request({ method: 'DELETE', url: `/api/db/permissions?id=eq.${id}` });
      expect(removed.statusCode).toBeLessThan(300);
    }
    expect(await readable(nobody)).toBe(403);
    expect(await readable(viewer)).toEqual([`exec-pager-${stamp}`, `ops-pager-${stamp}`]);
  });

  it('a selector the row scopes cannot read is refused naming its place, never stored to match nothing', async () => {
    const viewer = await signedIn(['viewer']);
    const base = {
      subject_type: 'person',
      subject: viewer.personId,
      person_id: viewer.personId,
      action: 'read',
    };
    const cases: [unknown, RegExp][] = [
      [
        { notifications: [{ labelSelector: 'team in (a)' }] },
        /object_selector\.notifications\[0\]\.labelSelector/,
      ],
      [{ notifications: [] }, /object_selector\.notifications/],
      [{ incidents: [{ name: 'x' }] }, /object_selector\.incidents/],
      ['notifications', /object_selector/],
    ];
    for (const [selector, field] of cases) {
      const response = await admin.post('/api/db/permissions', { ...base, object_selector: selector });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.body).toMatch(field);
    }
  });

  it('an action the resource does not offer is refused naming the field', async () => {
    const viewer = await signedIn(['viewer']);
    const response = await admin.post('/api/db/permissions', {
      subject_type: 'person',
      person_id: viewer.personId,
      object: 'canaries',
      action: 'launch',
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toMatch(/action/);
  });
});

describe('who may use the permissions manager', () => {
  it('viewers do not list permissions; neither editors nor viewers add them (rbac writes are the admin’s)', async () => {
    for (const role of ['editor', 'viewer'] as const) {
      const browser = await signedIn([role], 'full');
      // Editors read every resource (rbac included); viewers do not read rbac.
      expect((await browser.get('/api/db/permissions_summary')).statusCode).toBe(
        role === 'editor' ? 200 : 403,
      );
      const added = await browser.post('/api/db/permissions', {
        subject_type: 'group',
        subject: role,
        object: 'canaries',
        action: 'read',
      });
      expect(added.statusCode).toBe(403);
    }
  });

  it('a KubernetesCRD permission is read-only even for an admin', async () => {
    const { rows } = await full.db.pool.query<{ id: string }>(
      `INSERT INTO permissions (subject_type, subject, object, action, source)
       VALUES ('group', 'viewer', 'canaries', 'read', 'KubernetesCRD') RETURNING id`,
    );
    const edited = await admin.request({
      method: 'PATCH',
      url: `/api/db/permissions?id=eq.${rows[0]!.id}`,
      payload: { description: 'edited' },
    });
    expect(edited.statusCode).toBe(403);
  });
});

describe('the page’s rows parse exactly with their contracts', () => {
  it.each<Relation>(['permissions', 'permissions_summary', 'identities'])('%s', async (relation) => {
    const response = await admin.get(`/api/db/${relation}?limit=50`);
    expect(response.statusCode).toBe(200);
    const body = response.json<unknown[]>();
    expect(body.length).toBeGreaterThan(0);
    for (const row of body) {
      const parsed = relationRowSchemas[relation].safeParse(row);
      expect(parsed.error?.issues ?? []).toEqual([]);
      expect(parsed.data).toEqual(row);
    }
  });

  it('the summary names the subject and the author, and counts for paging', async () => {
    const viewer = await signedIn(['viewer']);
    await addPermission({
      subject_type: 'person',
      person_id: viewer.personId,
      subject: viewer.personId,
      object: 'catalog',
      action: 'read',
    });
    const response = await admin.get(
      `/api/db/permissions_summary?person_id=eq.${viewer.personId}&limit=1&offset=0`,
      { Prefer: 'count=exact' },
    );
    expect(response.headers['content-range']).toMatch(/\/1$/);
    const [row] = response.json<{ subject_name: string; created_by_person: { name: string } | null }[]>();
    expect(row?.subject_name).toMatch(/^Test Person/);
    expect(row?.created_by_person?.name).toMatch(/^Test Person/);
  });
});
