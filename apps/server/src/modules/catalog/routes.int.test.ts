import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  catalogSummaryResponseSchema,
  changeSearchResponseSchema,
  savedScraperSchema,
  scraperRunResponseSchema,
} from '@opsdeck/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfigItem } from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { registerErrorHandling } from '../../platform/http/errors.js';
import { createJobsService } from '../../platform/jobs/index.js';
import { authPlugin } from '../auth/index.js';
import {
  bearer,
  createTestPerson,
  createTestToken,
  testAuthConfig,
} from '../auth/test-fixtures/auth-test-app.js';
import { catalogRoutes, startCatalogWorkers, scraperScheduleName } from './index.js';

const logger = pino({ level: 'silent' });

/**
 * The real answer parsed with its contract schema (ADR 0011): the parse must succeed and give back
 * the same value, so a key the schema does not name, or a value of another type, fails here.
 */
function expectContract(schema: z.ZodType, body: unknown): void {
  const parsed = schema.safeParse(body);
  expect(parsed.error).toBeUndefined();
  expect(parsed.data).toEqual(body);
}
let db: TestDatabase;
let app: FastifyInstance;
let dir: string;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  db = await createTestDatabase();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'opsdeck-catalog-routes-'));
  app = Fastify({ logger: false });
  registerErrorHandling(app);
  await app.register(authPlugin, { pool: db.pool, config: testAuthConfig() });
  const jobs = createJobsService({ pool: db.pool, logger });
  await app.register(catalogRoutes, { pool: db.pool, jobs, logger, baseDir: dir });
  await app.ready();
  for (const role of ['editor', 'viewer'] as const) {
    const person = await createTestPerson(db.pool, { roles: [role] });
    tokens[role] = await createTestToken(db.pool, person.id);
  }
});

afterAll(async () => {
  await app?.close();
  await db?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe('POST /api/catalog/summary', () => {
  it('groups counts by config_class and type with health and status breakdowns', async () => {
    await createConfigItem(db.pool, {
      type: 'Kubernetes::Pod',
      config_class: 'Pod',
      health: 'healthy',
      status: 'Running',
      tags: { cluster: 'a' },
      labels: { app: 'web' },
    });
    await createConfigItem(db.pool, {
      type: 'Kubernetes::Pod',
      config_class: 'Pod',
      health: 'unhealthy',
      status: 'Running',
      tags: { cluster: 'b' },
      labels: { app: 'web' },
    });
    await createConfigItem(db.pool, {
      type: 'Kubernetes::Pod',
      config_class: 'Pod',
      health: 'healthy',
      deleted_at: new Date(),
    });
    const node = await createConfigItem(db.pool, {
      type: 'Kubernetes::Node',
      config_class: 'Node',
      health: 'healthy',
      status: 'Ready',
      cost_per_minute: 1.5,
    });
    await db.pool.query(
      `INSERT INTO config_changes (config_id, change_type) VALUES ($1, 'diff'), ($1, 'diff')`,
      [node.id],
    );

    const anonymous = await app.inject({ method: 'POST', url: '/api/catalog/summary', payload: {} });
    expect(anonymous.statusCode).toBe(401);

    const response = await app.inject({
      method: 'POST',
      url: '/api/catalog/summary',
      headers: bearer(tokens.viewer),
      payload: { changes: { since: '7d' } },
    });
    expect(response.statusCode).toBe(200);
    expectContract(catalogSummaryResponseSchema, response.json());
    expect(response.json()).toEqual([
      expect.objectContaining({
        config_class: 'Node',
        type: 'Kubernetes::Node',
        count: 1,
        health: { healthy: 1 },
        status: { Ready: 1 },
        changes: 2,
        cost_per_minute: 1.5,
      }),
      expect.objectContaining({
        config_class: 'Pod',
        type: 'Kubernetes::Pod',
        count: 2,
        health: { healthy: 1, unhealthy: 1 },
        status: { Running: 2 },
        changes: 0,
        cost_per_minute: null,
      }),
    ]);

    const filtered = await app.inject({
      method: 'POST',
      url: '/api/catalog/summary',
      headers: bearer(tokens.viewer),
      payload: { groupBy: ['type'], health: 'healthy', deleted: true, tags: 'cluster!=b' },
    });
    expect(filtered.json()).toEqual([
      expect.objectContaining({ type: 'Kubernetes::Node', count: 1 }),
      expect.objectContaining({ type: 'Kubernetes::Pod', count: 2, health: { healthy: 2 } }),
    ]);

    const byTag = await app.inject({
      method: 'POST',
      url: '/api/catalog/summary',
      headers: bearer(tokens.viewer),
      payload: { groupBy: ['type', 'cluster'], type: 'Kubernetes::Pod' },
    });
    expect(byTag.json()).toEqual([
      expect.objectContaining({ type: 'Kubernetes::Pod', cluster: 'a', count: 1, health: { healthy: 1 } }),
      expect.objectContaining({ type: 'Kubernetes::Pod', cluster: 'b', count: 1, health: { unhealthy: 1 } }),
    ]);

    const byPrefixedKeys = await app.inject({
      method: 'POST',
      url: '/api/catalog/summary',
      headers: bearer(tokens.viewer),
      payload: { groupBy: ['label:app'] },
    });
    expect(byPrefixedKeys.statusCode, byPrefixedKeys.body).toBe(200);
    expect(byPrefixedKeys.json()).toEqual([
      expect.objectContaining({ 'label:app': 'web', count: 2, health: { healthy: 1, unhealthy: 1 } }),
      expect.objectContaining({ 'label:app': null, count: 1, cost_per_minute: 1.5 }),
    ]);
    const byTagKey = await app.inject({
      method: 'POST',
      url: '/api/catalog/summary',
      headers: bearer(tokens.viewer),
      payload: { groupBy: ['tag:cluster'] },
    });
    expect(byTagKey.json()).toEqual([
      expect.objectContaining({ 'tag:cluster': 'a', count: 1 }),
      expect.objectContaining({ 'tag:cluster': 'b', count: 1 }),
      expect.objectContaining({ 'tag:cluster': null, count: 1 }),
    ]);

    for (const groupBy of ['config; drop table x', "label:a'b"]) {
      const refused = await app.inject({
        method: 'POST',
        url: '/api/catalog/summary',
        headers: bearer(tokens.viewer),
        payload: { groupBy: [groupBy] },
      });
      expect(refused.statusCode).toBe(400);
    }
    const bad = await app.inject({
      method: 'POST',
      url: '/api/catalog/summary',
      headers: bearer(tokens.viewer),
      payload: { groupBy: ['config; drop table x'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/^groupBy: /);
  });
});

describe('POST /api/catalog/changes', () => {
  it('filters, sorts, pages and summarises changes, following relationships when recursive', async () => {
    const parent = await createConfigItem(db.pool, { type: 'Test::Parent', name: 'parent' });
    const child = await createConfigItem(db.pool, { type: 'Test::Child', name: 'child' });
    const other = await createConfigItem(db.pool, { type: 'Test::Other', name: 'other' });
    await db.pool.query(
      `INSERT INTO config_relationships (config_id, related_id, relation) VALUES ($1, $2, 'hard')`,
      [parent.id, child.id],
    );
    await db.pool.query(
      `INSERT INTO config_changes (config_id, change_type, severity, created_at) VALUES
         ($1, 'diff', 'info', now() - interval '3 hours'),
         ($1, 'Restarted', 'high', now() - interval '2 hours'),
         ($2, 'diff', 'info', now() - interval '1 hour'),
         ($3, 'diff', 'info', now() - interval '30 minutes'),
         ($1, 'diff', 'info', now() - interval '20 days')`,
      [parent.id, child.id, other.id],
    );
    const post = (payload: Record<string, unknown>) =>
      app.inject({ method: 'POST', url: '/api/catalog/changes', headers: bearer(tokens.viewer), payload });

    const own = await post({ id: parent.id, from: 'now-7d' });
    expect(own.statusCode).toBe(200);
    expectContract(changeSearchResponseSchema, own.json());
    expect(own.json()).toMatchObject({ total: 2, summary: { diff: 1, Restarted: 1 } });
    expect(own.json().changes.map((change: { change_type: string }) => change.change_type)).toEqual([
      'Restarted',
      'diff',
    ]);

    const downstream = await post({
      id: parent.id,
      recursive: 'downstream',
      from: '7d',
      sort_by: 'created_at',
      page_size: 2,
      page: 1,
    });
    const body = downstream.json();
    expect(body.total).toBe(3);
    expect(body.summary).toEqual({ diff: 2, Restarted: 1 });
    expect(body.changes).toHaveLength(2);
    expect(body.changes[0]).toMatchObject({
      config_id: parent.id,
      name: 'parent',
      type: 'Test::Parent',
      change_type: 'diff',
    });
    const second = (
      await post({
        id: parent.id,
        recursive: 'downstream',
        from: '7d',
        sort_by: 'created_at',
        page_size: 2,
        page: 2,
      })
    ).json();
    expect(second.changes.map((change: { config_id: string }) => change.config_id)).toEqual([child.id]);

    // Descendants by location path are in a downstream search too, decoys with another root not.
    const root = await createConfigItem(db.pool, { type: 'Test::Root', name: 'root' });
    const below = await createConfigItem(db.pool, { type: 'Test::Below', name: 'below', path: root.id });
    const deeper = await createConfigItem(db.pool, {
      type: 'Test::Below',
      name: 'deeper',
      path: `${root.id}.${below.id}`,
    });
    const decoy = await createConfigItem(db.pool, { type: 'Test::Below', name: 'decoy', path: other.id });
    await db.pool.query(
      `INSERT INTO config_changes (config_id, change_type) VALUES ($1, 'PathA'), ($2, 'PathB'), ($3, 'PathC')`,
      [below.id, deeper.id, decoy.id],
    );
    const subtree = (await post({ id: root.id, recursive: 'downstream' })).json();
    expect(subtree.summary).toEqual({ PathA: 1, PathB: 1 });
    const fromBelow = (await post({ id: below.id, recursive: 'all' })).json();
    expect(fromBelow.summary).toEqual({ PathA: 1, PathB: 1 });

    const byType = (await post({ config_type: 'Test::Other,Test::Child', type: 'diff' })).json();
    expect(byType.total).toBe(2);
    const excluded = (await post({ severity: '!info', config_type: 'Test::Parent' })).json();
    expect(excluded.total).toBe(1);

    const bad = await post({ sort_by: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'sort_by: "nope" is not a change column', field: 'sort_by' });
  });
});

describe('POST /api/catalog/scrapers/:id/run and the scheduler', () => {
  it('runs a scraper now with job history, refuses viewers, and fails unsupported types', async () => {
    await fs.writeFile(path.join(dir, 'run.json'), JSON.stringify([{ id: 'x' }, { id: 'y' }]));
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO config_scrapers (name, spec) VALUES
         ('runner', '{"schedule": "@every 5m", "file": [{"paths": ["run.json"], "items": "$[*]", "id": "$.id", "type": "Test::Run"}]}'),
         ('k8s', '{"kubernetes": [{"clusterName": "prod"}]}')
       RETURNING id`,
    );
    const [runner, k8s] = rows.map((row) => row.id);

    const viewer = await app.inject({
      method: 'POST',
      url: `/api/catalog/scrapers/${runner}/run`,
      headers: bearer(tokens.viewer),
    });
    expect(viewer.statusCode).toBe(403);

    const ran = await app.inject({
      method: 'POST',
      url: `/api/catalog/scrapers/${runner}/run`,
      headers: bearer(tokens.editor),
    });
    expect(ran.statusCode).toBe(200);
    expectContract(scraperRunResponseSchema, ran.json());
    expect(ran.json()).toMatchObject({
      status: 'SUCCESS',
      scrape_summary: { 'Test::Run': { added: 2 } },
      summary: { scraped: 2, added: 2 },
      errors: [],
    });
    const failed = await app.inject({
      method: 'POST',
      url: `/api/catalog/scrapers/${k8s}/run`,
      headers: bearer(tokens.editor),
    });
    expectContract(scraperRunResponseSchema, failed.json());
    expect(failed.json()).toMatchObject({
      status: 'FAILED',
      errors: ['kubernetes: scraper type not supported yet'],
    });

    const history = await db.pool.query(
      `SELECT resource_id, name, status, success_count, error_count, details FROM job_history
       WHERE resource_type = 'config_scraper' ORDER BY time_start`,
    );
    expect(history.rows).toEqual([
      expect.objectContaining({
        resource_id: runner,
        name: 'Scraper',
        status: 'SUCCESS',
        success_count: 2,
        error_count: 0,
        details: expect.objectContaining({
          scrape_summary: { 'Test::Run': expect.objectContaining({ added: 2 }) },
        }),
      }),
      expect.objectContaining({
        resource_id: k8s,
        status: 'FAILED',
        error_count: 1,
        details: { errors: ['kubernetes: scraper type not supported yet'] },
      }),
    ]);
    const missing = await app.inject({
      method: 'POST',
      url: '/api/catalog/scrapers/00000000-0000-0000-0000-00000000abcd/run',
      headers: bearer(tokens.editor),
    });
    expect(missing.statusCode).toBe(404);

    // One schedule per live scraper; a deleted scraper is unregistered and its items deleted.
    const jobs = createJobsService({ pool: db.pool, logger });
    await jobs.start();
    const workers = await startCatalogWorkers({
      pool: db.pool,
      jobs,
      logger,
      pollIntervalMs: 60_000,
      baseDir: dir,
    });
    try {
      expect(jobs.schedules.names().sort()).toEqual(
        [scraperScheduleName(k8s), scraperScheduleName(runner)].sort(),
      );
      const schedules = await db.pool.query(
        `SELECT name, schedule FROM job_schedules WHERE name LIKE 'config_scraper:%' ORDER BY schedule`,
      );
      expect(schedules.rows).toEqual([
        { name: scraperScheduleName(runner), schedule: '@every 5m' },
        { name: scraperScheduleName(k8s), schedule: '@every 60m' },
      ]);
      // A tick runs the scrape under the schedule and records it like Run Now.
      await fs.writeFile(path.join(dir, 'run.json'), JSON.stringify([{ id: 'x' }, { id: 'y' }, { id: 'z' }]));
      expect(await jobs.schedules.triggerNow(scraperScheduleName(runner))).toBe(true);
      const deadline = Date.now() + 10_000;
      let ticked: Array<{ status: string; details: { scrape_summary?: unknown } }> = [];
      while (Date.now() < deadline) {
        ticked = (
          await db.pool.query(
            `SELECT status, details FROM job_history
             WHERE resource_id = $1 AND status <> 'RUNNING' ORDER BY time_start`,
            [runner],
          )
        ).rows;
        if (ticked.length === 2) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(ticked[1]).toMatchObject({
        status: 'SUCCESS',
        details: { scrape_summary: { 'Test::Run': { added: 1, unchanged: 2 } } },
      });

      await db.pool.query('UPDATE config_scrapers SET deleted_at = now() WHERE id = $1', [runner]);
      await workers.refresh();
      expect(jobs.schedules.names()).toEqual([scraperScheduleName(k8s)]);
      const items = await db.pool.query(
        `SELECT count(*)::int AS live FROM config_items WHERE scraper_id = $1 AND deleted_at IS NULL`,
        [runner],
      );
      expect(items.rows[0].live).toBe(0);
    } finally {
      await workers.stop();
      await jobs.stop({ graceMs: 1000 });
    }
  });
});

describe('POST /api/catalog/scrapers and PUT /api/catalog/scrapers/:id', () => {
  const spec = {
    schedule: '@every 30m',
    file: [
      {
        type: 'Test::Edited',
        id: '$.id',
        health: { expr: "config.ok ? 'healthy' : 'unhealthy'" },
        paths: ['x.json'],
      },
    ],
  };

  it('creates and saves a valid spec with its schedule; refuses viewers, duplicates and unknown ids', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/catalog/scrapers',
      headers: bearer(tokens.editor),
      payload: { name: 'edited', namespace: 'e2e', spec },
    });
    expect(created.statusCode, created.body).toBe(201);
    expectContract(savedScraperSchema, created.json());
    const { id } = created.json<{ id: string }>();
    expect(created.json()).toMatchObject({
      name: 'edited',
      namespace: 'e2e',
      schedule: '@every 30m',
      source: 'UI',
    });

    const duplicate = await app.inject({
      method: 'POST',
      url: '/api/catalog/scrapers',
      headers: bearer(tokens.editor),
      payload: { name: 'edited', namespace: 'e2e', spec },
    });
    expect(duplicate.statusCode).toBe(409);

    const viewer = await app.inject({
      method: 'PUT',
      url: `/api/catalog/scrapers/${id}`,
      headers: bearer(tokens.viewer),
      payload: { spec },
    });
    expect(viewer.statusCode).toBe(403);

    const saved = await app.inject({
      method: 'PUT',
      url: `/api/catalog/scrapers/${id}`,
      headers: bearer(tokens.editor),
      payload: { spec: { ...spec, schedule: '@hourly' }, labels: { team: 'a' } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const row = await db.pool.query(`SELECT schedule, labels, spec FROM config_scrapers WHERE id = $1`, [id]);
    expect(row.rows[0]).toMatchObject({
      schedule: '@hourly',
      labels: { team: 'a' },
      spec: { schedule: '@hourly' },
    });

    const missing = await app.inject({
      method: 'PUT',
      url: '/api/catalog/scrapers/00000000-0000-0000-0000-00000000abcd',
      headers: bearer(tokens.editor),
      payload: { spec },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('refuses an invalid JSONPath, expression or schedule with the field path and keeps the stored spec', async () => {
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO config_scrapers (name, spec) VALUES ('guarded', $1::jsonb) RETURNING id`,
      [JSON.stringify(spec)],
    );
    const id = rows[0].id;
    const attempts: [unknown, string, RegExp][] = [
      [{ file: [{ type: 'T', id: '$.items[', paths: ['a'] }] }, 'spec.file[0].id', /invalid JSONPath/],
      [
        {
          file: [
            { type: 'T', id: '$.id', paths: ['a'], transform: { relationship: [{ filter: "name == 'a" }] } },
          ],
        },
        'spec.file[0].transform.relationship[0].filter',
        /invalid CEL/,
      ],
      [{ schedule: 'sometimes', file: [{ type: 'T', id: '$.id', paths: ['a'] }] }, 'spec.schedule', /./],
    ];
    for (const [bad, field, message] of attempts) {
      const response = await app.inject({
        method: 'PUT',
        url: `/api/catalog/scrapers/${id}`,
        headers: bearer(tokens.editor),
        payload: { spec: bad },
      });
      expect(response.statusCode, response.body).toBe(400);
      const body = response.json<{ error: string; field: string; issues: unknown[] }>();
      expect(body.field).toBe(field);
      expect(body.error.startsWith(`${field}: `)).toBe(true);
      expect(body.error).toMatch(message);
    }
    const stored = await db.pool.query(`SELECT spec FROM config_scrapers WHERE id = $1`, [id]);
    expect(stored.rows[0].spec).toEqual(spec);
  });
});

describe('rpc functions', () => {
  it('related_configs_recursive walks relationships by direction, depth and relation, and ancestors', async () => {
    const make = (name: string, extra: Record<string, unknown> = {}) =>
      createConfigItem(db.pool, { name, type: 'Graph::Node', ...extra });
    const root = await make('g-root');
    const a = await make('g-a', { parent_id: root.id });
    const b = await make('g-b');
    const c = await make('g-c');
    const gone = await make('g-gone', { deleted_at: new Date() });
    const up = await make('g-up');
    await db.pool.query(
      `INSERT INTO config_relationships (config_id, related_id, relation) VALUES
         ($1, $2, 'hard'), ($2, $3, 'soft'), ($1, $4, 'hard'), ($5, $1, 'hard')`,
      [a.id, b.id, c.id, gone.id, up.id],
    );
    await db.pool.query(`INSERT INTO config_changes (config_id, change_type) VALUES ($1, 'diff')`, [b.id]);
    await db.pool.query(
      `INSERT INTO config_analysis (config_id, analyzer, analysis_type) VALUES ($1, 'x', 'security')`,
      [b.id],
    );
    const names = async (sql: string, params: unknown[]) =>
      (await db.pool.query<{ name: string }>(sql, params)).rows.map((row) => row.name);

    expect(await names('SELECT name FROM related_configs_recursive($1)', [a.id])).toEqual([
      'g-a',
      'g-b',
      'g-root',
      'g-c',
    ]);
    expect(
      await names(`SELECT name FROM related_configs_recursive($1, 'outgoing', true, 1)`, [a.id]),
    ).toEqual(['g-a', 'g-b', 'g-gone', 'g-root']);
    expect(
      await names(
        `SELECT name FROM related_configs_recursive(config_id => $1, type_filter => 'all', outgoing_relation => 'hard')`,
        [a.id],
      ),
    ).toEqual(['g-a', 'g-b', 'g-root', 'g-up']);
    expect(await names(`SELECT name FROM related_configs_recursive($1, 'incoming')`, [a.id])).toEqual([
      'g-a',
      'g-root',
      'g-up',
    ]);
    const row = (
      await db.pool.query(
        `SELECT related_ids, changes, analysis FROM related_configs_recursive($1) WHERE id = $2`,
        [a.id, b.id],
      )
    ).rows[0];
    expect(row).toEqual({ related_ids: [c.id], changes: 1, analysis: { security: 1 } });
    const self = (
      await db.pool.query(`SELECT related_ids FROM related_configs_recursive($1) WHERE id = $1`, [a.id])
    ).rows[0];
    expect(self.related_ids.sort()).toEqual([b.id].sort());
    await expect(
      db.pool.query(`SELECT * FROM related_configs_recursive($1, 'sideways')`, [a.id]),
    ).rejects.toThrow(/Invalid type_filter value/);
  });

  it('get_parents_by_location returns containers outermost first, honouring alias_prefix and deletion', async () => {
    const cluster = await createConfigItem(db.pool, {
      name: 'l-cluster',
      type: 'Kubernetes::Cluster',
      external_id: '{k8s/c1}',
    });
    const namespace = await createConfigItem(db.pool, {
      name: 'l-ns',
      type: 'Kubernetes::Namespace',
      external_id: '{k8s/c1/ns/default}',
    });
    const account = await createConfigItem(db.pool, {
      name: 'l-acct',
      type: 'AWS::Account',
      external_id: '{aws/123}',
      deleted_at: new Date(),
    });
    const pod = await createConfigItem(db.pool, {
      name: 'l-pod',
      type: 'Kubernetes::Pod',
      external_id: '{k8s/c1/ns/default/pod/p}',
    });
    await db.pool.query(
      `INSERT INTO config_locations (id, location) VALUES ($1, 'k8s/c1/ns/default'), ($1, 'k8s/c1'), ($1, 'aws/123')`,
      [pod.id],
    );
    const parents = await db.pool.query('SELECT id, name, type FROM get_parents_by_location($1)', [pod.id]);
    expect(parents.rows).toEqual([
      { id: cluster.id, name: 'l-cluster', type: 'Kubernetes::Cluster' },
      { id: namespace.id, name: 'l-ns', type: 'Kubernetes::Namespace' },
    ]);
    const withDeleted = await db.pool.query(
      `SELECT name FROM get_parents_by_location(config_id => $1, include_deleted => true)`,
      [pod.id],
    );
    expect(withDeleted.rows.map((r) => r.name)).toEqual(['l-cluster', 'l-acct', 'l-ns']);
    const prefixed = await db.pool.query(`SELECT name FROM get_parents_by_location($1, 'aws/', true)`, [
      pod.id,
    ]);
    expect(prefixed.rows).toEqual([{ name: 'l-acct' }]);
    void account;
    const children = await db.pool.query('SELECT name FROM get_children_by_location($1)', [cluster.id]);
    expect(children.rows).toEqual([{ name: 'l-pod' }]);
  });
});

describe('request contracts', () => {
  const send = (method: 'POST' | 'PUT', url: string, payload?: unknown, token = tokens.editor) =>
    app.inject({
      method,
      url,
      headers: bearer(token),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  it('refuses a bad summary or change search parameter with a 400 naming the field', async () => {
    const cases: Array<
      [Promise<{ statusCode: number; json: () => unknown }>, { error: string; field: string }]
    > = [
      [
        send('POST', '/api/catalog/summary', { groupBy: 'type' }),
        { field: 'groupBy', error: 'groupBy must be a list of names' },
      ],
      [
        send('POST', '/api/catalog/summary', { analysis: { since: 'soon' } }),
        {
          field: 'analysis.since',
          error: expect.stringMatching(/^analysis\.since: "soon" is not a time/) as never,
        },
      ],
      [
        send('POST', '/api/catalog/changes', { page_size: 0 }),
        { field: 'page_size', error: 'page_size must be between 1 and 1000' },
      ],
      [
        send('POST', '/api/catalog/changes?depth=deep&id=00000000-0000-4000-8000-000000000000', {}),
        { field: 'depth', error: 'depth must be a whole number from 0 to 100' },
      ],
      [
        send('POST', '/api/catalog/changes', { id: 'not-an-id' }),
        { field: 'id', error: 'id must be a config item id' },
      ],
      [
        send('POST', '/api/catalog/changes', { recursive: 'sideways' }),
        { field: 'recursive', error: 'recursive must be one of upstream, downstream, all, none' },
      ],
      [
        send('POST', '/api/catalog/changes', { severity: 3 }),
        { field: 'severity', error: 'severity must be a string' },
      ],
      [
        send('POST', '/api/catalog/changes', { tags: 'cluster' }),
        { field: 'tags', error: 'tags: "cluster" is not key=value' },
      ],
    ];
    for (const [pending, expected] of cases) {
      const response = await pending;
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(expected);
    }
  });

  it('refuses a bad scraper body or id with a 400 naming the field', async () => {
    const spec = { file: [{ type: 'Test::Contract', id: '$.id', paths: ['x.json'] }] };
    const cases: Array<
      [Promise<{ statusCode: number; json: () => unknown }>, { error: string; field: string }]
    > = [
      [
        send('POST', '/api/catalog/scrapers', { spec }),
        { field: 'name', error: 'name: This field is required' },
      ],
      [
        send('POST', '/api/catalog/scrapers', { name: 'contract', spec: ['file'] }),
        { field: 'spec', error: 'spec: must be a mapping' },
      ],
      [
        send('PUT', '/api/catalog/scrapers/00000000-0000-4000-8000-000000000000', { spec, labels: { a: 1 } }),
        { field: 'labels.a', error: 'labels.a: Invalid input: expected string, received number' },
      ],
      [
        send('PUT', '/api/catalog/scrapers/nope', { spec }),
        { field: 'id', error: 'id must be a scraper id' },
      ],
      [send('POST', '/api/catalog/scrapers/nope/run'), { field: 'id', error: 'id must be a scraper id' }],
    ];
    for (const [pending, expected] of cases) {
      const response = await pending;
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(expected);
    }
  });
});
