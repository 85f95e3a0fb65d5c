import { type Role } from '@opsdeck/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { CSRF_COOKIE, CSRF_HEADER } from './http.js';
import { accessProbes, runProbes, wrongCells, type Probe } from './test-fixtures/access-probes.js';
import {
  buildAuthTestApp,
  createTestPerson,
  TestBrowser,
  type TestApp,
} from './test-fixtures/auth-test-app.js';
import { matrixAllows } from './test-fixtures/role-matrix.js';

/**
 * A deny permission (settings §3) over a role that allows: for every global resource kind and
 * every action a deny can name, a deny row for a signed-in admin refuses exactly the doors of
 * that object and action (data-API relations and verbs, requirePermission routes, playbook
 * verbs) and leaves every other door as the role matrix says; with `until` in the future it
 * still denies, once `until` has passed it lapses. Then the subjects: person (by id and by
 * email), team (by id and by name) and role.
 */

/** Global resource kinds of settings §3. */
const OBJECTS = [
  'canaries',
  'catalog',
  'incident',
  'people',
  'topology',
  'playbooks',
  'connection',
  'connection-detail',
  'agent-push',
  'kubernetes-proxy',
  'notification',
  'rbac',
  'logs',
  'agent',
  'artifact',
];
const CRUD = ['create', 'read', 'update', 'delete'];
const PLAYBOOK_VERBS = ['playbook:run', 'playbook:approve'];

/** The elementary actions a deny's action string names (settings §3 actions). */
function denied(action: string): Set<string> {
  const result = new Set<string>();
  for (const part of action.split(',')) {
    if (part === '*') [...CRUD, ...PLAYBOOK_VERBS].forEach((verb) => result.add(verb));
    else if (part === 'playbook:*') PLAYBOOK_VERBS.forEach((verb) => result.add(verb));
    else result.add(part);
  }
  return result;
}

/** Whether a deny of `object`/`action` refuses a probe: a matrix write falls to a deny of any write verb. */
function denyCovers(object: string, action: string, probe: Probe): boolean {
  if (probe.object !== object) return false;
  const verbs = denied(action);
  if (probe.action === 'write') return ['create', 'update', 'delete'].some((verb) => verbs.has(verb));
  return verbs.has(probe.action);
}

function roleAllows(role: Role, probe: Probe): boolean {
  return matrixAllows(role, probe.resource, probe.action === 'read' ? 'read' : 'write');
}

let db: TestDatabase;
let testApp: TestApp;
let probes: Probe[];

/** A signed-in person of a role, and the headers its browser sends (session cookie and CSRF header). */
async function signedIn(role: Role): Promise<{ id: string; email: string; headers: Record<string, string> }> {
  const person = await createTestPerson(db.pool, { roles: [role] });
  const browser = new TestBrowser(testApp.app);
  expect((await browser.signIn(person.email, person.password)).statusCode).toBe(200);
  return {
    id: person.id,
    email: person.email,
    headers: { cookie: browser.cookieHeader(), [CSRF_HEADER]: browser.cookies.get(CSRF_COOKIE) ?? '' },
  };
}

beforeAll(async () => {
  db = await createTestDatabase();
  testApp = await buildAuthTestApp(db.pool);
  probes = await accessProbes(db.pool);
});

afterAll(async () => {
  await testApp?.app.close();
  await db?.close();
});

describe('a deny on a signed-in admin × every door', () => {
  const cells = [
    ...OBJECTS.flatMap((object) =>
      ['read', 'create', 'update', 'delete', '*'].map((action) => ({ object, action })),
    ),
    ...['playbook:run', 'playbook:approve', 'playbook:*', 'create,read,update,delete'].map((action) => ({
      object: 'playbooks',
      action,
    })),
  ];
  let admin: Awaited<ReturnType<typeof signedIn>>;

  beforeAll(async () => {
    admin = await signedIn('admin');
  });

  it('allows every door before any deny', async () => {
    const results = await runProbes(testApp.app, probes, admin.headers);
    expect(results.length).toBeGreaterThan(150);
    expect(wrongCells(results, () => true)).toEqual([]);
  });

  it.each(cells)('deny $object $action', async ({ object, action }) => {
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO permissions (subject_type, person_id, object, action, deny) VALUES ('person', $1, $2, $3, true) RETURNING id`,
      [admin.id, object, action],
    );
    const id = rows[0]?.id;
    try {
      const expected = (probe: Probe) => !denyCovers(object, action, probe);
      const results = await runProbes(testApp.app, probes, admin.headers);
      expect(wrongCells(results, expected, /permission denies/)).toEqual([]);

      const deniedProbes = probes.filter((probe) => !expected(probe));
      // Kinds no door of this app falls under, and writes of the read-only artifacts, deny
      // nothing; every other cell denies something.
      const nothingToDeny =
        ['connection-detail', 'agent-push', 'kubernetes-proxy'].includes(object) ||
        (object === 'artifact' && ['create', 'update', 'delete'].includes(action));
      expect(deniedProbes.length > 0, `${object} ${action}`).toBe(!nothingToDeny);

      await db.pool.query(`UPDATE permissions SET until = now() + interval '1 hour' WHERE id = $1`, [id]);
      const stillDenied = await runProbes(testApp.app, deniedProbes, admin.headers);
      expect(wrongCells(stillDenied, () => false, /permission denies/)).toEqual([]);

      await db.pool.query(`UPDATE permissions SET until = now() - interval '1 second' WHERE id = $1`, [id]);
      const lapsed = await runProbes(testApp.app, deniedProbes, admin.headers);
      expect(wrongCells(lapsed, () => true)).toEqual([]);
    } finally {
      await db.pool.query('DELETE FROM permissions WHERE id = $1', [id]);
    }
  });
});

describe('deny subjects: a deny of canaries (all actions) reaches whom it names and nobody else', () => {
  const cases: {
    name: string;
    role: Role;
    insert: (target: { id: string; email: string }, teamId: string) => [string, unknown[]];
  }[] = [
    {
      name: 'person by id',
      role: 'editor',
      insert: (target) => [
        `INSERT INTO permissions (subject_type, person_id, object, action, deny) VALUES ('person', $1, 'canaries', '*', true) RETURNING id`,
        [target.id],
      ],
    },
    {
      name: 'person by email',
      role: 'editor',
      insert: (target) => [
        `INSERT INTO permissions (subject_type, subject, object, action, deny) VALUES ('person', $1, 'canaries', '*', true) RETURNING id`,
        [target.email],
      ],
    },
    {
      name: 'team by id',
      role: 'admin',
      insert: (_target, teamId) => [
        `INSERT INTO permissions (subject_type, team_id, object, action, deny) VALUES ('team', $1, 'canaries', '*', true) RETURNING id`,
        [teamId],
      ],
    },
    {
      name: 'team by name',
      role: 'admin',
      insert: (_target, teamId) => [
        `INSERT INTO permissions (subject_type, subject, object, action, deny)
         SELECT 'team', name, 'canaries', '*', true FROM teams WHERE id = $1 RETURNING id`,
        [teamId],
      ],
    },
    {
      name: 'role',
      role: 'responder',
      insert: () => [
        `INSERT INTO permissions (subject_type, subject, object, action, deny) VALUES ('group', 'responder', 'canaries', '*', true) RETURNING id`,
        [],
      ],
    },
  ];

  it.each(cases)('$name', async ({ role, insert }) => {
    const target = await signedIn(role);
    // Same role, not in the team, not named: the deny must not reach them (unless it names the role).
    const bystander = await signedIn(role);
    const team = await db.pool.query<{ id: string }>(`INSERT INTO teams (name) VALUES ($1) RETURNING id`, [
      `deny-team-${target.id.slice(0, 8)}`,
    ]);
    const teamId = team.rows[0]?.id as string;
    await db.pool.query('INSERT INTO team_members (team_id, person_id) VALUES ($1, $2)', [teamId, target.id]);
    const [sql, values] = insert(target, teamId);
    const { rows } = await db.pool.query<{ id: string }>(sql, values);
    expect(rows).toHaveLength(1);
    try {
      const deniedCanaries = (probe: Probe) => probe.object === 'canaries';
      const results = await runProbes(testApp.app, probes, target.headers);
      expect(wrongCells(results, (probe) => roleAllows(role, probe) && !deniedCanaries(probe))).toEqual([]);
      const other = await runProbes(testApp.app, probes, bystander.headers);
      const namesTheRole = sql.includes("'group'");
      expect(
        wrongCells(other, (probe) => roleAllows(role, probe) && !(namesTheRole && deniedCanaries(probe))),
      ).toEqual([]);
    } finally {
      await db.pool.query('DELETE FROM permissions WHERE id = $1', [rows[0]?.id]);
    }
  });
});
