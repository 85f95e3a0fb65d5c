import { applicationListSchema, applicationReportSchema } from '@opsdeck/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCheck,
  createCheckStatus,
  createConfigItem,
  createIncident,
} from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { registerErrorHandling } from '../../platform/http/errors.js';
import { authPlugin } from '../auth/index.js';
import {
  bearer,
  createTestPerson,
  createTestToken,
  testAuthConfig,
} from '../auth/test-fixtures/auth-test-app.js';
import type { Pool } from '../../platform/db/pool.js';
import { applicationKind } from './application-kind.js';
import { applicationReport, LIST_BATCH, listApplications } from './application-service.js';
import { applicationRoutes } from './routes.js';

let db: TestDatabase;
let app: FastifyInstance;
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};
const HOUR = 3_600_000;

beforeAll(async () => {
  db = await createTestDatabase();
  app = Fastify({ logger: false });
  registerErrorHandling(app);
  await app.register(authPlugin, { pool: db.pool, config: testAuthConfig() });
  await app.register(applicationRoutes, { pool: db.pool });
  await app.ready();
  for (const role of ['admin', 'editor', 'viewer'] as const) {
    const person = await createTestPerson(db.pool, { roles: [role] });
    tokens[role] = await createTestToken(db.pool, person.id);
  }

  const api = await createConfigItem(db.pool, {
    name: 'orders-api',
    type: 'Kubernetes::Deployment',
    labels: { app: 'orders' },
    tags: { env: 'prod' },
    health: 'healthy',
    status: 'Running',
  });
  const db1 = await createConfigItem(db.pool, {
    name: 'orders-db',
    type: 'AWS::RDS::DBInstance',
    labels: { app: 'orders' },
    health: 'warning',
  });
  await createConfigItem(db.pool, {
    name: 'billing-api',
    type: 'Kubernetes::Deployment',
    labels: { app: 'billing' },
  });
  const staging = await createConfigItem(db.pool, {
    name: 'orders-api',
    type: 'Kubernetes::Deployment',
    labels: { app: 'orders' },
    tags: { env: 'staging' },
    deleted_at: new Date(),
  });
  ids.api = String(api.id);
  ids.db = String(db1.id);
  ids.staging = String(staging.id);
  const { rows: components } = await db.pool.query<{ id: string }>(
    `INSERT INTO components (name, type, health, labels) VALUES ('orders', 'Service', 'unhealthy', '{"app":"orders"}') RETURNING id`,
  );
  ids.component = components[0].id;
  const check = await createCheck(db.pool, {
    name: 'orders-http',
    labels: { app: 'orders' },
    status: 'healthy',
  });
  ids.check = String(check.id);
  const now = Date.now();
  for (let index = 0; index < 3; index++)
    await createCheckStatus(db.pool, ids.check, { time: new Date(now - index * HOUR), status: true });
  await createCheckStatus(db.pool, ids.check, { time: new Date(now - 2.5 * HOUR), status: false });
  await createCheckStatus(db.pool, ids.check, { time: new Date(now - 48 * HOUR), status: false });

  const change = `INSERT INTO config_changes (config_id, change_type, severity, summary, created_at) VALUES ($1, $2, $3, $4, $5)`;
  await db.pool.query(change, [ids.api, 'Deployment', 'info', 'image orders:2.1', new Date(now - HOUR)]);
  await db.pool.query(change, [
    ids.db,
    'BackupCompleted',
    'info',
    'snapshot rds:orders-1',
    new Date(now - 2 * HOUR),
  ]);
  await db.pool.query(change, [
    ids.db,
    'RestoreCompleted',
    'info',
    'restored from rds:orders-0',
    new Date(now - 10 * 86_400_000),
  ]);
  await db.pool.query(
    `INSERT INTO config_analysis (config_id, analyzer, analysis_type, severity, status, summary, last_observed)
     VALUES ($1, 'no-pdb', 'availability', 'medium', 'open', 'No PodDisruptionBudget', now()),
            ($1, 'old-image', 'security', 'low', 'resolved', 'Outdated base image', now())`,
    [ids.api],
  );
  const incident = await createIncident(db.pool, { title: 'Orders down', status: 'open', severity: 'high' });
  await createIncident(db.pool, { title: 'Unrelated' });
  const { rows: hypotheses } = await db.pool.query<{ id: string }>(
    `INSERT INTO hypotheses (incident_id, title) VALUES ($1, 'db') RETURNING id`,
    [incident.id],
  );
  await db.pool.query(`INSERT INTO evidences (hypothesis_id, type, config_id) VALUES ($1, 'config', $2)`, [
    hypotheses[0].id,
    ids.db,
  ]);
  await db.pool.query(
    `INSERT INTO permissions (subject, subject_type, action, object, deny, description)
     VALUES ('viewer', 'group', 'read', 'application', false, 'viewers read applications'),
            ('responder', 'group', 'read', 'playbooks', false, 'not about this app')`,
  );
  await db.pool.query(
    `INSERT INTO permissions (subject, subject_type, action, config_id, deny) VALUES ('editor', 'group', 'update', $1, true)`,
    [ids.db],
  );
  await db.pool.query(
    `INSERT INTO applications (name, namespace, spec) VALUES ('orders', 'shop', $1::jsonb), ('empty', 'shop', '{}'::jsonb)`,
    [
      JSON.stringify({
        description: 'The orders service',
        mapping: {
          environments: {
            prod: [
              { types: ['Kubernetes::Deployment'], labelSelector: 'app=orders', tagSelector: 'env=prod' },
            ],
          },
          datasources: [{ name: 'orders-*', types: ['AWS::RDS::DBInstance'] }],
        },
        components: [{ labelSelector: 'app=orders' }],
        checks: [{ name: 'orders-http' }],
        sections: [{ title: 'Overview', icon: 'app' }],
      }),
    ],
  );
});

afterAll(async () => {
  await app?.close();
  await db?.close();
});

const get = (url: string, role = 'viewer') =>
  app.inject({ method: 'GET', url, headers: bearer(tokens[role]) });

describe('GET /api/application/{namespace}/{name}', () => {
  it('builds the audit report from the selectors', async () => {
    const response = await get('/api/application/shop/orders?range=1d', 'admin');
    expect(response.statusCode).toBe(200);
    const report = applicationReportSchema.parse(response.json());
    expect(report.application).toMatchObject({
      name: 'orders',
      namespace: 'shop',
      description: 'The orders service',
      sections: [{ title: 'Overview', icon: 'app' }],
    });
    expect(report.configs.map((config) => [config.name, config.health, config.environment])).toEqual([
      ['orders-db', 'warning', null],
      ['orders-api', 'healthy', 'prod'],
    ]);
    expect(report.components.map((component) => component.id)).toEqual([ids.component]);
    expect(report.health).toBe('unhealthy');
    // 3 passed and 1 failed within the day; the failure 2 days ago is outside the range.
    expect(report.checks).toEqual([
      expect.objectContaining({ id: ids.check, passed: 3, failed: 1, uptime: 75 }),
    ]);
    expect(report.changes.map((change) => change.change_type)).toEqual(['Deployment', 'BackupCompleted']);
    expect(report.backups.map((change) => change.change_type)).toEqual([
      'BackupCompleted',
      'RestoreCompleted',
    ]);
    expect(report.insights.map((insight) => insight.summary)).toEqual(['No PodDisruptionBudget']);
    expect(report.incidents.map((incident) => incident.title)).toEqual(['Orders down']);
    expect(report.access.roles).toContainEqual({ role: 'viewer', read: true, write: false });
    expect(report.access.roles).toContainEqual({ role: 'editor', read: true, write: true });
    expect(
      report.access.permissions.map((permission) => [
        permission.subject,
        permission.deny,
        permission.resource,
      ]),
    ).toEqual([
      ['editor', true, 'orders-db'],
      ['viewer', false, null],
    ]);
  });

  it('widens uptime with the range and shows permission rows only to rbac readers', async () => {
    const week = applicationReportSchema.parse((await get('/api/application/shop/orders?range=7d')).json());
    expect(week.checks[0]).toMatchObject({ passed: 3, failed: 2, uptime: 60 });
    expect(week.access.permissions).toEqual([]);
    expect(week.range.name).toBe('7d');
    expect(week.changes.map((change) => change.change_type)).toEqual(['Deployment', 'BackupCompleted']);
  });

  it('answers 404 naming the field for an unknown application and 400 for a bad range', async () => {
    const missing = await get('/api/application/shop/nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'Application shop/nope not found', field: 'name' });
    const badRange = await get('/api/application/shop/orders?range=2y');
    expect(badRange.statusCode).toBe(400);
    expect(badRange.json<{ field?: string }>().field).toBe('range');
  });

  it('refuses without a caller and while applications is disabled', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/application/shop/orders' })).statusCode).toBe(401);
    await db.pool.query(`INSERT INTO properties (name, value) VALUES ('applications.disable', 'true')`);
    const refused = await get('/api/application/shop/orders', 'admin');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'The applications feature is disabled' });
    await db.pool.query(`DELETE FROM properties WHERE name = 'applications.disable'`);
  });
});

describe('GET /api/application', () => {
  it('lists every application with its health and counts', async () => {
    const list = applicationListSchema.parse((await get('/api/application')).json());
    expect(
      list.map((entry) => [
        entry.name,
        entry.health,
        entry.configs,
        entry.components,
        entry.checks,
        entry.incidents,
      ]),
    ).toEqual([
      ['empty', 'unknown', 0, 0, 0, 0],
      ['orders', 'unhealthy', 2, 1, 1, 1],
    ]);
  });
});

describe('GET /api/application at scale', () => {
  it('counts as the reports do, in one statement per batch rather than a report per application', async () => {
    // 130 more applications (two batches): wildcards, label and tag selectors, environments,
    // components and checks, some linked to incidents, some matching nothing.
    const specs = Array.from({ length: 130 }, (_, index) => {
      switch (index % 5) {
        case 0:
          return { configs: [{ name: 'orders-*' }], checks: [{ name: 'orders-http' }] };
        case 1:
          return {
            mapping: { environments: { prod: [{ labelSelector: 'app=orders', tagSelector: 'env=prod' }] } },
          };
        case 2:
          return {
            components: [{ labelSelector: 'app=orders' }],
            configs: [{ types: ['AWS::RDS::DBInstance'] }],
          };
        case 3:
          return { configs: [{ name: 'billing-*' }] };
        default:
          return { checks: [{ name: 'nothing-by-this-name' }] };
      }
    });
    await db.pool.query(
      `INSERT INTO applications (name, namespace, spec)
       SELECT 'bulk-' || lpad(n::text, 3, '0'), 'bulk', spec
         FROM unnest($1::jsonb[]) WITH ORDINALITY AS s(spec, n)`,
      [specs.map((spec) => JSON.stringify(spec))],
    );
    try {
      let queries = 0;
      const counting = new Proxy(db.pool, {
        get(target, key, receiver) {
          if (key === 'query')
            return (...args: unknown[]) => {
              queries++;
              return (target.query as (...a: unknown[]) => unknown)(...args);
            };
          return Reflect.get(target, key, receiver) as unknown;
        },
      }) as Pool;
      const now = new Date();
      const list = await listApplications(counting, now);
      expect(list).toHaveLength(132);
      // The application rows, then one statement per batch of LIST_BATCH.
      expect(queries).toBe(1 + Math.ceil(132 / LIST_BATCH));
      for (const entry of list) {
        const report = await applicationReport(db.pool, entry.namespace, entry.name, '1d', false, now);
        expect(entry).toMatchObject({
          health: report.health,
          configs: report.configs.length,
          components: report.components.length,
          checks: report.checks.length,
          incidents: report.incidents.filter(
            (incident) => !['resolved', 'closed'].includes(incident.status ?? ''),
          ).length,
          description: report.application.description,
        });
      }
      // orders-api (healthy) and orders-db (warning), the check: the worst is warning.
      expect(list.find((entry) => entry.name === 'bulk-001')).toMatchObject({
        health: 'warning',
        configs: 2,
        checks: 1,
        incidents: 1,
      });
      expect(list.find((entry) => entry.name === 'bulk-005')).toMatchObject({
        health: 'unknown',
        configs: 0,
        checks: 0,
        incidents: 0,
      });
    } finally {
      await db.pool.query(`DELETE FROM applications WHERE namespace = 'bulk'`);
    }
  });
});

describe('the Application kind', () => {
  it('refuses a selector that names nothing', () => {
    expect(
      applicationKind.specIssues?.({ configs: [{}], mapping: { environments: { prod: [{ name: 'x' }] } } }),
    ).toEqual([
      { path: 'spec.configs[0]', message: 'a selector needs a name, namespace, type or label selector' },
    ]);
  });
});
