/**
 * Row scopes beyond a table's own rows (ROW_SCOPED_RELATIONS), through real HTTP with several
 * users: checks inherit the permission rows that name their canary, health views follow their
 * checks and canaries, incidents (and their hypotheses, evidences, comments and summary views)
 * follow the config items, components and checks their evidences reference, a config
 * relationship needs both of its ends, components follow the topology selectors that name their
 * topology. Each relation returns exactly its rows, `count=exact` agrees, embeds of hidden rows
 * are null or absent, and writes to hidden rows reach nothing.
 */
import type { Role } from '@opsdeck/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import {
  bearer,
  buildAuthTestApp,
  createTestPerson,
  createTestToken,
  type TestApp,
} from './test-fixtures/auth-test-app.js';

let db: TestDatabase;
let testApp: TestApp;

const CONFIG = {
  prodApi: 'c2000000-0000-4000-8000-000000000001',
  prodDb: 'c2000000-0000-4000-8000-000000000002',
  stagingApi: 'c2000000-0000-4000-8000-000000000003',
};
const CANARY = {
  teamA: 'ca200000-0000-4000-8000-000000000001',
  teamB: 'ca200000-0000-4000-8000-000000000002',
};
const CHECK = {
  a1: 'cc200000-0000-4000-8000-000000000001',
  a2: 'cc200000-0000-4000-8000-000000000002',
  b1: 'cc200000-0000-4000-8000-000000000003',
};
const TOPOLOGY = {
  one: '70200000-0000-4000-8000-000000000001',
  two: '70200000-0000-4000-8000-000000000002',
};
const COMPONENT = {
  one: 'c0200000-0000-4000-8000-000000000001',
  two: 'c0200000-0000-4000-8000-000000000002',
};
const INCIDENT = {
  prod: '1c200000-0000-4000-8000-000000000001',
  staging: '1c200000-0000-4000-8000-000000000002',
  checkB: '1c200000-0000-4000-8000-000000000003',
  bare: '1c200000-0000-4000-8000-000000000004',
};

beforeAll(async () => {
  db = await createTestDatabase();
  testApp = await buildAuthTestApp(db.pool);
  await db.pool.query(`
    INSERT INTO config_items (id, name, type, tags) VALUES
      ('${CONFIG.prodApi}', 'api-prod', 'Kubernetes::Deployment', '{"env":"prod"}'),
      ('${CONFIG.prodDb}', 'db-prod', 'Postgres::Instance', '{"env":"prod"}'),
      ('${CONFIG.stagingApi}', 'api-staging', 'Kubernetes::Deployment', '{"env":"staging"}')`);
  await db.pool.query(`
    INSERT INTO config_relationships (config_id, related_id, relation) VALUES
      ('${CONFIG.prodApi}', '${CONFIG.prodDb}', 'uses'),
      ('${CONFIG.prodApi}', '${CONFIG.stagingApi}', 'mirrors'),
      ('${CONFIG.stagingApi}', '${CONFIG.prodDb}', 'reads')`);
  await db.pool.query(`
    INSERT INTO canaries (id, name, namespace, labels) VALUES
      ('${CANARY.teamA}', 'http-a', 'team-a', '{"team":"a"}'),
      ('${CANARY.teamB}', 'http-b', 'team-b', '{"team":"b"}')`);
  await db.pool.query(`
    INSERT INTO checks (id, canary_id, type, name, namespace, status) VALUES
      ('${CHECK.a1}', '${CANARY.teamA}', 'http', 'a-home', 'team-a', 'healthy'),
      ('${CHECK.a2}', '${CANARY.teamA}', 'http', 'a-login', 'team-a', 'healthy'),
      ('${CHECK.b1}', '${CANARY.teamB}', 'http', 'b-home', 'team-b', 'unhealthy')`);
  await db.pool.query(`
    INSERT INTO check_statuses (check_id, time, status, duration) VALUES
      ('${CHECK.a1}', now() - interval '1 minute', true, 10),
      ('${CHECK.a1}', now() - interval '2 minutes', true, 12),
      ('${CHECK.a2}', now() - interval '1 minute', true, 20),
      ('${CHECK.b1}', now() - interval '1 minute', false, 30)`);
  await db.pool.query(`
    INSERT INTO check_config_relationships (config_id, check_id, canary_id) VALUES
      ('${CONFIG.prodApi}', '${CHECK.a1}', '${CANARY.teamA}'),
      ('${CONFIG.stagingApi}', '${CHECK.b1}', '${CANARY.teamB}')`);
  await db.pool.query(`
    INSERT INTO topologies (id, name, labels) VALUES
      ('${TOPOLOGY.one}', 'shop', '{"team":"a"}'),
      ('${TOPOLOGY.two}', 'billing', '{"team":"b"}')`);
  await db.pool.query(`
    INSERT INTO components (id, topology_id, name, type) VALUES
      ('${COMPONENT.one}', '${TOPOLOGY.one}', 'shop-frontend', 'service'),
      ('${COMPONENT.two}', '${TOPOLOGY.two}', 'billing-api', 'service')`);
  await db.pool.query(`
    INSERT INTO check_component_relationships (component_id, check_id, canary_id) VALUES
      ('${COMPONENT.one}', '${CHECK.a2}', '${CANARY.teamA}'),
      ('${COMPONENT.two}', '${CHECK.b1}', '${CANARY.teamB}')`);
  await db.pool.query(`
    INSERT INTO incidents (id, title, type, severity, status) VALUES
      ('${INCIDENT.prod}', 'prod api down', 'availability', 'high', 'open'),
      ('${INCIDENT.staging}', 'staging api slow', 'availability', 'low', 'open'),
      ('${INCIDENT.checkB}', 'b-home failing', 'availability', 'medium', 'open'),
      ('${INCIDENT.bare}', 'no evidence yet', 'availability', 'low', 'open')`);
  const hypothesis = async (incident: string, title: string, evidence: Record<string, string>) => {
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO hypotheses (incident_id, title, type) VALUES ($1, $2, 'root') RETURNING id`,
      [incident, title],
    );
    const [[column, value]] = Object.entries(evidence);
    const type = column === 'config_id' ? 'config' : column === 'check_id' ? 'check' : 'topology';
    await db.pool.query(
      `INSERT INTO evidences (hypothesis_id, type, description, ${column}) VALUES ($1, $2, $3, $4)`,
      [rows[0].id, type, `evidence of ${title}`, value],
    );
  };
  await hypothesis(INCIDENT.prod, 'prod root', { config_id: CONFIG.prodApi });
  await hypothesis(INCIDENT.staging, 'staging root', { config_id: CONFIG.stagingApi });
  await hypothesis(INCIDENT.checkB, 'check root', { check_id: CHECK.b1 });
  await db.pool.query(`
    INSERT INTO comments (incident_id, comment) VALUES
      ('${INCIDENT.prod}', 'looking at prod'),
      ('${INCIDENT.staging}', 'looking at staging')`);
});

afterAll(async () => {
  await testApp?.app.close();
  await db?.close();
});

interface Grant {
  action: string;
  object?: string;
  deny?: boolean;
  tags?: Record<string, string>;
  objectSelector?: Record<string, unknown>;
  configId?: string;
  canaryId?: string;
  checkId?: string;
}

async function personWith(roles: Role[], grants: Grant[]): Promise<Record<string, string>> {
  const person = await createTestPerson(db.pool, { roles });
  for (const grant of grants) {
    await db.pool.query(
      `INSERT INTO permissions (subject, subject_type, person_id, action, deny, object, tags, object_selector,
                                config_id, canary_id, check_id)
       VALUES ($1::text, 'person', $1::uuid, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        person.id,
        grant.action,
        grant.deny ?? false,
        grant.object ?? null,
        grant.tags ? JSON.stringify(grant.tags) : null,
        grant.objectSelector ? JSON.stringify(grant.objectSelector) : null,
        grant.configId ?? null,
        grant.canaryId ?? null,
        grant.checkId ?? null,
      ],
    );
  }
  return bearer(await createTestToken(db.pool, person.id));
}

interface Answer {
  status: number;
  body: unknown;
  contentRange: string | undefined;
}

async function request(
  headers: Record<string, string>,
  method: 'GET' | 'PATCH' | 'DELETE',
  url: string,
  options: { prefer?: string; payload?: unknown } = {},
): Promise<Answer> {
  const response = await testApp.app.inject({
    method,
    url: `/api/db${url}`,
    headers: {
      ...headers,
      ...(options.prefer ? { prefer: options.prefer } : {}),
      ...(options.payload ? { 'content-type': 'application/json' } : {}),
    },
    payload: options.payload ? JSON.stringify(options.payload) : undefined,
  });
  return {
    status: response.statusCode,
    body: response.body === '' ? null : response.json(),
    contentRange: response.headers['content-range'] as string | undefined,
  };
}

const get = (headers: Record<string, string>, url: string): Promise<Answer> =>
  request(headers, 'GET', url, { prefer: 'count=exact' });

/** The rows' values of one column, and the Content-Range total must equal their number. */
async function column(headers: Record<string, string>, url: string, name: string): Promise<unknown[]> {
  const answer = await get(headers, url);
  expect(answer.status, `${url}: ${JSON.stringify(answer.body)}`).toBe(200);
  const rows = answer.body as Array<Record<string, unknown>>;
  expect(answer.contentRange, url).toBe(rows.length === 0 ? '*/0' : `0-${rows.length - 1}/${rows.length}`);
  return rows.map((row) => row[name]);
}

describe('checks inherit the permission rows that name their canary', () => {
  let canaryA: Record<string, string>;
  beforeAll(async () => {
    canaryA = await personWith([], [{ action: 'read', canaryId: CANARY.teamA }]);
  });

  it('canaries, checks, check names and statuses: exactly canary A’s rows, counts agree', async () => {
    expect(await column(canaryA, '/canaries?select=name', 'name')).toEqual(['http-a']);
    expect(await column(canaryA, '/canary_names?select=name', 'name')).toEqual(['http-a']);
    expect(await column(canaryA, '/checks?select=name&order=name', 'name')).toEqual(['a-home', 'a-login']);
    expect(await column(canaryA, '/check_names?select=name&order=name', 'name')).toEqual([
      'a-home',
      'a-login',
    ]);
    const statuses = await column(canaryA, '/check_statuses?select=check_id&order=check_id', 'check_id');
    expect(statuses).toEqual([CHECK.a1, CHECK.a1, CHECK.a2]);
  });

  it('health views: canaries_with_status, check_summary_for_config, checks_by_component, relationships', async () => {
    const canaries = await get(canaryA, '/canaries_with_status?select=name,status,checks');
    expect(canaries.body).toEqual([
      { name: 'http-a', status: 'healthy', checks: { healthy: 2, unhealthy: 0, unknown: 0 } },
    ]);
    expect(canaries.contentRange).toBe('0-0/1');
    expect(await column(canaryA, '/check_summary_for_config?select=name', 'name')).toEqual(['a-home']);
    expect(await column(canaryA, '/checks_by_component?select=name', 'name')).toEqual(['a-login']);
    expect(await column(canaryA, '/check_config_relationships?select=check_id', 'check_id')).toEqual([
      CHECK.a1,
    ]);
    expect(await column(canaryA, '/check_component_relationships?select=check_id', 'check_id')).toEqual([
      CHECK.a2,
    ]);
  });

  it('a check selector alone does not open its canary; a canary target says nothing about configs', async () => {
    expect((await get(canaryA, '/config_items?select=name')).status).toBe(403);
    const checkOnly = await personWith([], [{ action: 'read', checkId: CHECK.a2 }]);
    expect(await column(checkOnly, '/checks?select=name', 'name')).toEqual(['a-login']);
    expect((await get(checkOnly, '/canaries?select=name')).status).toBe(403);
  });
});

describe('canaries_with_status counts only the checks the caller sees', () => {
  it('a deny on one check: its canary stays visible, its roll-up leaves the check out', async () => {
    const viewer = await personWith(['viewer'], [{ action: 'read', deny: true, checkId: CHECK.a2 }]);
    expect(await column(viewer, '/checks?select=name&order=name', 'name')).toEqual(['a-home', 'b-home']);
    const canaries = await get(viewer, '/canaries_with_status?select=name,status,checks&order=name');
    expect(canaries.body).toEqual([
      { name: 'http-a', status: 'healthy', checks: { healthy: 1, unhealthy: 0, unknown: 0 } },
      { name: 'http-b', status: 'unhealthy', checks: { healthy: 0, unhealthy: 1, unknown: 0 } },
    ]);
    expect(canaries.contentRange).toBe('0-1/2');
    // the same roll-up when the view is embedded or filtered on its computed columns
    const filtered = await get(viewer, '/canaries_with_status?select=name,checks&checks->>healthy=eq.1');
    expect(filtered.body).toEqual([{ name: 'http-a', checks: { healthy: 1, unhealthy: 0, unknown: 0 } }]);
  });

  it('a deny on the unhealthy check turns its canary’s status to unknown (no checks left)', async () => {
    const viewer = await personWith(['viewer'], [{ action: 'read', deny: true, checkId: CHECK.b1 }]);
    const canaries = await get(viewer, '/canaries_with_status?select=name,status,checks&order=name');
    expect(canaries.body).toEqual([
      { name: 'http-a', status: 'healthy', checks: { healthy: 2, unhealthy: 0, unknown: 0 } },
      { name: 'http-b', status: 'unknown', checks: { healthy: 0, unhealthy: 0, unknown: 0 } },
    ]);
  });

  it('an unrestricted viewer still counts every live check', async () => {
    const viewer = await personWith(['viewer'], []);
    const canaries = await get(viewer, '/canaries_with_status?select=name,checks&order=name');
    expect(canaries.body).toEqual([
      { name: 'http-a', checks: { healthy: 2, unhealthy: 0, unknown: 0 } },
      { name: 'http-b', checks: { healthy: 0, unhealthy: 1, unknown: 0 } },
    ]);
  });
});

describe('a deny on one canary for a role that edits everything', () => {
  let editor: Record<string, string>;
  beforeAll(async () => {
    editor = await personWith(['editor'], [{ action: '*', deny: true, canaryId: CANARY.teamB }]);
  });

  it('hides the canary, its checks and their statuses; embeds of hidden rows are absent or null', async () => {
    expect(await column(editor, '/canaries?select=name', 'name')).toEqual(['http-a']);
    expect(await column(editor, '/checks?select=name&order=name', 'name')).toEqual(['a-home', 'a-login']);
    expect(await column(editor, '/check_statuses?select=check_id', 'check_id')).not.toContain(CHECK.b1);
    expect(await column(editor, '/canaries_with_status?select=name', 'name')).toEqual(['http-a']);
    const statuses = await get(
      editor,
      `/check_statuses?select=check_id,checks(name)&check_id=eq.${CHECK.b1}`,
    );
    expect(statuses.body).toEqual([]);
    // Relationship rows are scoped by their check: only a-home's edge remains.
    const edges = await get(editor, '/check_config_relationships?select=config_id,checks(name)');
    expect(edges.body).toEqual([{ config_id: CONFIG.prodApi, checks: { name: 'a-home' } }]);
  });

  it('PATCH and DELETE of hidden checks reach nothing; visible ones are changed', async () => {
    const patched = await request(editor, 'PATCH', `/checks?id=eq.${CHECK.b1}`, {
      prefer: 'return=representation,count=exact',
      payload: { description: 'hijacked' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual([]);
    expect(patched.contentRange).toBe('*/0');
    const deleted = await request(editor, 'DELETE', `/checks?canary_id=eq.${CANARY.teamB}`, {
      prefer: 'return=representation',
    });
    expect(deleted.body).toEqual([]);
    const { rows } = await db.pool.query('SELECT description, deleted_at FROM checks WHERE id = $1', [
      CHECK.b1,
    ]);
    expect(rows).toEqual([{ description: null, deleted_at: null }]);
    const inside = await request(editor, 'PATCH', `/checks?namespace=like.team-*`, {
      prefer: 'return=representation',
      payload: { description: 'reviewed' },
    });
    expect((inside.body as Array<{ id: string }>).map((row) => row.id).sort()).toEqual([CHECK.a1, CHECK.a2]);
    await db.pool.query('UPDATE checks SET description = NULL');
  });
});

describe('incidents follow what their evidences are about', () => {
  it('an allow on incidents about prod config items (no incident role)', async () => {
    const prod = await personWith([], [{ action: 'read', object: 'incident', tags: { env: 'prod' } }]);
    expect(await column(prod, '/incidents?select=id', 'id')).toEqual([INCIDENT.prod]);
    expect(await column(prod, '/incident_summary?select=id', 'id')).toEqual([INCIDENT.prod]);
    expect(await column(prod, '/incidents_by_config?select=id,config_id', 'config_id')).toEqual([
      CONFIG.prodApi,
    ]);
    expect(await column(prod, '/hypotheses?select=title', 'title')).toEqual(['prod root']);
    expect(await column(prod, '/evidences?select=description', 'description')).toEqual([
      'evidence of prod root',
    ]);
    expect(await column(prod, '/comments?select=comment', 'comment')).toEqual(['looking at prod']);
    // The embed of hypotheses and evidences, and back up from an evidence to its incident.
    const detail = await get(prod, '/incidents?select=title,hypotheses(title,evidences(description))');
    expect(detail.body).toEqual([
      {
        title: 'prod api down',
        hypotheses: [{ title: 'prod root', evidences: [{ description: 'evidence of prod root' }] }],
      },
    ]);
    // The incident scope does not open the config items themselves (they are the catalog's).
    expect((await get(prod, '/config_items?select=name')).status).toBe(403);
    const evidence = await get(prod, '/evidences?select=description,config_items(name)');
    expect(evidence.status).toBe(403);
  });

  it('an allow on incidents about a canary’s checks (named canary target)', async () => {
    const canaryB = await personWith([], [{ action: 'read', object: 'incident', canaryId: CANARY.teamB }]);
    expect(await column(canaryB, '/incidents?select=title', 'title')).toEqual(['b-home failing']);
  });

  it('a permission on a config item without the incident object opens no incident', async () => {
    const configOnly = await personWith([], [{ action: 'read', configId: CONFIG.prodApi }]);
    expect((await get(configOnly, '/incidents?select=id')).status).toBe(403);
  });

  it('a deny hides incidents about the denied config item from a role that reads all incidents', async () => {
    const viewer = await personWith(
      ['viewer'],
      [{ action: 'read', object: 'incident', deny: true, configId: CONFIG.stagingApi }],
    );
    expect(await column(viewer, '/incidents?select=title&order=title', 'title')).toEqual([
      'b-home failing',
      'no evidence yet',
      'prod api down',
    ]);
    expect(await column(viewer, '/comments?select=comment', 'comment')).toEqual(['looking at prod']);
    expect(await column(viewer, '/hypotheses?select=title&order=title', 'title')).toEqual([
      'check root',
      'prod root',
    ]);
    // A visible comment embeds its visible incident.
    const fromComment = await get(viewer, '/comments?select=comment,incidents(title)');
    expect(fromComment.body).toEqual([{ comment: 'looking at prod', incidents: { title: 'prod api down' } }]);
  });

  it('writes to a hidden incident affect no row', async () => {
    const responder = await personWith(
      ['responder'],
      [{ action: '*', object: 'incident', deny: true, configId: CONFIG.stagingApi }],
    );
    const patched = await request(responder, 'PATCH', `/incidents?id=eq.${INCIDENT.staging}`, {
      prefer: 'return=representation',
      payload: { title: 'renamed' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual([]);
    const comments = await request(responder, 'PATCH', `/comments?incident_id=eq.${INCIDENT.staging}`, {
      prefer: 'return=representation',
      payload: { comment: 'edited' },
    });
    expect(comments.body).toEqual([]);
    const { rows } = await db.pool.query('SELECT title FROM incidents WHERE id = $1', [INCIDENT.staging]);
    expect(rows[0].title).toBe('staging api slow');
  });
});

describe('config relationships need both ends', () => {
  it('an allow on prod config items sees only prod-to-prod edges', async () => {
    const prod = await personWith([], [{ action: 'read', object: 'catalog', tags: { env: 'prod' } }]);
    expect(await column(prod, '/config_relationships?select=relation', 'relation')).toEqual(['uses']);
  });

  it('a deny on one end hides the edge; the embedded hidden end is null', async () => {
    const viewer = await personWith(
      ['viewer'],
      [{ action: 'read', object: 'catalog', deny: true, configId: CONFIG.stagingApi }],
    );
    expect(await column(viewer, '/config_relationships?select=relation', 'relation')).toEqual(['uses']);
    const edges = await get(
      viewer,
      '/config_items?select=name,targets:config_relationships!config_relationships_config_id_fkey(relation)&order=name',
    );
    expect(edges.body).toEqual([
      { name: 'api-prod', targets: [{ relation: 'uses' }] },
      { name: 'db-prod', targets: [] },
    ]);
    // Check relationships are scoped by their check: b-home's edge stays, its config item is null.
    const checkEdges = await get(
      viewer,
      '/check_config_relationships?select=check_id,config_items(name)&order=check_id',
    );
    expect(checkEdges.body).toEqual([
      { check_id: CHECK.a1, config_items: { name: 'api-prod' } },
      { check_id: CHECK.b1, config_items: null },
    ]);
  });
});

describe('topologies and their components', () => {
  it('a topology selector opens the topology and the components it produced', async () => {
    const shop = await personWith(
      [],
      [{ action: 'read', object: 'topology', objectSelector: { topologies: [{ name: 'shop' }] } }],
    );
    expect(await column(shop, '/topologies?select=name', 'name')).toEqual(['shop']);
    expect(await column(shop, '/components?select=name', 'name')).toEqual(['shop-frontend']);
    expect(await column(shop, '/component_names?select=name', 'name')).toEqual(['shop-frontend']);
    const embedded = await get(shop, '/topologies?select=name,components!components_topology_id_fkey(name)');
    expect(embedded.body).toEqual([{ name: 'shop', components: [{ name: 'shop-frontend' }] }]);
  });

  it('tags on topology rows match their labels; a deny by component target hides that component', async () => {
    const teamB = await personWith([], [{ action: 'read', object: 'topology', tags: { team: 'b' } }]);
    expect(await column(teamB, '/topologies?select=name', 'name')).toEqual(['billing']);
    const viewer = await personWith(
      ['viewer'],
      [{ action: 'read', deny: true, objectSelector: { components: [{ name: 'billing-*' }] } }],
    );
    expect(await column(viewer, '/components?select=name', 'name')).toEqual(['shop-frontend']);
  });
});
