import { dataApiAllowlistInput } from '../../modules.js';
import { ROLES, type Role } from '@opsdeck/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import {
  bearer,
  buildAuthTestApp,
  createTestPerson,
  createTestToken,
  type TestApp,
} from './test-fixtures/auth-test-app.js';
import { matrixAllows, specResourceOf } from './test-fixtures/role-matrix.js';

/**
 * Every role × every data-API relation (tables and views of the default allowlist) × read/write,
 * against the real data API behind createDataApiAuthorizer: each cell gets exactly the answer of
 * the spec core §6 matrix for the relation's resource, both read from the spec by the test's own
 * tables (test-fixtures/role-matrix.ts), never from the contracts' tables the server decides with.
 */

let db: TestDatabase;
let testApp: TestApp;
const tokens = {} as Record<Role, string>;

const tables = Object.entries(dataApiAllowlistInput.tables ?? {});
const views = Object.keys(dataApiAllowlistInput.views ?? {});
const functionsInput = dataApiAllowlistInput.functions ?? [];
const functions: readonly string[] = Array.isArray(functionsInput)
  ? functionsInput
  : Object.keys(functionsInput);
const hiddenEverywhere = new Set(dataApiAllowlistInput.hiddenEverywhere ?? []);
const DEFAULT_TABLE_ACTIONS = ['read', 'insert', 'update', 'delete'];

/** A visible column of each relation, to write a filter with (the data API wants one on PATCH/DELETE). */
const filterColumn = new Map<string, string>();

beforeAll(async () => {
  db = await createTestDatabase();
  testApp = await buildAuthTestApp(db.pool);
  for (const role of ROLES) {
    const person = await createTestPerson(db.pool, { roles: [role] });
    tokens[role] = await createTestToken(db.pool, person.id);
  }
  const { rows } = await db.pool.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
  );
  for (const [name, policy] of tables) {
    const hidden = new Set([...hiddenEverywhere, ...(policy.hiddenColumns ?? [])]);
    const column = rows.find((row) => row.table_name === name && !hidden.has(row.column_name));
    if (column) filterColumn.set(name, column.column_name);
  }
});

afterAll(async () => {
  await testApp?.app.close();
  await db?.close();
});

/** Relations of the allowlist that the schema has (some views come with later migrations). */
const existing = new Set<string>();

async function loadExisting(): Promise<void> {
  const { rows } = await db.pool.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`,
  );
  for (const row of rows) existing.add(row.table_name);
}

describe('every role × data-API relation × read/write', () => {
  const writable = tables.filter(([, policy]) =>
    (policy.actions ?? DEFAULT_TABLE_ACTIONS).some((action) => action !== 'read'),
  );

  it.each(ROLES)('%s reads every relation as the matrix says', async (role) => {
    if (existing.size === 0) await loadExisting();
    const relations = [...tables.map(([name]) => name), ...views].filter((name) => existing.has(name));
    expect(relations.length).toBeGreaterThan(50);
    const wrong: string[] = [];
    for (const relation of relations) {
      const response = await testApp.app.inject({
        method: 'GET',
        url: `/api/db/${relation}?limit=0`,
        headers: bearer(tokens[role]),
      });
      const resource = specResourceOf(relation, 'read');
      if (!resource) {
        wrong.push(`${relation}: not placed in the spec's resources (test-fixtures/role-matrix.ts)`);
        continue;
      }
      const allowed = matrixAllows(role, resource, 'read');
      if (response.statusCode !== (allowed ? 200 : 403))
        wrong.push(
          `${relation}: expected ${allowed ? 200 : 403}, got ${response.statusCode} ${response.body}`,
        );
    }
    for (const fn of functions) {
      const response = await testApp.app.inject({
        method: 'POST',
        url: `/api/db/rpc/${fn}`,
        headers: { ...bearer(tokens[role]), 'content-type': 'application/json' },
        payload: '{}',
      });
      const resource = specResourceOf(fn, 'read');
      if (!resource) {
        wrong.push(`rpc/${fn}: not placed in the spec's resources (test-fixtures/role-matrix.ts)`);
        continue;
      }
      // Without arguments an allowed call may still be refused as a bad call, never as forbidden.
      const allowed = matrixAllows(role, resource, 'read');
      const ok = allowed
        ? response.statusCode !== 403 && response.statusCode !== 401
        : response.statusCode === 403;
      if (!ok) wrong.push(`rpc/${fn}: expected ${allowed ? 'not 403' : 403}, got ${response.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });

  it.each(ROLES)('%s writes every writable table as the matrix says', async (role) => {
    if (existing.size === 0) await loadExisting();
    const wrong: string[] = [];
    let checked = 0;
    for (const [relation, policy] of writable) {
      if (!existing.has(relation)) continue;
      const column = filterColumn.get(relation);
      if (!column) {
        wrong.push(`${relation}: no visible column to filter on`);
        continue;
      }
      const method = (policy.actions ?? DEFAULT_TABLE_ACTIONS).includes('delete') ? 'DELETE' : 'PATCH';
      // A filter that matches no row: an allowed write changes nothing, a refused one never runs.
      const response = await testApp.app.inject({
        method,
        url: `/api/db/${relation}?${column}=is.null&${column}=not.is.null`,
        headers: { ...bearer(tokens[role]), 'content-type': 'application/json' },
        ...(method === 'PATCH' ? { payload: { [column]: null } } : {}),
      });
      checked += 1;
      const resource = specResourceOf(relation, 'write');
      if (!resource) {
        wrong.push(`${relation}: not placed in the spec's resources (test-fixtures/role-matrix.ts)`);
        continue;
      }
      const allowed = matrixAllows(role, resource, 'write');
      const ok = allowed ? response.statusCode < 300 : response.statusCode === 403;
      if (!ok)
        wrong.push(
          `${relation} (${method}): expected ${allowed ? '2xx' : 403}, got ${response.statusCode} ${response.body}`,
        );
    }
    expect(checked).toBeGreaterThan(25);
    expect(wrong).toEqual([]);
  });
});

describe('a PATCH with an empty body', () => {
  it('is authorized like any write: refused for a viewer, a no-op for an admin', async () => {
    const request = (role: Role) =>
      testApp.app.inject({
        method: 'PATCH',
        url: '/api/db/connections?id=not.is.null',
        headers: { ...bearer(tokens[role]), 'content-type': 'application/json' },
        payload: {},
      });
    const viewer = await request('viewer');
    expect(viewer.statusCode).toBe(403);
    expect(viewer.json()).toMatchObject({ code: '42501' });
    const admin = await request('admin');
    expect(admin.statusCode).toBeLessThan(300);
  });
});
