import type { Role } from '@opsdeck/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPerson } from '../../../test/harness/factories.js';
import { startFullApp, type FullApp } from '../../../test/harness/full-app.js';
import { createTokenForUser } from './index.js';

/**
 * The editor-to-admin escalation of the security probe, refused at every step, through the
 * whole app as app.ts wires it: permission rows are rbac (written only with write on rbac), a
 * permission never grants more than its author holds, roles are given only within what the giver
 * has, YAML-owned permissions are read-only through the API, and authorship is the caller's.
 */

let full: FullApp;
const people: Record<string, { id: string; token: string }> = {};

async function person(name: string, roles: Role[]): Promise<{ id: string; token: string }> {
  const row = await createPerson(full.db.pool, { name, roles });
  const token = await createTokenForUser(full.db.pool, { email: row.email as string, name });
  return { id: row.id as string, token };
}

function call(
  who: string,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return full.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${people[who].token}`,
      'content-type': 'application/json',
      prefer: 'return=representation',
    },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}

async function rolesOf(id: string): Promise<string[]> {
  const { rows } = await full.db.pool.query<{ role: string }>(
    `SELECT role FROM person_roles WHERE person_id = $1 ORDER BY role`,
    [id],
  );
  return rows.map((row) => row.role);
}

async function permissionCount(): Promise<number> {
  const { rows } = await full.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM permissions`);
  return rows[0].n;
}

beforeAll(async () => {
  full = await startFullApp('Escalation Admin');
  people.admin = await person('Ada Admin', ['admin']);
  people.editor = await person('Eve Editor', ['editor']);
  people.viewer = await person('Vic Viewer', ['viewer']);
  people.responder = await person('Rae Responder', ['responder']);
  people.delegate = await person('Dee Delegate', ['editor']);
  people.other = await person('Oli Other', ['viewer']);
});

afterAll(async () => {
  await full?.close();
});

describe('an editor cannot make itself admin', () => {
  it.each([['rbac'], ['connection'], ['people']])(
    'inserting a permission that grants %s to itself is refused',
    async (object) => {
      const before = await permissionCount();
      const response = await call('editor', 'POST', '/api/db/permissions', {
        subject: people.editor.id,
        subject_type: 'person',
        person_id: people.editor.id,
        object,
        action: '*',
      });
      expect(response.statusCode).toBe(403);
      expect(await permissionCount()).toBe(before);
    },
  );

  it('cannot change or delete existing permissions', async () => {
    const { rows } = await full.db.pool.query<{ id: string }>(
      `INSERT INTO permissions (subject, subject_type, person_id, object, action, deny)
       VALUES ($1::text, 'person', $1::uuid, 'connection', 'read', true) RETURNING id`,
      [people.editor.id],
    );
    const id = rows[0].id;
    const patch = await call('editor', 'PATCH', `/api/db/permissions?id=eq.${id}`, { deny: false });
    expect(patch.statusCode).toBe(403);
    const remove = await call('editor', 'DELETE', `/api/db/permissions?id=eq.${id}`);
    expect(remove.statusCode).toBe(403);
    const stored = await full.db.pool.query(`SELECT deny FROM permissions WHERE id = $1`, [id]);
    expect(stored.rows).toEqual([{ deny: true }]);
  });

  it('cannot give itself a role, by either route', async () => {
    const role = await call('editor', 'POST', `/api/rbac/${people.editor.id}/update_role`, {
      roles: ['admin'],
    });
    expect(role.statusCode).toBe(403);
    const update = await call('editor', 'POST', '/api/people/update', {
      id: people.editor.id,
      roles: ['admin', 'editor'],
    });
    expect(update.statusCode).toBe(403);
    expect(await rolesOf(people.editor.id)).toEqual(['editor']);
  });

  it('cannot join, or name, a team that holds permissions', async () => {
    const { rows } = await full.db.pool.query<{ id: string }>(
      `INSERT INTO teams (name) VALUES ('sre') RETURNING id`,
    );
    const teamId = rows[0].id;
    await full.db.pool.query(
      `INSERT INTO permissions (subject, subject_type, team_id, object, action)
       VALUES ('sre', 'team', $1, 'connection', '*'),
              ('ghost-team', 'team', NULL, 'rbac', '*')`,
      [teamId],
    );
    const join = await call('editor', 'POST', '/api/db/team_members', {
      team_id: teamId,
      person_id: people.editor.id,
    });
    expect(join.statusCode).toBe(403);
    expect(join.json().message).toContain('only an admin may add its members');
    const named = await call('editor', 'POST', '/api/db/teams', { name: 'ghost-team' });
    expect(named.statusCode).toBe(403);
    const members = await full.db.pool.query(`SELECT 1 FROM team_members WHERE person_id = $1`, [
      people.editor.id,
    ]);
    expect(members.rows).toEqual([]);
    // A team without grants is the editors' to manage, and an admin may staff any team.
    const plain = await call('editor', 'POST', '/api/db/teams', { name: 'book-club' });
    expect(plain.statusCode).toBe(201);
    const staffed = await call('admin', 'POST', '/api/db/team_members', {
      team_id: teamId,
      person_id: people.other.id,
    });
    expect(staffed.statusCode).toBe(201);
  });

  it('cannot apply a Permission resource through the API', async () => {
    const response = await full.app.inject({
      method: 'POST',
      url: '/api/resources',
      headers: { authorization: `Bearer ${people.editor.token}`, 'content-type': 'application/yaml' },
      payload: [
        'apiVersion: mission-control.flanksource.com/v1',
        'kind: Permission',
        'metadata: {name: self-admin, namespace: default}',
        'spec:',
        `  subject: {person: "${people.editor.id}"}`,
        '  actions: ["*"]',
        '  object: rbac',
      ].join('\n'),
    });
    expect(response.statusCode).toBe(403);
    const { rows } = await full.db.pool.query(`SELECT 1 FROM permissions WHERE name = 'self-admin'`);
    expect(rows).toEqual([]);
  });
});

describe('reads of access follow the matrix', () => {
  it.each([
    ['viewer', 'permissions', 403],
    ['viewer', 'permissions_summary', 403],
    ['viewer', 'people_roles', 403],
    ['viewer', 'identities', 403],
    ['responder', 'permissions', 403],
    ['responder', 'people_roles', 403],
    ['editor', 'permissions', 200],
    ['editor', 'people_roles', 200],
    ['admin', 'permissions', 200],
  ])('%s reading %s answers %i', async (who, relation, status) => {
    const response = await call(who, 'GET', `/api/db/${relation}?limit=1`);
    expect(response.statusCode).toBe(status);
  });

  it('an embed cannot reach them either', async () => {
    const response = await call(
      'viewer',
      'GET',
      `/api/db/people?select=id,permissions!permissions_person_id_fkey(*)&limit=1`,
    );
    expect([400, 403]).toContain(response.statusCode);
    expect(response.body).not.toContain('"action"');
  });
});

describe('what a permission may say', () => {
  it('an unknown action is refused with the field named (action: fly)', async () => {
    const response = await call('admin', 'POST', '/api/db/permissions', {
      subject: people.other.id,
      subject_type: 'person',
      object: 'canaries',
      action: 'fly',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: '23514', details: 'field: action' });
    expect(response.json().message).toContain('"fly" is not an action');
  });

  it('playbook actions only on playbooks; objects only from the model', async () => {
    const wrongAction = await call('admin', 'POST', '/api/db/permissions', {
      subject: people.other.id,
      subject_type: 'person',
      object: 'canaries',
      action: 'playbook:run',
    });
    expect(wrongAction.statusCode).toBe(400);
    expect(wrongAction.json().details).toBe('field: action');
    const wrongObject = await call('admin', 'POST', '/api/db/permissions', {
      subject: people.other.id,
      subject_type: 'person',
      object: 'spaceships',
      action: 'read',
    });
    expect(wrongObject.statusCode).toBe(400);
    expect(wrongObject.json().details).toBe('field: object');
    const fine = await call('admin', 'POST', '/api/db/permissions', {
      subject: people.other.id,
      subject_type: 'person',
      object: 'playbooks',
      action: 'playbook:run,read',
    });
    expect(fine.statusCode).toBe(201);
  });
});

describe('a delegated rbac writer grants no more than it holds', () => {
  beforeAll(async () => {
    // An admin lets the delegate (an editor) manage permissions.
    const grant = await call('admin', 'POST', '/api/db/permissions', {
      subject: people.delegate.id,
      subject_type: 'person',
      person_id: people.delegate.id,
      object: 'rbac',
      action: '*',
    });
    expect(grant.statusCode).toBe(201);
  });

  it('may grant what an editor holds', async () => {
    const response = await call('delegate', 'POST', '/api/db/permissions', {
      subject: people.other.id,
      subject_type: 'person',
      person_id: people.other.id,
      object: 'canaries',
      action: 'read,update',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()[0].created_by).toBe(people.delegate.id);
  });

  it.each([
    ['connection', '*'],
    ['people', 'update'],
    ['rbac', 'create'],
  ])('may not grant %s %s (it does not hold it)', async (object, action) => {
    const before = await permissionCount();
    const response = await call('delegate', 'POST', '/api/db/permissions', {
      subject: people.delegate.id,
      subject_type: 'person',
      person_id: people.delegate.id,
      object,
      action,
    });
    if (object === 'rbac') {
      // It holds rbac through its own grant: that much it may pass on.
      expect(response.statusCode).toBe(201);
      return;
    }
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toContain('you do not hold it yourself');
    expect(await permissionCount()).toBe(before);
  });

  it('may not widen a grant by a partial PATCH', async () => {
    const { rows } = await full.db.pool.query<{ id: string }>(
      `INSERT INTO permissions (subject, subject_type, person_id, object, action)
       VALUES ($1::text, 'person', $1::uuid, 'connection', 'read') RETURNING id`,
      [people.other.id],
    );
    const response = await call('delegate', 'PATCH', `/api/db/permissions?id=eq.${rows[0].id}`, {
      action: '*',
    });
    expect(response.statusCode).toBe(403);
    const stored = await full.db.pool.query(`SELECT action FROM permissions WHERE id = $1`, [rows[0].id]);
    expect(stored.rows).toEqual([{ action: 'read' }]);
  });

  it('may give a role it covers, never admin', async () => {
    const viewer = await call('delegate', 'POST', `/api/rbac/${people.other.id}/update_role`, {
      roles: ['viewer', 'responder'],
    });
    expect(viewer.statusCode).toBe(200);
    expect(await rolesOf(people.other.id)).toEqual(['responder', 'viewer']);
    const admin = await call('delegate', 'POST', `/api/rbac/${people.delegate.id}/update_role`, {
      roles: ['admin', 'editor'],
    });
    expect(admin.statusCode).toBe(403);
    expect(admin.json().error).toContain('role admin');
    const demote = await call('delegate', 'POST', `/api/rbac/${people.admin.id}/update_role`, {
      roles: ['viewer'],
    });
    expect(demote.statusCode).toBe(403);
    expect(await rolesOf(people.delegate.id)).toEqual(['editor']);
    expect(await rolesOf(people.admin.id)).toEqual(['admin']);
  });
});

describe('permissions owned by YAML are read-only through the API', () => {
  it('refuses PATCH and DELETE even for an admin, and leaves the row', async () => {
    const { rows } = await full.db.pool.query<{ id: string }>(
      `INSERT INTO permissions (name, subject, subject_type, object, action, source)
       VALUES ('from-file', 'viewer', 'group', 'canaries', 'read', 'file:/etc/opsdeck/perm.yaml')
       RETURNING id`,
    );
    const id = rows[0].id;
    const patch = await call('admin', 'PATCH', `/api/db/permissions?id=eq.${id}`, { action: 'read,update' });
    expect(patch.statusCode).toBe(403);
    expect(patch.json().message).toContain('read-only');
    const remove = await call('admin', 'DELETE', `/api/db/permissions?id=eq.${id}`);
    expect(remove.statusCode).toBe(403);
    const stored = await full.db.pool.query(`SELECT action, deleted_at FROM permissions WHERE id = $1`, [id]);
    expect(stored.rows).toEqual([{ action: 'read', deleted_at: null }]);
  });
});

describe('authorship cannot be forged', () => {
  it('created_by is the caller on insert and stays on update', async () => {
    const incident = await call('responder', 'POST', '/api/db/incidents', {
      title: 'Forged authorship',
      type: 'availability',
      severity: 'high',
      created_by: people.admin.id,
    });
    expect(incident.statusCode, incident.body).toBe(201);
    const created = incident.json()[0] as { id: string; created_by: string };
    expect(created.created_by).toBe(people.responder.id);

    const comment = await call('responder', 'POST', '/api/db/comments', {
      incident_id: created.id,
      comment: 'said by someone else?',
      created_by: people.admin.id,
    });
    expect(comment.statusCode).toBe(201);
    const commentRow = comment.json()[0] as { id: string; created_by: string };
    expect(commentRow.created_by).toBe(people.responder.id);

    const rewrite = await call('admin', 'PATCH', `/api/db/comments?id=eq.${commentRow.id}`, {
      created_by: people.admin.id,
      comment: 'edited',
    });
    expect(rewrite.statusCode).toBe(200);
    expect(rewrite.json()[0]).toMatchObject({ created_by: people.responder.id, comment: 'edited' });

    const hypothesis = await call('responder', 'POST', '/api/db/hypotheses', {
      incident_id: created.id,
      title: 'A cause',
      type: 'root',
      created_by: people.admin.id,
    });
    expect(hypothesis.statusCode).toBe(201);
    expect(hypothesis.json()[0].created_by).toBe(people.responder.id);
  });

  it('updated_by of a permission is the caller', async () => {
    const created = await call('admin', 'POST', '/api/db/permissions', {
      subject: 'guest',
      subject_type: 'group',
      object: 'canaries',
      action: 'read',
      created_by: people.other.id,
      updated_by: people.other.id,
    });
    expect(created.statusCode).toBe(201);
    const row = created.json()[0] as { id: string; created_by: string };
    expect(row.created_by).toBe(people.admin.id);
    const updated = await call('admin', 'PATCH', `/api/db/permissions?id=eq.${row.id}`, {
      description: 'guests see checks',
      updated_by: people.other.id,
    });
    expect(updated.json()[0]).toMatchObject({ created_by: people.admin.id, updated_by: people.admin.id });
  });
});
