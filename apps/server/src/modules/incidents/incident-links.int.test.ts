import { dataApiAllowlist } from '../../modules.js';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCheck,
  createConfigItem,
  createIncident,
  createPerson,
} from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { dataApiRoutes } from '../../data-api/index.js';
import { registerErrorHandling } from '../../platform/http/errors.js';
import { authPlugin, createDataApiAuthorizer } from '../auth/index.js';
import {
  bearer,
  createTestPerson,
  createTestToken,
  testAuthConfig,
} from '../auth/test-fixtures/auth-test-app.js';

/**
 * Migration 0040 through the data API: what the incident link dialog writes (incident,
 * hypothesis, evidence) and refuses, status updates, @mentions and the list's new filters.
 */
let db: TestDatabase;
let app: FastifyInstance;
type Role = 'commander' | 'responder' | 'viewer';
const people: Record<Role, { id: string; token: string }> = {} as never;

beforeAll(async () => {
  db = await createTestDatabase();
  // The data API as app.ts registers it: writes run as the signed-in person.
  app = Fastify({ logger: false });
  registerErrorHandling(app);
  await app.register(authPlugin, { pool: db.pool, config: testAuthConfig() });
  await app.register(dataApiRoutes, {
    prefix: '/api/db',
    pool: db.pool,
    allowlist: dataApiAllowlist,
    authorize: createDataApiAuthorizer({ pool: db.pool }),
    actingPerson: (request) => request.auth?.person.id,
  });
  await app.ready();
  for (const role of ['commander', 'responder', 'viewer'] as const) {
    const person = await createTestPerson(db.pool, { roles: [role] });
    people[role] = { id: person.id, token: await createTestToken(db.pool, person.id) };
  }
});

afterAll(async () => {
  await app?.close();
  await db?.close();
});

function send(method: 'GET' | 'POST' | 'PATCH', url: string, role: Role, payload?: unknown) {
  return app.inject({
    method,
    url,
    headers: {
      ...bearer(people[role].token),
      'content-type': 'application/json',
      prefer: 'return=representation',
    },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}

async function newIncident(role: Role, extra: Record<string, unknown> = {}): Promise<{ id: string }> {
  const response = await send('POST', '/api/db/incidents', role, {
    title: `Linked ${Math.random()}`,
    severity: 'low',
    type: 'availability',
    description: '',
    ...extra,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string }[]>()[0]!;
}

async function newHypothesis(role: Role, incidentId: string): Promise<{ id: string }> {
  const response = await send('POST', '/api/db/hypotheses', role, {
    incident_id: incidentId,
    title: 'Linked evidence',
    status: 'possible',
    type: 'root',
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string }[]>()[0]!;
}

describe('the incident link form on the server', () => {
  it('links a check as evidence: new incident, new hypothesis, evidence, as a commander', async () => {
    const check = await createCheck(db.pool, { status: 'unhealthy' });
    const incident = await newIncident('commander');
    const hypothesis = await newHypothesis('commander', incident.id);
    const evidence = await send('POST', '/api/db/evidences', 'commander', {
      hypothesis_id: hypothesis.id,
      type: 'check',
      check_id: check.id,
      description: 'the check fails',
    });
    expect(evidence.statusCode, evidence.body).toBe(201);
    expect(evidence.json<unknown[]>()[0]).toMatchObject({
      created_by: people.commander.id,
      check_id: check.id,
    });

    const summary = await send(
      'GET',
      `/api/db/incident_summary?select=id,check_ids&check_ids=cs.{${check.id}}`,
      'viewer',
    );
    expect(summary.statusCode, summary.body).toBe(200);
    expect(summary.json()).toEqual([{ id: incident.id, check_ids: [check.id] }]);
  });

  it('refuses each missing part of a link with a clear 400', async () => {
    const missingSeverity = await send('POST', '/api/db/incidents', 'responder', {
      title: 'No severity',
      type: 'availability',
    });
    expect(missingSeverity.statusCode).toBe(400);
    expect(missingSeverity.json()).toMatchObject({ code: '23502' });
    expect(missingSeverity.json<{ message: string }>().message).toContain('severity');

    const missingType = await send('POST', '/api/db/incidents', 'responder', {
      title: 'No type',
      severity: 'low',
    });
    expect(missingType.statusCode).toBe(400);
    expect(missingType.json<{ message: string }>().message).toContain('type');

    const unknownSeverity = await send('POST', '/api/db/incidents', 'responder', {
      title: 'Odd severity',
      severity: 'apocalyptic',
      type: 'availability',
    });
    expect(unknownSeverity.statusCode).toBe(400);
    expect(unknownSeverity.json()).toMatchObject({ code: '23514' });

    const noHypothesis = await send('POST', '/api/db/evidences', 'responder', {
      type: 'comment',
      description: 'orphan',
    });
    expect(noHypothesis.statusCode).toBe(400);
    expect(noHypothesis.json<{ message: string }>().message).toContain('hypothesis_id');

    const incident = await newIncident('responder');
    const hypothesis = await newHypothesis('responder', incident.id);
    const noCheck = await send('POST', '/api/db/evidences', 'responder', {
      hypothesis_id: hypothesis.id,
      type: 'check',
      description: 'which check?',
    });
    expect(noCheck.statusCode).toBe(400);
    expect(noCheck.json()).toMatchObject({
      code: 'P0001',
      message: 'A check evidence needs check_id',
      details: 'field: check_id',
    });
    const noComponent = await send('POST', '/api/db/evidences', 'responder', {
      hypothesis_id: hypothesis.id,
      type: 'topology',
    });
    expect(noComponent.statusCode).toBe(400);
    expect(noComponent.json()).toMatchObject({ message: 'A topology evidence needs component_id' });
  });

  it('refuses an unknown status on PATCH and any write by a viewer', async () => {
    const incident = await newIncident('commander');
    const unknown = await send('PATCH', `/api/db/incidents?id=eq.${incident.id}`, 'commander', {
      status: 'snoozed',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: '23514' });
    const hypothesis = await send('POST', '/api/db/hypotheses', 'viewer', {
      incident_id: incident.id,
      title: 'Nope',
    });
    expect(hypothesis.statusCode).toBe(403);
    const comment = await send('POST', '/api/db/comments', 'viewer', {
      incident_id: incident.id,
      comment: 'Nope',
    });
    expect(comment.statusCode).toBe(403);
  });
});

describe('status updates and mentions', () => {
  it('moves the incident with a status update and records who posted it', async () => {
    const incident = await newIncident('responder');
    const posted = await send('POST', '/api/db/comments', 'commander', {
      incident_id: incident.id,
      comment: 'Rolled back the deploy, error rate is down',
      status: 'mitigated',
    });
    expect(posted.statusCode, posted.body).toBe(201);
    const { rows: current } = await db.pool.query<{ status: string }>(
      'SELECT status FROM incidents WHERE id = $1',
      [incident.id],
    );
    expect(current[0]!.status).toBe('mitigated');
    const { rows } = await db.pool.query<{ type: string; description: string; created_by: string }>(
      `SELECT type, description, created_by FROM incident_histories
       WHERE incident_id = $1 AND type <> 'incident.created' ORDER BY created_at, type`,
      [incident.id],
    );
    expect(rows).toEqual([
      { type: 'incident.status_updated', description: 'mitigated', created_by: people.commander.id },
      {
        type: 'responder.commented',
        description: 'Rolled back the deploy, error rate is down',
        created_by: people.commander.id,
      },
    ]);
    const { rows: events } = await db.pool.query<{ properties: Record<string, unknown> }>(
      `SELECT properties FROM event_queue
       WHERE name = 'responder.commented' AND properties->>'incident_id' = $1`,
      [incident.id],
    );
    expect(events[0]!.properties).toMatchObject({
      status_update: true,
      status: 'mitigated',
      previous_status: 'open',
    });
  });

  it('refuses a status update on a hypothesis, without text or with an unknown status', async () => {
    const incident = await newIncident('responder');
    const hypothesis = await newHypothesis('responder', incident.id);
    const onHypothesis = await send('POST', '/api/db/comments', 'responder', {
      incident_id: incident.id,
      hypothesis_id: hypothesis.id,
      comment: 'resolved',
      status: 'resolved',
    });
    expect(onHypothesis.statusCode).toBe(400);
    expect(onHypothesis.json()).toMatchObject({ code: 'P0001', details: 'field: hypothesis_id' });
    const blank = await send('POST', '/api/db/comments', 'responder', {
      incident_id: incident.id,
      comment: '  ',
      status: 'resolved',
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ message: 'A status update needs a message' });
    const unknown = await send('POST', '/api/db/comments', 'responder', {
      incident_id: incident.id,
      comment: 'done',
      status: 'finished',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: '23514' });
    const { rows } = await db.pool.query<{ status: string }>('SELECT status FROM incidents WHERE id = $1', [
      incident.id,
    ]);
    expect(rows[0]!.status).toBe('open');
  });

  it('keeps the people @mentioned in a comment and puts them on the event', async () => {
    const alice = await createPerson(db.pool, { name: 'Alice Example' });
    const ghost = '00000000-0000-4000-8000-00000000abcd';
    const incident = await createIncident(db.pool);
    const hypothesis = await newHypothesis('responder', incident.id);
    const comment = await send('POST', '/api/db/comments', 'responder', {
      incident_id: incident.id,
      hypothesis_id: hypothesis.id,
      comment: `@[Alice Example](${alice.id}) can you check? cc @[Nobody](${ghost}) and @[Alice](${alice.id})`,
    });
    expect(comment.statusCode, comment.body).toBe(201);
    expect(comment.json<{ mentions: string[] }[]>()[0]!.mentions).toEqual([alice.id]);
    const { rows: events } = await db.pool.query<{ properties: Record<string, unknown> }>(
      `SELECT properties FROM event_queue
       WHERE name = 'responder.commented' AND properties->>'incident_id' = $1`,
      [incident.id],
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.properties.mentions).toEqual([alice.id]);
    expect(events[0]!.properties).not.toHaveProperty('status');
  });
});

describe('what data-API clients read', () => {
  it('serves every incident table and view to a viewer, with what commanders and responders wrote', async () => {
    const incident = await newIncident('commander', { severity: 'high', type: 'security' });
    const hypothesis = await newHypothesis('commander', incident.id);
    const config = await createConfigItem(db.pool);
    const component = await db.pool.query<{ id: string }>(
      `INSERT INTO components (name, type) VALUES ('checkout', 'Service') RETURNING id`,
    );
    const componentId = component.rows[0]!.id;
    for (const evidence of [
      { type: 'config', config_id: config.id, description: 'the deployment' },
      { type: 'topology', component_id: componentId, description: 'the service' },
    ]) {
      const written = await send('POST', '/api/db/evidences', 'responder', {
        hypothesis_id: hypothesis.id,
        ...evidence,
      });
      expect(written.statusCode, written.body).toBe(201);
    }
    const responder = await send('POST', '/api/db/responders', 'commander', {
      incident_id: incident.id,
      type: 'person',
      person_id: people.responder.id,
    });
    expect(responder.statusCode, responder.body).toBe(201);
    const commented = await send('POST', '/api/db/comments', 'responder', {
      incident_id: incident.id,
      hypothesis_id: hypothesis.id,
      comment: 'Looking at the rollout',
    });
    expect(commented.statusCode, commented.body).toBe(201);
    await db.pool.query(`INSERT INTO incident_rules (name, spec) VALUES ('read-by-clients', '{}')`);

    const read = async (path: string) => {
      const response = await send('GET', `/api/db/${path}`, 'viewer');
      expect(response.statusCode, `${path}: ${response.body}`).toBe(200);
      return response.json<Record<string, unknown>[]>();
    };
    const id = `eq.${incident.id}`;
    expect(await read(`incidents?select=id,status,severity&id=${id}`)).toEqual([
      { id: incident.id, status: 'open', severity: 'high' },
    ]);
    expect(
      await read(
        `incident_summary?select=id,responders_count,hypotheses_count,evidences_count,comments_count,component_ids,config_ids&id=${id}`,
      ),
    ).toEqual([
      {
        id: incident.id,
        responders_count: 1,
        hypotheses_count: 1,
        evidences_count: 2,
        comments_count: 1,
        component_ids: [componentId],
        config_ids: [config.id],
      },
    ]);
    // The list's component filter.
    expect(await read(`incident_summary?select=id&component_ids=cs.{${componentId}}`)).toEqual([
      { id: incident.id },
    ]);
    expect(
      await read(`incidents_by_component?select=id,type,component_id&component_id=eq.${componentId}`),
    ).toEqual([{ id: incident.id, type: 'security', component_id: componentId }]);
    expect(await read(`incidents_by_config?select=id,severity,config_id&config_id=eq.${config.id}`)).toEqual([
      { id: incident.id, severity: 'high', config_id: config.id },
    ]);
    const history = await read(
      `incident_histories?select=type,created_by&incident_id=${id}&order=created_at`,
    );
    expect(history.map((entry) => entry.type)).toEqual([
      'incident.created',
      'hypothesis.created',
      'evidence.created',
      'evidence.created',
      'responder.created',
      'responder.commented',
    ]);
    expect(history.at(-1)).toEqual({ type: 'responder.commented', created_by: people.responder.id });
    expect(await read(`hypotheses?select=id,type,status&incident_id=${id}`)).toEqual([
      { id: hypothesis.id, type: 'root', status: 'possible' },
    ]);
    expect(await read(`evidences?select=type&hypothesis_id=eq.${hypothesis.id}&order=type`)).toEqual([
      { type: 'config' },
      { type: 'topology' },
    ]);
    expect(await read(`comments?select=comment,created_by&incident_id=${id}`)).toEqual([
      { comment: 'Looking at the rollout', created_by: people.responder.id },
    ]);
    expect(await read(`responders?select=type,person_id&incident_id=${id}`)).toEqual([
      { type: 'person', person_id: people.responder.id },
    ]);
    expect(await read(`incident_rules?select=name&name=eq.read-by-clients`)).toEqual([
      { name: 'read-by-clients' },
    ]);
    // Reading is all a viewer may do.
    const refused = await send('POST', '/api/db/responders', 'viewer', {
      incident_id: incident.id,
      type: 'person',
      person_id: people.viewer.id,
    });
    expect(refused.statusCode).toBe(403);
  });
});

describe('incident rules through the data API', () => {
  it('lets an admin write a rule and refuses bad specs with the field at fault', async () => {
    const admin = await createTestPerson(db.pool, { roles: ['admin'] });
    const token = await createTestToken(db.pool, admin.id);
    const post = (body: unknown) =>
      app.inject({
        method: 'POST',
        url: '/api/db/incident_rules',
        headers: { ...bearer(token), 'content-type': 'application/json', prefer: 'return=representation' },
        payload: JSON.stringify(body),
      });
    const good = await post({
      name: 'api-down',
      namespace: 'default',
      labels: { team: 'platform' },
      spec: { priority: 1, breakOnMatch: true, checks: [{ name: 'api-*' }], template: { severity: 'High' } },
    });
    expect(good.statusCode, good.body).toBe(201);

    const cases: [unknown, string, string][] = [
      [{ name: ' ', spec: {} }, 'Name is required', 'field: name'],
      [{ name: 'r1', spec: [] }, 'spec must be an object', 'field: spec'],
      [
        { name: 'r2', spec: { priority: -1 } },
        'spec.priority must be a non-negative integer',
        'field: spec.priority',
      ],
      [
        { name: 'r3', spec: { priority: 1.5 } },
        'spec.priority must be a non-negative integer',
        'field: spec.priority',
      ],
      [
        { name: 'r4', spec: { breakOnMatch: 'yes' } },
        'spec.breakOnMatch must be true or false',
        'field: spec.breakOnMatch',
      ],
      [
        { name: 'r5', spec: { autoResolve: '10m' } },
        'spec.autoResolve must be an object',
        'field: spec.autoResolve',
      ],
      [{ name: 'r6', spec: { components: {} } }, 'spec.components must be a list', 'field: spec.components'],
      [{ name: 'r7', labels: [], spec: {} }, 'labels must be an object', 'field: labels'],
    ];
    for (const [body, message, details] of cases) {
      const response = await post(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toMatchObject({ code: 'P0001', message, details });
    }

    // Responders write incidents, not the rules that open them.
    const responder = await send('POST', '/api/db/incident_rules', 'responder', { name: 'nope', spec: {} });
    expect(responder.statusCode).toBe(403);
  });
});
