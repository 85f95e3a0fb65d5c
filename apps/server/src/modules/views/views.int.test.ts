import { viewResultSchema, type ViewResult } from '@opsdeck/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheck, createConfigItem, createPerson } from '../../../test/harness/factories.js';
import { startFullApp, type FullApp } from '../../../test/harness/full-app.js';
import { createTokenForUser } from '../auth/index.js';
import { dropOrphanViewTables } from './view-service.js';

let full: FullApp;
const tokens: Record<string, string> = {};
let viewId: string;

const podsView = {
  display: { title: 'Pods and checks', icon: 'kubernetes', sidebar: true, ordinal: 1 },
  cache: { maxAge: '10m', minAge: '1m', refreshTimeout: '5s' },
  templating: [{ key: 'cluster', label: 'Cluster', values: ['alpha', 'beta'], default: 'alpha' }],
  queries: {
    pods: { configs: { types: ['Kubernetes::Pod'], tagSelector: 'cluster=$(var.cluster)' } },
    probes: { checks: { labelSelector: 'app=views-test' } },
  },
  columns: [
    { name: 'name', type: 'string', description: 'What the row is' },
    { name: 'source', type: 'badge', filter: { type: 'multiselect' } },
    { name: 'health', type: 'health', filterable: true },
    { name: 'cpu', type: 'number' },
    { name: 'created', type: 'datetime' },
    { name: 'hidden_id', type: 'string', hidden: true },
  ],
  mapping: {
    source: 'query',
    health: 'has(row.health) ? row.health : row.status',
    cpu: 'has(row.tags) && has(row.tags.cpu) ? double(row.tags.cpu) : 0.0',
    created: 'row.created_at',
    hidden_id: 'row.id',
  },
  panels: [
    {
      name: 'By health',
      type: 'piechart',
      query: 'SELECT health, count(*) AS count FROM rows GROUP BY health ORDER BY health',
    },
    { name: 'Total', type: 'number', query: 'SELECT count(*) AS value FROM rows' },
    { name: 'Secrets', type: 'table', query: 'SELECT * FROM people' },
  ],
};

async function call(role: string, method: 'GET' | 'POST', url: string, payload?: unknown) {
  return full.app.inject({
    method,
    url,
    payload: payload === undefined ? undefined : JSON.stringify(payload),
    headers: {
      authorization: `Bearer ${tokens[role]}`,
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      prefer: 'count=exact',
    },
  });
}

async function runView(
  variables: Record<string, string>,
  extra: Record<string, unknown> = {},
): Promise<ViewResult> {
  const response = await call('viewer', 'POST', `/api/view/${viewId}`, { variables, ...extra });
  expect(response.statusCode, response.body).toBe(200);
  return viewResultSchema.parse(response.json());
}

beforeAll(async () => {
  full = await startFullApp('Views Admin');
  for (const role of ['admin', 'viewer', 'none'] as const) {
    const person = await createPerson(full.db.pool, { roles: role === 'none' ? [] : [role] });
    tokens[role] = await createTokenForUser(full.db.pool, { email: person.email as string, name: role });
  }
  for (const [name, cluster, health, cpu] of [
    ['api-1', 'alpha', 'healthy', '2'],
    ['api-2', 'alpha', 'unhealthy', '1'],
    ['worker-1', 'beta', 'healthy', '4'],
  ] as const)
    await createConfigItem(full.db.pool, { name, health, tags: { cluster, cpu } });
  await createConfigItem(full.db.pool, {
    name: 'other',
    type: 'AWS::EC2::Instance',
    tags: { cluster: 'alpha' },
  });
  await createCheck(full.db.pool, { name: 'probe-http', status: 'healthy', labels: { app: 'views-test' } });
  const created = await full.send('POST', '/api/db/views', {
    name: 'pods-and-checks',
    namespace: 'test',
    spec: podsView,
  });
  expect(created.statusCode, created.body).toBe(201);
  viewId = (created.json() as Array<{ id: string }>)[0].id;
});

afterAll(async () => {
  await full?.close();
});

describe('a view over config items and checks', () => {
  let alpha: ViewResult;

  it('materialises the rows of each variable value under its own fingerprint', async () => {
    alpha = await runView({ cluster: 'alpha' });
    expect(alpha.title).toBe('Pods and checks');
    expect(alpha.table).toBe('view_test_pods_and_checks');
    const names = alpha.rows.map((row) => row[0]).sort();
    expect(names).toEqual(['api-1', 'api-2', 'probe-http']);
    const api1 = alpha.rows.find((row) => row[0] === 'api-1')!;
    expect(api1[1]).toBe('pods');
    expect(api1[2]).toBe('healthy');
    expect(api1[3]).toBe(2);
    expect(typeof api1[4]).toBe('string');
    expect(alpha.variables).toEqual([
      { key: 'cluster', label: 'Cluster', options: ['alpha', 'beta'], default: 'alpha', value: 'alpha' },
    ]);
    expect(alpha.columnOptions).toEqual({ source: ['pods', 'probes'], health: ['healthy', 'unhealthy'] });
    expect(alpha.panels[0]).toMatchObject({
      type: 'piechart',
      rows: [
        { health: 'healthy', count: 2 },
        { health: 'unhealthy', count: 1 },
      ],
    });
    expect(alpha.panels[1].rows).toEqual([{ value: 3 }]);
    // Panels read the view's rows only, never the product's own tables.
    expect(alpha.panels[2].rows).toEqual([]);
    expect(alpha.panels[2].error).toMatch(/permission denied/);

    const beta = await runView({ cluster: 'beta' });
    expect(beta.requestFingerprint).not.toBe(alpha.requestFingerprint);
    expect(beta.rows.map((row) => row[0]).sort()).toEqual(['probe-http', 'worker-1']);
    const { rows } = await full.db.pool.query(
      'SELECT request_fingerprint, count(*)::int AS n FROM view_test_pods_and_checks GROUP BY 1 ORDER BY 2',
    );
    expect(rows).toEqual([
      { request_fingerprint: beta.requestFingerprint, n: 2 },
      { request_fingerprint: alpha.requestFingerprint, n: 3 },
    ]);
    // The default value selects the same rows as naming it.
    expect((await runView({})).requestFingerprint).toBe(alpha.requestFingerprint);
  });

  it('serves cached rows until they are older than maxAge, then refreshes', async () => {
    await createConfigItem(full.db.pool, { name: 'api-3', health: 'healthy', tags: { cluster: 'alpha' } });
    const cached = await runView({ cluster: 'alpha' });
    expect(cached.rows).toHaveLength(3);
    expect(cached.lastRefreshedAt).toBe(alpha.lastRefreshedAt);
    // Younger than minAge: a refresh request does not run the queries again.
    expect((await runView({ cluster: 'alpha' }, { refresh: true })).rows).toHaveLength(3);
    await full.db.pool.query(
      `UPDATE view_refreshes SET refreshed_at = now() - interval '11 minutes' WHERE request_fingerprint = $1`,
      [alpha.requestFingerprint],
    );
    const refreshed = await runView({ cluster: 'alpha' });
    expect(refreshed.rows.map((row) => row[0]).sort()).toEqual(['api-1', 'api-2', 'api-3', 'probe-http']);
    expect(Date.parse(refreshed.lastRefreshedAt!)).toBeGreaterThan(Date.parse(alpha.lastRefreshedAt!));
    // The other fingerprint's rows were left alone.
    const { rows } = await full.db.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM view_test_pods_and_checks WHERE request_fingerprint <> $1',
      [alpha.requestFingerprint],
    );
    expect(rows[0].n).toBe(2);
  });

  it('is readable through the data API with filters, ordering, counts and permissions', async () => {
    const fp = alpha.requestFingerprint;
    const response = await call(
      'viewer',
      'GET',
      `/api/db/view_test_pods_and_checks?select=name,health,cpu&request_fingerprint=eq.${fp}&source=eq.pods&order=cpu.desc.nullslast&limit=2`,
    );
    expect(response.statusCode, response.body).toBe(206);
    expect(response.json()).toEqual([
      { name: 'api-1', health: 'healthy', cpu: 2 },
      { name: 'api-2', health: 'unhealthy', cpu: 1 },
    ]);
    expect(response.headers['content-range']).toBe('0-1/3');
    const filtered = await call(
      'viewer',
      'GET',
      `/api/db/view_test_pods_and_checks?select=name&request_fingerprint=eq.${fp}&health.filter=!unhealthy&name=like.api*&order=name`,
    );
    expect(filtered.json()).toEqual([{ name: 'api-1' }, { name: 'api-3' }]);
    // Without a role that reads views, nothing; and nobody writes a view's rows.
    expect((await call('none', 'GET', '/api/db/view_test_pods_and_checks')).statusCode).toBe(403);
    const write = await call('admin', 'POST', '/api/db/view_test_pods_and_checks', { name: 'x' });
    expect(write.statusCode).toBeGreaterThanOrEqual(400);
    expect(write.statusCode).toBeLessThan(500);
    const summary = await call(
      'viewer',
      'GET',
      `/api/db/views_summary?select=name,title,sidebar&id=eq.${viewId}`,
    );
    expect(summary.json()).toEqual([{ name: 'pods-and-checks', title: 'Pods and checks', sidebar: true }]);
  });

  it('recreates its table when its columns change', async () => {
    const spec = { ...podsView, columns: [...podsView.columns, { name: 'extra', type: 'boolean' }] };
    const patch = await full.send('PATCH', `/api/db/views?id=eq.${viewId}`, { spec });
    expect(patch.statusCode, patch.body).toBe(200);
    const result = await runView({ cluster: 'beta' });
    expect(result.columns.map((column) => column.name)).toContain('extra');
    expect(result.rows).toHaveLength(2);
    const read = await call(
      'viewer',
      'GET',
      `/api/db/view_test_pods_and_checks?select=name,extra&request_fingerprint=eq.${result.requestFingerprint}&order=name`,
    );
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual([
      { name: 'probe-http', extra: null },
      { name: 'worker-1', extra: null },
    ]);
  });
});

describe('bad requests and specs', () => {
  it('refuses a variable value the variable does not offer, and undeclared variables', async () => {
    const wrong = await call('viewer', 'POST', `/api/view/${viewId}`, { variables: { cluster: 'gamma' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ field: 'variables.cluster' });
    const unknown = await call('viewer', 'POST', `/api/view/${viewId}`, { variables: { zone: 'x' } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ field: 'variables.zone' });
    const missing = await call('viewer', 'POST', '/api/view/00000000-0000-0000-0000-00000000abcd', {});
    expect(missing.statusCode).toBe(404);
    const list = await call('viewer', 'GET', '/api/view/list?config_id=nope');
    expect(list.statusCode).toBe(400);
  });

  it.each([
    [{ ...podsView, columns: [{ name: 'name', type: 'colour' }] }, 'spec.columns[0].type'],
    [{ ...podsView, columns: [{ name: 'Bad Name', type: 'string' }] }, 'spec.columns[0].name'],
    [{ ...podsView, queries: { pods: {} } }, 'spec.queries.pods'],
    [{ ...podsView, queries: { 'Bad-Name': { configs: { types: ['x'] } } } }, 'spec.queries.Bad-Name'],
    [{ ...podsView, mapping: { nope: 'row.name' } }, 'spec.mapping.nope'],
    [{ ...podsView, mapping: { name: 'row.name +' } }, 'spec.mapping.name'],
    [{ ...podsView, panels: [{ name: 'p', type: 'radar', query: 'SELECT 1' }] }, 'spec.panels[0].type'],
    [{ ...podsView, cache: { maxAge: 'soon' } }, 'spec.cache.maxAge'],
    [{ ...podsView, templating: [{ key: 'x' }] }, 'spec.templating[0]'],
  ])('refuses a view whose spec is wrong (%#) naming %s', async (spec, field) => {
    const response = await full.send('POST', '/api/db/views', {
      name: `bad-${Math.random()}`.slice(0, 12),
      spec,
    });
    expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.body).toContain(field);
  });

  it('lists the views attached to a config item type', async () => {
    const pod = await createConfigItem(full.db.pool, { name: 'tabbed', type: 'Kubernetes::Deployment' });
    const created = await full.send('POST', '/api/db/views', {
      name: 'deployment-tab',
      spec: {
        ...podsView,
        display: {
          title: 'Deployment pods',
          plugins: [{ configTab: { types: ['Kubernetes::Deployment'] } }],
        },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const list = await call('viewer', 'GET', `/api/view/list?config_id=${pod.id}`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toEqual([
      expect.objectContaining({ name: 'deployment-tab', title: 'Deployment pods' }),
    ]);
    const other = await createConfigItem(full.db.pool, { name: 'untabbed' });
    expect((await call('viewer', 'GET', `/api/view/list?config_id=${other.id}`)).json()).toEqual([]);
  });

  it('drops the tables of deleted views (soft and hard deletes)', async () => {
    const make = async (name: string) => {
      const created = await full.send('POST', '/api/db/views', { name, spec: podsView });
      const id = (created.json() as Array<{ id: string }>)[0].id;
      expect((await call('viewer', 'POST', `/api/view/${id}`, {})).statusCode).toBe(200);
      return id;
    };
    const soft = await make('soft-deleted');
    const hard = await make('hard-deleted');
    const exists = async (table: string) =>
      (await full.db.pool.query('SELECT to_regclass($1) AS t', [table])).rows[0].t !== null;
    expect(await exists('view_default_soft_deleted')).toBe(true);
    expect(await exists('view_default_hard_deleted')).toBe(true);
    await full.send('PATCH', `/api/db/views?id=eq.${soft}`, { deleted_at: new Date().toISOString() });
    const removed = await full.app.inject({
      method: 'DELETE',
      url: `/api/db/views?id=eq.${hard}`,
      headers: { authorization: `Bearer ${tokens.admin}` },
    });
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    expect((await dropOrphanViewTables(full.db.pool)).sort()).toEqual([
      'view_default_hard_deleted',
      'view_default_soft_deleted',
    ]);
    expect(await exists('view_default_soft_deleted')).toBe(false);
    expect(await exists('view_default_hard_deleted')).toBe(false);
    expect(await exists('view_test_pods_and_checks')).toBe(true);
  });
});
