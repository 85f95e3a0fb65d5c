import { dataApiAllowlist } from '../../modules.js';
import { relationAccess, ROLES, TOKEN_SCOPE_ACTIONS, type Role } from '@opsdeck/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { mcpRoutes } from '../mcp/index.js';
import { accessProbes, runProbes, wrongCells, type Probe } from './test-fixtures/access-probes.js';
import {
  bearer,
  buildAuthTestApp,
  createTestPerson,
  TestBrowser,
  type TestApp,
} from './test-fixtures/auth-test-app.js';
import { matrixAllows } from './test-fixtures/role-matrix.js';

/**
 * Access tokens with narrower scopes (settings §3): every scope × every door of the app (each
 * data-API relation read, each write verb of each writable table, requirePermission routes per
 * resource and per scope object, playbook verbs, the MCP endpoint), through real HTTP with
 * tokens made by POST /api/auth/create_token. Each cell must get exactly what the scope and the
 * owner's roles together allow: a scope never widens the owner's rights.
 */

interface Scope {
  object: string;
  action: string;
}

/** The scopes of settings §3, from the spec's words: read/create/update/delete for all, playbook verbs, mcp only '*'. */
const CRUD = ['read', 'create', 'update', 'delete'];
const SPEC_SCOPES: Scope[] = [
  { object: 'mcp', action: '*' },
  ...['canaries', 'catalog', 'application', 'playbooks', 'notification'].flatMap((object) =>
    CRUD.map((action) => ({ object, action })),
  ),
  { object: 'playbooks', action: 'playbook:approve' },
  { object: 'playbooks', action: 'playbook:run' },
];

/**
 * Whether scopes cover what a probe asks: the probe's object must be a scoped one; a matrix
 * `write` (custom routes) needs create, update and delete of that object together (one scope
 * each); the MCP endpoint needs mcp:*.
 */
function scopesCover(scopes: readonly Scope[], probe: Probe): boolean {
  const actions = new Set(
    scopes.filter((scope) => scope.object === probe.object).map((scope) => scope.action),
  );
  if (probe.kind === 'mcp') return actions.has('*');
  if (probe.action === 'write') return ['create', 'update', 'delete'].every((verb) => actions.has(verb));
  return actions.has(probe.action);
}

function ownerAllows(role: Role, probe: Probe): boolean {
  if (probe.kind === 'mcp') return true;
  return matrixAllows(role, probe.resource, probe.action === 'read' ? 'read' : 'write');
}

let db: TestDatabase;
let testApp: TestApp;
let probes: Probe[];
const browsers = {} as Record<Role, TestBrowser>;

async function createToken(role: Role, scope: readonly Scope[]): Promise<string> {
  const response = await browsers[role].post('/api/auth/create_token', {
    name: `scoped ${scope.map((entry) => `${entry.object}:${entry.action}`).join(' ')}`,
    expiry: 'never',
    scope: scope.map((entry) => ({ subject: '', ...entry })),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ payload: { token: string } }>().payload.token;
}

beforeAll(async () => {
  db = await createTestDatabase();
  testApp = await buildAuthTestApp(db.pool, {
    register: async (app) => {
      await app.register(mcpRoutes, { pool: db.pool, allowlist: dataApiAllowlist });
    },
  });
  for (const role of ROLES) {
    const person = await createTestPerson(db.pool, { roles: [role] });
    browsers[role] = new TestBrowser(testApp.app);
    expect((await browsers[role].signIn(person.email, person.password)).statusCode).toBe(200);
  }
  probes = await accessProbes(db.pool, { mcp: true });
});

afterAll(async () => {
  await testApp?.app.close();
  await db?.close();
});

describe('the scopes of settings §3', () => {
  it('are exactly the ones create_token accepts; others are refused with the field', async () => {
    const fromContracts = Object.entries(TOKEN_SCOPE_ACTIONS).flatMap(([object, actions]) =>
      actions.map((action) => ({ object, action })),
    );
    expect(fromContracts).toEqual(expect.arrayContaining(SPEC_SCOPES));
    expect(fromContracts).toHaveLength(SPEC_SCOPES.length);
    const refused: Scope[] = [
      { object: 'mcp', action: 'read' },
      { object: 'canaries', action: '*' },
      { object: 'catalog', action: 'playbook:run' },
      { object: 'incident', action: 'read' },
      { object: 'playbooks', action: 'playbook:*' },
    ];
    for (const scope of refused) {
      const response = await browsers.admin.post('/api/auth/create_token', {
        name: 'bad',
        scope: [{ subject: '', ...scope }],
      });
      expect(response.statusCode, `${scope.object}:${scope.action}`).toBe(400);
      expect(response.json<{ field: string }>().field).toMatch(/^scope/);
    }
  });

  it('map to the data-API relations of their areas', () => {
    const expectedObjects: Record<string, string | undefined> = {
      checks: 'canaries',
      check_statuses: 'canaries',
      canaries: 'canaries',
      configs: 'catalog',
      config_items: 'catalog',
      config_changes: 'catalog',
      config_scrapers: 'catalog',
      applications: 'application',
      playbooks: 'playbooks',
      playbook_runs: 'playbooks',
      playbook_approvals: 'playbooks',
      notifications: 'notification',
      notification_silences: 'notification',
      incidents: 'incident',
      people: 'people',
      teams: undefined,
    };
    for (const [relation, object] of Object.entries(expectedObjects))
      expect(relationAccess(relation).object, relation).toBe(object);
    const scoped = probes.filter((probe) => probe.kind === 'data' && probe.action === 'read');
    for (const object of ['canaries', 'catalog', 'application', 'playbooks', 'notification'])
      expect(
        scoped.some((probe) => probe.object === object),
        object,
      ).toBe(true);
  });
});

describe("an admin's token with one scope (or one scope object's set) × every door", () => {
  const scopeSets: Scope[][] = [
    ...SPEC_SCOPES.map((scope) => [scope]),
    // A matrix write on a custom route needs create, update and delete of the object together.
    ['create', 'update', 'delete'].map((action) => ({ object: 'canaries', action })),
    ['create', 'update', 'delete'].map((action) => ({ object: 'catalog', action })),
    [
      { object: 'playbooks', action: 'playbook:run' },
      { object: 'playbooks', action: 'playbook:approve' },
    ],
  ];

  it.each(
    scopeSets.map((scopes) => ({ name: scopes.map((s) => `${s.object}:${s.action}`).join(','), scopes })),
  )('$name', async ({ scopes }) => {
    const token = await createToken('admin', scopes);
    const results = await runProbes(testApp.app, probes, bearer(token));
    const expected = (probe: Probe) => scopesCover(scopes, probe);
    expect(wrongCells(results, expected)).toEqual([]);
    // The admin may do everything: every refusal is the scope's.
    for (const { probe, body } of results.filter((result) => !expected(result.probe)))
      expect(body, probe.label).toMatch(/token's scope does not allow/);
    expect(results.filter((result) => expected(result.probe)).length).toBeGreaterThan(0);
  });
});

describe("every role's token with every scope: the owner's rights still limit it", () => {
  it.each(ROLES)('%s', async (role) => {
    const token = await createToken(role, SPEC_SCOPES);
    const results = await runProbes(testApp.app, probes, bearer(token));
    expect(
      wrongCells(results, (probe) => ownerAllows(role, probe) && scopesCover(SPEC_SCOPES, probe)),
    ).toEqual([]);
    if (role === 'viewer' || role === 'guest') {
      // A write scope on every object, yet not one write gets through.
      const writes = results.filter(({ probe }) => probe.action !== 'read' && probe.kind !== 'mcp');
      expect(writes.length).toBeGreaterThan(40);
      expect(writes.every(({ status }) => status === 403)).toBe(true);
    }
  });

  it('a token sent as Basic token:<token> is limited the same way', async () => {
    const token = await createToken('editor', [{ object: 'catalog', action: 'read' }]);
    const basic = { authorization: `Basic ${Buffer.from(`token:${token}`).toString('base64')}` };
    const results = await runProbes(testApp.app, probes, basic);
    expect(
      wrongCells(
        results,
        (probe) =>
          ownerAllows('editor', probe) && scopesCover([{ object: 'catalog', action: 'read' }], probe),
      ),
    ).toEqual([]);
  });
});
