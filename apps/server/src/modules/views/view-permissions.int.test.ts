/**
 * Row-level permissions of views (issue 28, ADR 0040): a permission row whose object selector
 * names views (`views: [{name, namespace, labelSelector}]`) grants a person without roles the
 * views it matches, or (deny) hides them from a person whose roles read every view: on
 * `POST /api/view/{id}`, `POST /api/view/{id}/rows`, `GET /api/view/list`, and through the data
 * API on `views`, `views_summary` (the sidebar) and the view's own table `view_<ns>_<name>`.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfigItem, createPerson } from '../../../test/harness/factories.js';
import { startFullApp, type FullApp } from '../../../test/harness/full-app.js';
import { createTokenForUser } from '../auth/index.js';

let full: FullApp;
const ids: Record<'ops' | 'finance', string> = { ops: '', finance: '' };
let configId = '';
const fingerprints: Record<'ops' | 'finance', string> = { ops: '', finance: '' };
let adminToken = '';

const spec = (title: string) => ({
  display: { title, sidebar: true, plugins: [{ configTab: { types: ['Permissions::Item'] } }] },
  queries: { items: { configs: { types: ['Permissions::Item'] } } },
  columns: [
    { name: 'name', type: 'string', primaryKey: true },
    { name: 'health', type: 'health', filterable: true },
  ],
});

async function call(token: string, method: 'GET' | 'POST', url: string, payload?: unknown) {
  return full.app.inject({
    method,
    url,
    payload: payload === undefined ? undefined : JSON.stringify(payload),
    headers: {
      authorization: `Bearer ${token}`,
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    },
  });
}

interface Grant {
  deny?: boolean;
  objectSelector: Record<string, unknown>;
}

async function tokenWith(roles: string[], grants: Grant[]): Promise<string> {
  const person = await createPerson(full.db.pool, { roles: roles as never });
  for (const grant of grants)
    await full.db.pool.query(
      `INSERT INTO permissions (subject, subject_type, person_id, action, deny, object_selector)
       VALUES ($1::text, 'person', $1::uuid, 'read', $2, $3)`,
      [person.id, grant.deny ?? false, JSON.stringify(grant.objectSelector)],
    );
  return createTokenForUser(full.db.pool, { email: person.email as string, name: 'views' });
}

const namesOf = (body: unknown) => (body as Array<{ name: string }>).map((row) => row.name).sort();

beforeAll(async () => {
  full = await startFullApp('Views Permissions Admin');
  const admin = await createPerson(full.db.pool, { roles: ['admin'] });
  adminToken = await createTokenForUser(full.db.pool, { email: admin.email as string, name: 'admin' });
  const config = await createConfigItem(full.db.pool, { name: 'item-1', type: 'Permissions::Item' });
  configId = String(config.id);
  await createConfigItem(full.db.pool, { name: 'item-2', type: 'Permissions::Item', health: 'unhealthy' });
  for (const [key, namespace, name, labels] of [
    ['ops', 'ops', 'pods', { team: 'ops' }],
    ['finance', 'finance', 'costs', { team: 'finance' }],
  ] as const) {
    const created = await call(adminToken, 'POST', '/api/db/views', {
      name,
      namespace,
      labels,
      spec: spec(`${name} view`),
    });
    expect(created.statusCode, created.body).toBe(201);
    const row = await full.db.pool.query<{ id: string }>(
      'SELECT id FROM views WHERE namespace = $1 AND name = $2',
      [namespace, name],
    );
    ids[key] = row.rows[0].id;
    const ran = await call(adminToken, 'POST', `/api/view/${ids[key]}`, {});
    expect(ran.statusCode, ran.body).toBe(200);
    fingerprints[key] = (ran.json() as { requestFingerprint: string }).requestFingerprint;
  }
});

afterAll(async () => {
  await full?.close();
});

describe('a views selector grants a person without roles the views it names', () => {
  let token = '';
  beforeAll(async () => {
    token = await tokenWith([], [{ objectSelector: { views: [{ namespace: 'ops', name: 'pod*' }] } }]);
  });

  it('runs and pages the named view', async () => {
    const ran = await call(token, 'POST', `/api/view/${ids.ops}`, {});
    expect(ran.statusCode, ran.body).toBe(200);
    expect((ran.json() as { rows: unknown[] }).rows).toHaveLength(2);
    const page = await call(token, 'POST', `/api/view/${ids.ops}/rows`, {
      requestFingerprint: fingerprints.ops,
    });
    expect(page.statusCode, page.body).toBe(200);
    expect((page.json() as { rows: unknown[] }).rows).toHaveLength(2);
  });

  it('refuses the view it does not name, on every views route', async () => {
    const ran = await call(token, 'POST', `/api/view/${ids.finance}`, {});
    expect(ran.statusCode).toBe(403);
    expect(ran.json()).toMatchObject({ error: `You are not allowed to read the view ${ids.finance}` });
    const page = await call(token, 'POST', `/api/view/${ids.finance}/rows`, {
      requestFingerprint: fingerprints.finance,
    });
    expect(page.statusCode).toBe(403);
  });

  it('lists only the named view for a config item and in the sidebar', async () => {
    const list = await call(token, 'GET', `/api/view/list?config_id=${configId}`);
    expect(list.statusCode, list.body).toBe(200);
    expect(namesOf(list.json())).toEqual(['pods']);
    const sidebar = await call(token, 'GET', '/api/db/views_summary?select=name&sidebar=is.true');
    expect(sidebar.statusCode, sidebar.body).toBe(200);
    expect(namesOf(sidebar.json())).toEqual(['pods']);
    const views = await call(token, 'GET', '/api/db/views?select=name,spec');
    expect(namesOf(views.json())).toEqual(['pods']);
  });

  it("reads the named view's table through the data API, and nothing of the other's", async () => {
    const own = await call(token, 'GET', `/api/db/view_ops_pods?request_fingerprint=eq.${fingerprints.ops}`);
    expect(own.statusCode, own.body).toBe(200);
    expect(namesOf(own.json())).toEqual(['item-1', 'item-2']);
    const other = await call(token, 'GET', '/api/db/view_finance_costs');
    expect(other.statusCode, other.body).toBe(200);
    expect(other.json()).toEqual([]);
  });
});

describe('a views selector by labels denies a viewer the views it names', () => {
  let token = '';
  beforeAll(async () => {
    token = await tokenWith(
      ['viewer'],
      [{ deny: true, objectSelector: { views: [{ labelSelector: 'team=finance' }] } }],
    );
  });

  it('hides the denied view on every read and keeps the others', async () => {
    expect((await call(token, 'POST', `/api/view/${ids.ops}`, {})).statusCode).toBe(200);
    expect((await call(token, 'POST', `/api/view/${ids.finance}`, {})).statusCode).toBe(403);
    const page = await call(token, 'POST', `/api/view/${ids.finance}/rows`, {
      requestFingerprint: fingerprints.finance,
    });
    expect(page.statusCode).toBe(403);
    const list = await call(token, 'GET', `/api/view/list?config_id=${configId}`);
    expect(namesOf(list.json())).toEqual(['pods']);
    const sidebar = await call(token, 'GET', '/api/db/views_summary?select=name');
    expect(namesOf(sidebar.json())).toEqual(['pods']);
    const rows = await call(token, 'GET', '/api/db/view_finance_costs?select=name');
    expect(rows.statusCode, rows.body).toBe(200);
    expect(rows.json()).toEqual([]);
    const own = await call(token, 'GET', '/api/db/view_ops_pods?select=name');
    expect(namesOf(own.json())).toEqual(['item-1', 'item-2']);
  });

  it('a viewer without the deny row reads both', async () => {
    const viewer = await tokenWith(['viewer'], []);
    expect((await call(viewer, 'POST', `/api/view/${ids.finance}`, {})).statusCode).toBe(200);
    const rows = await call(viewer, 'GET', '/api/db/view_finance_costs?select=name');
    expect(namesOf(rows.json())).toEqual(['item-1', 'item-2']);
  });
});

describe('a person without roles or views permission rows', () => {
  it('is refused the views routes', async () => {
    const token = await tokenWith([], []);
    expect((await call(token, 'POST', `/api/view/${ids.ops}`, {})).statusCode).toBe(403);
    expect((await call(token, 'GET', `/api/view/list?config_id=${configId}`)).statusCode).toBe(403);
  });
});

describe('a view table made before view_id existed (migration 0421)', () => {
  it('gets the column filled with its view, so a selector grant reads its rows', async () => {
    const created = await call(adminToken, 'POST', '/api/db/views', {
      name: 'old',
      namespace: 'legacy',
      spec: spec('old view'),
    });
    expect(created.statusCode, created.body).toBe(201);
    const { rows } = await full.db.pool.query<{ id: string }>(
      `SELECT id FROM views WHERE namespace = 'legacy' AND name = 'old'`,
    );
    const viewId = rows[0].id;
    // The layout of view tables before ADR 0040: no view_id column.
    await full.db.pool.query(
      `CREATE TABLE view_legacy_old (request_fingerprint text NOT NULL, agent_id uuid, name text NOT NULL,
         health text, PRIMARY KEY (request_fingerprint, name));
       INSERT INTO view_legacy_old VALUES ('fp', NULL, 'legacy-row', 'healthy')`,
    );
    await full.db.pool.query(
      `INSERT INTO view_tables (view_id, table_name, shape) VALUES ($1, 'view_legacy_old', 'v3')`,
      [viewId],
    );
    const token = await tokenWith([], [{ objectSelector: { views: [{ namespace: 'legacy' }] } }]);
    // Without the migration this read is a 500 (the row filter names a column the table lacks).
    const migration = await readFile(
      new URL('../../../migrations/0421_view_tables_carry_view_id.sql', import.meta.url),
      'utf8',
    );
    await full.db.pool.query(migration);
    // Run twice: a table that has the column is left alone.
    await full.db.pool.query(migration);

    const after = await call(token, 'GET', '/api/db/view_legacy_old?select=name');
    expect(after.statusCode, after.body).toBe(200);
    expect(namesOf(after.json())).toEqual(['legacy-row']);
    const other = await tokenWith([], [{ objectSelector: { views: [{ namespace: 'ops' }] } }]);
    const hidden = await call(other, 'GET', '/api/db/view_legacy_old?select=name');
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect(hidden.json()).toEqual([]);
  });
});
