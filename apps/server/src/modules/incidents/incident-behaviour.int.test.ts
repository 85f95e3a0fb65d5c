import type { FastifyInstance } from 'fastify';
import { INCIDENT_EVENT_TYPES } from '@opsdeck/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfigItem, createIncident, createPerson } from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { withTransaction } from '../../platform/db/pool.js';
import {
  bearer,
  buildAuthTestApp,
  createTestPerson,
  createTestToken,
} from '../auth/test-fixtures/auth-test-app.js';
import { setActingPerson } from './index.js';

let db: TestDatabase;
let app: FastifyInstance;
const people: Record<'responder' | 'viewer', { id: string; token: string }> = {} as never;

beforeAll(async () => {
  db = await createTestDatabase();
  ({ app } = await buildAuthTestApp(db.pool));
  for (const role of ['responder', 'viewer'] as const) {
    const person = await createTestPerson(db.pool, { roles: [role] });
    people[role] = { id: person.id, token: await createTestToken(db.pool, person.id) };
  }
});

afterAll(async () => {
  await app?.close();
  await db?.close();
});

function write(method: 'POST' | 'PATCH' | 'DELETE', url: string, token: string, payload?: unknown) {
  return app.inject({
    method,
    url,
    headers: { ...bearer(token), 'content-type': 'application/json', prefer: 'return=representation' },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}

interface HistoryRow {
  type: string;
  description: string | null;
  created_by: string | null;
  created_at: Date;
  hypothesis_id: string | null;
  evidence_id: string | null;
  comment_id: string | null;
  responder_id: string | null;
}

async function histories(incidentId: string): Promise<HistoryRow[]> {
  const { rows } = await db.pool.query<HistoryRow>(
    `SELECT type, description, created_by, created_at, hypothesis_id, evidence_id, comment_id, responder_id
     FROM incident_histories WHERE incident_id = $1 ORDER BY created_at, type`,
    [incidentId],
  );
  return rows;
}

describe('incident timeline', () => {
  it('writes a history entry and an event for each incident event, with who and when', async () => {
    const creator = await createPerson(db.pool);
    const actor = await createPerson(db.pool);
    const before = new Date();
    const incident = await createIncident(db.pool, { created_by: creator.id });
    const responder = await db.pool.query<{ id: string }>(
      `INSERT INTO responders (incident_id, type, person_id, created_by) VALUES ($1, 'person', $2, $3) RETURNING id`,
      [incident.id, actor.id, creator.id],
    );
    const hypothesis = await db.pool.query<{ id: string }>(
      `INSERT INTO hypotheses (incident_id, title, created_by) VALUES ($1, 'DNS', $2) RETURNING id`,
      [incident.id, creator.id],
    );
    const evidence = await db.pool.query<{ id: string }>(
      `INSERT INTO evidences (hypothesis_id, type, description, created_by) VALUES ($1, 'log', 'resolver timeouts', $2) RETURNING id`,
      [hypothesis.rows[0].id, creator.id],
    );
    const comment = await db.pool.query<{ id: string }>(
      `INSERT INTO comments (incident_id, comment, created_by) VALUES ($1, 'Looking into it', $2) RETURNING id`,
      [incident.id, creator.id],
    );
    // Updates carry no created_by: the acting person comes from the transaction setting.
    await withTransaction(db.pool, async (client) => {
      await setActingPerson(client, actor.id);
      await client.query(`UPDATE incidents SET status = 'investigating' WHERE id = $1`, [incident.id]);
      await client.query(`UPDATE hypotheses SET status = 'likely' WHERE id = $1`, [hypothesis.rows[0].id]);
      await client.query(`UPDATE evidences SET definition_of_done = true WHERE id = $1`, [
        evidence.rows[0].id,
      ]);
      await client.query(`UPDATE responders SET acknowledged = now() WHERE id = $1`, [responder.rows[0].id]);
    });
    // An update that changes nothing tracked writes nothing.
    await db.pool.query(`UPDATE incidents SET description = 'more' WHERE id = $1`, [incident.id]);
    const after = new Date();

    const rows = await histories(incident.id);
    const byType = new Map(rows.map((row) => [row.type, row]));
    expect([...byType.keys()].sort()).toEqual([...INCIDENT_EVENT_TYPES].sort());
    expect(rows).toHaveLength(9);
    for (const row of rows) {
      expect(row.created_at.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
      expect(row.created_at.getTime()).toBeLessThanOrEqual(after.getTime() + 1000);
    }
    expect(byType.get('incident.created')).toMatchObject({
      created_by: creator.id,
      description: incident.title,
    });
    expect(byType.get('responder.created')).toMatchObject({
      created_by: creator.id,
      responder_id: responder.rows[0].id,
      description: 'person',
    });
    expect(byType.get('hypothesis.created')).toMatchObject({
      created_by: creator.id,
      hypothesis_id: hypothesis.rows[0].id,
      description: 'DNS',
    });
    expect(byType.get('evidence.created')).toMatchObject({
      created_by: creator.id,
      evidence_id: evidence.rows[0].id,
      hypothesis_id: hypothesis.rows[0].id,
    });
    expect(byType.get('responder.commented')).toMatchObject({
      created_by: creator.id,
      comment_id: comment.rows[0].id,
      description: 'Looking into it',
    });
    expect(byType.get('incident.status_updated')).toMatchObject({
      created_by: actor.id,
      description: 'investigating',
    });
    expect(byType.get('hypothesis.status_updated')).toMatchObject({
      created_by: actor.id,
      description: 'likely',
    });
    expect(byType.get('evidence.done_definition_added')).toMatchObject({
      created_by: actor.id,
      evidence_id: evidence.rows[0].id,
    });
    expect(byType.get('incident_status.updated')).toMatchObject({
      created_by: actor.id,
      responder_id: responder.rows[0].id,
      description: 'acknowledged',
    });

    const events = await db.pool.query<{ name: string; properties: Record<string, unknown> }>(
      `SELECT name, properties FROM event_queue WHERE properties->>'incident_id' = $1`,
      [incident.id],
    );
    expect(events.rows.map((event) => event.name).sort()).toEqual([...byType.keys()].sort());
    const statusEvent = events.rows.find((event) => event.name === 'incident.status_updated');
    expect(statusEvent?.properties).toMatchObject({
      id: incident.id,
      status: 'investigating',
      previous_status: 'open',
      created_by: actor.id,
    });
    expect(events.rows.find((event) => event.name === 'responder.commented')?.properties.id).toBe(
      comment.rows[0].id,
    );
  });

  it('defaults a new incident to open with its creator as commander and communicator', async () => {
    const creator = await createPerson(db.pool);
    const other = await createPerson(db.pool);
    const { rows } = await db.pool.query(
      `INSERT INTO incidents (title, type, severity, created_by, status)
       VALUES ('Checkout down', 'availability', 'high', $1, NULL)
       RETURNING status, commander_id, communicator_id`,
      [creator.id],
    );
    expect(rows[0]).toEqual({ status: 'open', commander_id: creator.id, communicator_id: creator.id });
    // An explicit commander is kept.
    const explicit = await createIncident(db.pool, { created_by: creator.id, commander_id: other.id });
    expect(explicit).toMatchObject({ commander_id: other.id, communicator_id: creator.id });
    // Without created_by, the acting person of the transaction is the creator.
    const acted = await withTransaction(db.pool, async (client) => {
      await setActingPerson(client, other.id);
      const inserted = await client.query(
        `INSERT INTO incidents (title, type, severity) VALUES ('Queue backlog', 'performance', 'low')
         RETURNING created_by, commander_id, communicator_id`,
      );
      return inserted.rows[0];
    });
    expect(acted).toEqual({ created_by: other.id, commander_id: other.id, communicator_id: other.id });
  });

  it('nests hypotheses root, then factor, then solution', async () => {
    const incident = await createIncident(db.pool);
    const other = await createIncident(db.pool);
    const insert = (incidentId: string, type: string, parentId: string | null) =>
      db.pool.query<{ id: string }>(
        `INSERT INTO hypotheses (incident_id, title, type, parent_id) VALUES ($1, 'h', $2, $3) RETURNING id`,
        [incidentId, type, parentId],
      );
    const root = (await insert(incident.id, 'root', null)).rows[0].id;
    const factor = (await insert(incident.id, 'factor', root)).rows[0].id;
    await insert(incident.id, 'solution', factor);
    const code = (promise: Promise<unknown>) =>
      promise.then(
        () => undefined,
        (error: { code?: string }) => error.code,
      );
    expect(await code(insert(incident.id, 'solution', root))).toBe('P0001');
    expect(await code(insert(incident.id, 'root', factor))).toBe('P0001');
    expect(await code(insert(other.id, 'factor', root))).toBe('P0001');
  });
});

describe('incident views', () => {
  it('summarises incidents with people, counts and durations from the timeline', async () => {
    const commander = await createPerson(db.pool, { avatar: 'https://example.test/a.png' });
    const responder = await createPerson(db.pool);
    const team = await db.pool.query<{ id: string; name: string }>(
      `INSERT INTO teams (name, icon) VALUES ('sre-views', 'pager') RETURNING id, name`,
    );
    const incident = await createIncident(db.pool, {
      created_by: commander.id,
      created_at: new Date(Date.now() - 3_600_000),
    });
    await db.pool.query(`INSERT INTO responders (incident_id, type, person_id) VALUES ($1, 'person', $2)`, [
      incident.id,
      responder.id,
    ]);
    await db.pool.query(`INSERT INTO responders (incident_id, type, team_id) VALUES ($1, 'team', $2)`, [
      incident.id,
      team.rows[0].id,
    ]);
    const hypothesis = await db.pool.query<{ id: string }>(
      `INSERT INTO hypotheses (incident_id, title) VALUES ($1, 'Bad config') RETURNING id`,
      [incident.id],
    );
    const config = await createConfigItem(db.pool);
    await db.pool.query(`INSERT INTO evidences (hypothesis_id, type, config_id) VALUES ($1, 'config', $2)`, [
      hypothesis.rows[0].id,
      config.id,
    ]);
    await db.pool.query(`INSERT INTO comments (incident_id, comment, created_by) VALUES ($1, 'on it', $2)`, [
      incident.id,
      responder.id,
    ]);
    for (const status of ['investigating', 'mitigated', 'resolved']) {
      await db.pool.query(`UPDATE incidents SET status = $2 WHERE id = $1`, [incident.id, status]);
    }
    // Place the status changes 10, 20 and 30 minutes after creation.
    await db.pool.query(
      `UPDATE incident_histories h SET created_at = i.created_at + CASE h.description
         WHEN 'investigating' THEN interval '10 minutes'
         WHEN 'mitigated' THEN interval '20 minutes'
         ELSE interval '30 minutes' END
       FROM incidents i WHERE i.id = h.incident_id AND h.incident_id = $1 AND h.type = 'incident.status_updated'`,
      [incident.id],
    );

    const { rows } = await db.pool.query('SELECT * FROM incident_summary WHERE id = $1', [incident.id]);
    const summary = rows[0];
    expect(summary).toMatchObject({
      id: incident.id,
      title: incident.title,
      status: 'resolved',
      severity: 'low',
      type: 'availability',
      commander: { id: commander.id, name: commander.name, avatar: 'https://example.test/a.png' },
      communicator: { id: commander.id, name: commander.name, avatar: 'https://example.test/a.png' },
      responders_count: 2,
      hypotheses_count: 1,
      evidences_count: 1,
      comments_count: 1,
      commenters: [{ id: responder.id, name: responder.name, avatar: null }],
      time_to_acknowledge: 600,
      time_to_mitigate: 1200,
      time_to_resolve: 1800,
      time_to_close: null,
    });
    expect(summary.responders).toEqual(
      expect.arrayContaining([
        { id: responder.id, name: responder.name, avatar: null },
        { id: team.rows[0].id, name: 'sre-views', avatar: 'pager' },
      ]),
    );
    expect(summary.acknowledged).not.toBeNull();
    expect(summary.resolved).not.toBeNull();

    const byConfig = await db.pool.query(
      'SELECT id, status, config_id FROM incidents_by_config WHERE config_id = $1',
      [config.id],
    );
    expect(byConfig.rows).toEqual([{ id: incident.id, status: 'resolved', config_id: config.id }]);
  });
});

describe('incidents through the data API', () => {
  it('lets a responder create and update an incident, refuses a viewer and an unknown status', async () => {
    const created = await write('POST', '/api/db/incidents', people.responder.token, {
      title: 'Payments failing',
      severity: 'high',
      type: 'availability',
      description: 'card declines',
      created_by: people.responder.id,
    });
    expect(created.statusCode).toBe(201);
    const [incident] =
      created.json<{ id: string; status: string; commander_id: string; communicator_id: string }[]>();
    expect(incident).toMatchObject({
      status: 'open',
      commander_id: people.responder.id,
      communicator_id: people.responder.id,
    });

    const viewer = await write('POST', '/api/db/incidents', people.viewer.token, {
      title: 'Nope',
      severity: 'low',
      type: 'cost',
    });
    expect(viewer.statusCode).toBe(403);
    const viewerPatch = await write('PATCH', `/api/db/incidents?id=eq.${incident.id}`, people.viewer.token, {
      status: 'closed',
    });
    expect(viewerPatch.statusCode).toBe(403);

    const unknown = await write('PATCH', `/api/db/incidents?id=eq.${incident.id}`, people.responder.token, {
      status: 'paused',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: '23514' });

    const patched = await write('PATCH', `/api/db/incidents?id=eq.${incident.id}`, people.responder.token, {
      status: 'mitigated',
    });
    expect(patched.statusCode).toBe(200);
    expect((await histories(incident.id)).map((row) => [row.type, row.description])).toEqual([
      ['incident.created', 'Payments failing'],
      ['incident.status_updated', 'mitigated'],
    ]);
  });

  it('stores one canonical form of the enums an ecosystem client sends in its own case', async () => {
    const created = await write('POST', '/api/db/incidents', people.responder.token, {
      title: 'Checkout slow',
      severity: 'Medium',
      status: 'Open',
      type: 'TechnicalDebt',
    });
    expect(created.statusCode).toBe(201);
    const [incident] = created.json<{ id: string; severity: string; status: string; type: string }[]>();
    expect(incident).toMatchObject({ severity: 'medium', status: 'open', type: 'technicalDebt' });

    const patched = await write('PATCH', `/api/db/incidents?id=eq.${incident.id}`, people.responder.token, {
      status: 'Mitigated',
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json<{ status: string }[]>()[0].status).toBe('mitigated');
    // The canonical value is what the history and filters see.
    expect((await histories(incident.id)).map((row) => row.description)).toContain('mitigated');

    const hypothesis = await write('POST', '/api/db/hypotheses', people.responder.token, {
      incident_id: incident.id,
      title: 'A slow query',
      type: 'Root',
      status: 'Likely',
    });
    expect(hypothesis.statusCode).toBe(201);
    expect(hypothesis.json<{ type: string; status: string }[]>()[0]).toMatchObject({
      type: 'root',
      status: 'likely',
    });

    const unknown = await write('PATCH', `/api/db/incidents?id=eq.${incident.id}`, people.responder.token, {
      severity: 'Severe',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: '23514' });
  });

  it('deletes a hypothesis with its comments and evidence', async () => {
    const incident = await createIncident(db.pool, { created_by: people.responder.id });
    const created = await write('POST', '/api/db/hypotheses', people.responder.token, {
      incident_id: incident.id,
      title: 'Disk full',
      created_by: people.responder.id,
    });
    expect(created.statusCode).toBe(201);
    const [hypothesis] = created.json<{ id: string; status: string; type: string }[]>();
    expect(hypothesis).toMatchObject({ status: 'possible', type: 'root' });
    const evidence = await write('POST', '/api/db/evidences', people.responder.token, {
      hypothesis_id: hypothesis.id,
      type: 'log',
      description: 'ENOSPC',
    });
    expect(evidence.statusCode).toBe(201);
    const comment = await write('POST', '/api/db/comments', people.responder.token, {
      incident_id: incident.id,
      hypothesis_id: hypothesis.id,
      comment: 'df says 100%',
    });
    expect(comment.statusCode).toBe(201);

    const removed = await write(
      'DELETE',
      `/api/db/hypotheses?id=eq.${hypothesis.id}`,
      people.responder.token,
    );
    expect(removed.statusCode).toBe(200);
    const counts = await db.pool.query(
      `SELECT (SELECT count(*)::int FROM evidences WHERE hypothesis_id = $1) AS evidences,
              (SELECT count(*)::int FROM comments WHERE hypothesis_id = $1) AS comments,
              (SELECT count(*)::int FROM comments WHERE incident_id = $2) AS incident_comments`,
      [hypothesis.id, incident.id],
    );
    expect(counts.rows[0]).toEqual({ evidences: 0, comments: 0, incident_comments: 0 });
    // The timeline keeps its entries (their links cleared).
    const timeline = await histories(incident.id);
    expect(timeline.map((row) => row.type)).toEqual(
      expect.arrayContaining(['hypothesis.created', 'evidence.created', 'responder.commented']),
    );
    expect(timeline.every((row) => row.hypothesis_id === null && row.evidence_id === null)).toBe(true);
  });
});
