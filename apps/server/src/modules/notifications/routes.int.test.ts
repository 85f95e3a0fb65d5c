import {
  notificationSilencePreviewResponseSchema,
  notificationSilenceRowSchema,
  notificationSummaryResponseSchema,
} from '@opsdeck/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheck } from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { registerErrorHandling } from '../../platform/http/errors.js';
import { authPlugin } from '../auth/index.js';
import {
  bearer,
  createTestPerson,
  createTestToken,
  testAuthConfig,
} from '../auth/test-fixtures/auth-test-app.js';
import { notificationRoutes } from './routes.js';

let db: TestDatabase;
let app: FastifyInstance;
const tokens: Record<string, string> = {};
let ruleId: string;
let checkId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  app = Fastify({ logger: false });
  registerErrorHandling(app);
  await app.register(authPlugin, { pool: db.pool, config: testAuthConfig() });
  await app.register(notificationRoutes, { pool: db.pool });
  await app.ready();
  for (const role of ['editor', 'viewer'] as const) {
    const person = await createTestPerson(db.pool, { roles: [role] });
    tokens[role] = await createTestToken(db.pool, person.id);
  }
  const check = await createCheck(db.pool, { name: 'orders-api' });
  checkId = check.id as string;
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO notifications (name, events, spec) VALUES ('ops', '{check.failed}', '{"events":["check.failed"]}') RETURNING id`,
  );
  ruleId = rows[0].id;
  await db.pool.query(
    `INSERT INTO notification_send_history (notification_id, status, source_event, resource_id, resource_type, error, recipient, title, created_at)
     SELECT $1, s.status, 'check.failed', $2, 'check', s.error, 'ops@example.test', 'Check orders-api has failed', now() - s.age * interval '1 minute'
     FROM (VALUES ('sent', NULL, 3), ('failed', 'webhook: HTTP 500: boom', 2), ('silenced', NULL, 1)) AS s(status, error, age)`,
    [ruleId, checkId],
  );
});

afterAll(async () => {
  await app?.close();
  await db?.close();
});

async function summary(body: unknown, token = tokens.viewer) {
  return app.inject({
    method: 'POST',
    url: '/api/notification/summary',
    headers: bearer(token),
    payload: body as object,
  });
}

describe('POST /api/notification/summary', () => {
  it('pages the send history newest first with the total', async () => {
    const response = await summary({ pageIndex: 0, pageSize: 2 });
    expect(response.statusCode).toBe(200);
    const body = notificationSummaryResponseSchema.parse(response.json());
    expect(body.total).toBe(3);
    expect(body.results.map((row) => row.status)).toEqual(['silenced', 'failed']);
    expect(body.results[1]).toMatchObject({
      error: 'webhook: HTTP 500: boom',
      notification: { name: 'ops' },
      resource: { id: checkId, name: 'orders-api' },
    });
    const second = notificationSummaryResponseSchema.parse(
      (await summary({ pageIndex: 1, pageSize: 2 })).json(),
    );
    expect(second.results.map((row) => row.status)).toEqual(['sent']);
  });

  it('filters by status, resource type and search', async () => {
    const failed = notificationSummaryResponseSchema.parse((await summary({ status: 'failed' })).json());
    expect(failed.results.map((row) => row.status)).toEqual(['failed']);
    expect(
      notificationSummaryResponseSchema.parse((await summary({ resourceType: 'config' })).json()).total,
    ).toBe(0);
    const searched = notificationSummaryResponseSchema.parse((await summary({ search: 'boom' })).json());
    expect(searched.results.map((row) => row.status)).toEqual(['failed']);
  });

  it('refuses a bad value naming the field', async () => {
    const response = await summary({ pageSize: 5000 });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toContain('pageSize must be a whole number from 1 to 1000');
    const status = await summary({ status: 'exploded' });
    expect(status.statusCode).toBe(400);
    expect(status.json().error).toContain('status must be one of');
  });

  it('needs a caller', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/notification/summary', payload: {} });
    expect(response.statusCode).toBe(401);
  });
});

describe('POST /api/notification/silence', () => {
  it('saves a silence for a check, indefinitely when until is null', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/notification/silence',
      headers: bearer(tokens.editor),
      payload: { check_id: checkId, until: null, recursive: true, description: 'maintenance' },
    });
    expect(response.statusCode).toBe(201);
    const row = notificationSilenceRowSchema.parse(
      Object.fromEntries(
        Object.entries(response.json() as Record<string, unknown>).filter(([key]) =>
          Object.keys(notificationSilenceRowSchema.shape).includes(key),
        ),
      ),
    );
    expect(row).toMatchObject({
      check_id: checkId,
      until: null,
      recursive: true,
      description: 'maintenance',
    });
  });

  it('saves a silence by selectors', async () => {
    const selectors = [{ name: 'orders-*', labelSelector: 'env=prod' }, { types: ['http'] }];
    const response = await app.inject({
      method: 'POST',
      url: '/api/notification/silence',
      headers: bearer(tokens.editor),
      payload: { selectors, until: null },
    });
    expect(response.statusCode).toBe(201);
    const { rows } = await db.pool.query(
      'SELECT selectors, check_id FROM notification_silences WHERE id = $1',
      [response.json().id],
    );
    expect(rows[0]).toEqual({ selectors, check_id: null });
  });

  it('is refused to a viewer', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/notification/silence',
      headers: bearer(tokens.viewer),
      payload: { check_id: checkId, until: null },
    });
    expect(response.statusCode).toBe(403);
  });

  it('names the field of a bad silence', async () => {
    const cases: [unknown, string, string][] = [
      [{ until: null }, 'filter', 'a silence needs a resource, a selector or a filter'],
      [{ selectors: [{ colour: 'red' }], until: null }, 'selectors.0', 'selectors: a selector sets only'],
      [{ selectors: [{}], until: null }, 'selectors.0', 'selectors: a selector must set at least one field'],
      [
        { check_id: '00000000-0000-4000-8000-000000000001', until: null },
        'check_id',
        'check_id: no such resource',
      ],
      [{ check_id: checkId, until: '2020-01-01T00:00:00Z' }, 'until', 'until must be later than from'],
      [{ filter: 'check.name ==', until: null }, 'filter', 'filter:'],
    ];
    for (const [payload, field, message] of cases) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/notification/silence',
        headers: bearer(tokens.editor),
        payload: payload as object,
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error).toContain(message);
      expect(response.json().field).toBe(field);
    }
  });
});

describe('POST /api/notification/silence/preview', () => {
  let billingId: string;
  beforeAll(async () => {
    const billing = await createCheck(db.pool, {
      name: 'billing-api',
      type: 'tcp',
      labels: { team: 'billing', env: 'prod' },
    });
    billingId = billing.id as string;
    await db.pool.query(
      `INSERT INTO notification_send_history (notification_id, status, source_event, resource_id, resource_type, recipient, title, created_at)
       VALUES ($1, 'sent', 'check.failed', $2, 'check', 'ops@example.test', 'Check billing-api has failed', now() - interval '2 days'),
              ($1, 'sent', 'check.failed', $2, 'check', 'ops@example.test', 'Check billing-api has failed', now() - interval '20 days')`,
      [ruleId, billingId],
    );
  });

  async function preview(body: unknown, token = tokens.viewer) {
    return app.inject({
      method: 'POST',
      url: '/api/notification/silence/preview',
      headers: bearer(token),
      payload: body as object,
    });
  }

  it('lists what a resource, selectors or a filter would have matched in the last days', async () => {
    const cases: [unknown, string[], number][] = [
      [{ check_id: checkId }, ['orders-api'], 3],
      [{ selectors: [{ name: 'billing-*' }] }, ['billing-api'], 1],
      [{ selectors: [{ labelSelector: 'team=billing,env in (prod,staging)' }] }, ['billing-api'], 1],
      [{ selectors: [{ types: ['http'] }, { name: 'billing-api' }] }, ['orders-api', 'billing-api'], 4],
      [{ selectors: [{ name: '!billing-*', types: ['tcp'] }] }, [], 0],
      [{ filter: "check.name == 'billing-api'", days: 30 }, ['billing-api'], 2],
      [{ check_id: checkId, filter: "check.name == 'billing-api'" }, [], 0],
    ];
    for (const [body, names, total] of cases) {
      const response = await preview(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(200);
      const parsed = notificationSilencePreviewResponseSchema.parse(response.json());
      expect(
        parsed.resources.map((resource) => resource.name),
        JSON.stringify(body),
      ).toEqual(names);
      expect(parsed.total, JSON.stringify(body)).toBe(total);
      expect(parsed.notifications).toHaveLength(total);
    }
    const { rows: incidents } = await db.pool.query<{ id: string }>(
      `INSERT INTO incidents (title, type, severity) VALUES ('Checkout down', 'availability', 'high') RETURNING id`,
    );
    await db.pool.query(
      `INSERT INTO notification_send_history (notification_id, status, source_event, resource_id, resource_type, title)
       VALUES ($1, 'sent', 'incident.created', $2, 'incident', 'Incident created: Checkout down')`,
      [ruleId, incidents[0].id],
    );
    const byIncident = notificationSilencePreviewResponseSchema.parse(
      (await preview({ filter: "incident.severity == 'high'" })).json(),
    );
    expect(byIncident.resources).toEqual([
      { id: incidents[0].id, name: 'Checkout down', resource_type: 'incident', type: null, count: 1 },
    ]);
    const week = notificationSilencePreviewResponseSchema.parse(
      (await preview({ check_id: billingId })).json(),
    );
    expect(week).toMatchObject({ days: 7, total: 1 });
    expect(week.notifications[0]).toMatchObject({
      resource_id: billingId,
      title: 'Check billing-api has failed',
    });
  });

  it('names the field of a bad preview', async () => {
    const cases: [unknown, string, string][] = [
      [{}, 'filter', 'a silence needs a resource, a selector or a filter'],
      [{ check_id: checkId, days: 31 }, 'days', 'days must be a whole number from 1 to 30'],
      [{ selectors: [{ types: 'http' }] }, 'selectors.0.types', 'selectors: types must be a list of text'],
      [
        { component_id: '00000000-0000-4000-8000-000000000001' },
        'component_id',
        'component_id: no such resource',
      ],
    ];
    for (const [payload, field, message] of cases) {
      const response = await preview(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error).toContain(message);
      expect(response.json().field).toBe(field);
    }
  });

  it('needs a caller', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/notification/silence/preview',
      payload: { check_id: checkId },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('POST/PUT /api/notification/rules', () => {
  it('creates a rule from its spec, fills the columns, and updates it', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/notification/rules',
      headers: bearer(tokens.editor),
      payload: {
        name: 'from-editor',
        spec: {
          events: ['check.failed'],
          title: 'Down',
          repeatInterval: '1h',
          to: { email: 'a@example.test' },
        },
      },
    });
    expect(created.statusCode).toBe(201);
    const { id } = created.json() as { id: string };
    const { rows } = await db.pool.query(
      'SELECT events, title, repeat_interval, source, person_id, team_id, custom_services FROM notifications WHERE id = $1',
      [id],
    );
    expect(rows[0]).toEqual({
      events: ['check.failed'],
      title: 'Down',
      repeat_interval: '1h',
      source: 'UI',
      person_id: null,
      team_id: null,
      custom_services: null,
    });
    const updated = await app.inject({
      method: 'PUT',
      url: `/api/notification/rules/${id}`,
      headers: bearer(tokens.editor),
      payload: { spec: { events: ['check.passed'], to: { email: 'a@example.test' } } },
    });
    expect(updated.statusCode).toBe(200);
    const after = await db.pool.query('SELECT events, title FROM notifications WHERE id = $1', [id]);
    expect(after.rows[0]).toEqual({ events: ['check.passed'], title: null });
  });

  it('refuses a bad spec naming its path, and viewers', async () => {
    const bad = await app.inject({
      method: 'POST',
      url: '/api/notification/rules',
      headers: bearer(tokens.editor),
      payload: { name: 'bad', spec: { events: [] } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('spec.events');
    const viewer = await app.inject({
      method: 'POST',
      url: '/api/notification/rules',
      headers: bearer(tokens.viewer),
      payload: { name: 'nope', spec: { events: ['check.failed'] } },
    });
    expect(viewer.statusCode).toBe(403);
  });
});

describe('DELETE /api/notification/rules/:id and /api/notification/silence/:id', () => {
  it('refuses viewers and a bad id, soft-deletes for an editor, then answers 404', async () => {
    const { rows: rules } = await db.pool.query<{ id: string }>(
      `INSERT INTO notifications (name, events, spec) VALUES ('to-delete', '{check.failed}', '{"events":["check.failed"]}') RETURNING id`,
    );
    const { rows: silences } = await db.pool.query<{ id: string }>(
      `INSERT INTO notification_silences ("from", "until", source, filter) VALUES (now(), now() + interval '1 hour', 'ui', 'true') RETURNING id`,
    );
    for (const [path, id] of [
      ['rules', rules[0].id],
      ['silence', silences[0].id],
    ]) {
      const url = `/api/notification/${path}/${id}`;
      const viewer = await app.inject({ method: 'DELETE', url, headers: bearer(tokens.viewer) });
      expect(viewer.statusCode).toBe(403);
      const bad = await app.inject({
        method: 'DELETE',
        url: `/api/notification/${path}/not-a-uuid`,
        headers: bearer(tokens.editor),
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().field).toBe('id');
      const editor = await app.inject({ method: 'DELETE', url, headers: bearer(tokens.editor) });
      expect(editor.statusCode).toBe(200);
      const again = await app.inject({ method: 'DELETE', url, headers: bearer(tokens.editor) });
      expect(again.statusCode).toBe(404);
    }
    const deleted = await db.pool.query(
      `SELECT (SELECT deleted_at IS NOT NULL FROM notifications WHERE id = $1) AS rule,
              (SELECT deleted_at IS NOT NULL FROM notification_silences WHERE id = $2) AS silence`,
      [rules[0].id, silences[0].id],
    );
    expect(deleted.rows[0]).toEqual({ rule: true, silence: true });
  });
});
