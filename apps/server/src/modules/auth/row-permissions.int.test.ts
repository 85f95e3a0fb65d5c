/**
 * Permission rows limited by tags, agents, object selectors or one target become row restrictions
 * in the data API's SQL (through createDataApiAuthorizer): reads, counts, embeds and views see
 * only the matching rows, writes outside them are refused or reach nothing, and deny beats allow.
 */
import type { Role } from '@opsdeck/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { ROW_SCOPED_RELATIONS } from './row-scopes.js';
import {
  bearer,
  buildAuthTestApp,
  createTestPerson,
  createTestToken,
  type TestApp,
} from './test-fixtures/auth-test-app.js';

let db: TestDatabase;
let testApp: TestApp;

const AGENT = 'a1000000-0000-4000-8000-000000000001';
const CONFIG = {
  prodApi: 'c1000000-0000-4000-8000-000000000001',
  prodDb: 'c1000000-0000-4000-8000-000000000002',
  stagingApi: 'c1000000-0000-4000-8000-000000000003',
  edgePod: 'c1000000-0000-4000-8000-000000000004',
};
const CANARY = {
  teamA: 'ca000000-0000-4000-8000-000000000001',
  teamB: 'ca000000-0000-4000-8000-000000000002',
};
const CHECK = {
  teamA: 'cc000000-0000-4000-8000-000000000001',
  teamB: 'cc000000-0000-4000-8000-000000000002',
};

beforeAll(async () => {
  db = await createTestDatabase();
  testApp = await buildAuthTestApp(db.pool);
  await db.pool.query(`INSERT INTO agents (id, name) VALUES ('${AGENT}', 'edge-agent')`);
  await db.pool.query(`
    INSERT INTO config_items (id, name, type, tags, labels, agent_id) VALUES
      ('${CONFIG.prodApi}', 'api-prod', 'Kubernetes::Deployment', '{"env":"prod"}', '{"app":"api"}', DEFAULT),
      ('${CONFIG.prodDb}', 'db-prod', 'Postgres::Instance', '{"env":"prod"}', '{"app":"db"}', DEFAULT),
      ('${CONFIG.stagingApi}', 'api-staging', 'Kubernetes::Deployment', '{"env":"staging"}', '{"app":"api"}', DEFAULT),
      ('${CONFIG.edgePod}', 'edge-pod', 'Kubernetes::Pod', NULL, '{}', '${AGENT}')`);
  await db.pool.query(`
    INSERT INTO config_changes (config_id, change_type, summary) VALUES
      ('${CONFIG.prodApi}', 'diff', 'prod api changed'),
      ('${CONFIG.stagingApi}', 'diff', 'staging api changed')`);
  await db.pool.query(`
    INSERT INTO canaries (id, name, namespace, labels) VALUES
      ('${CANARY.teamA}', 'http-a', 'team-a', '{"team":"a"}'),
      ('${CANARY.teamB}', 'http-b', 'team-b', '{"team":"b"}')`);
  await db.pool.query(`
    INSERT INTO checks (id, canary_id, type, name, namespace) VALUES
      ('${CHECK.teamA}', '${CANARY.teamA}', 'http', 'a-homepage', 'team-a'),
      ('${CHECK.teamB}', '${CANARY.teamB}', 'http', 'b-homepage', 'team-b')`);
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
  agents?: string[];
  objectSelector?: Record<string, unknown>;
  configId?: string;
}

/** A person (with roles) and a token, holding the given permission rows. */
async function personWith(roles: Role[], grants: Grant[]): Promise<Record<string, string>> {
  const person = await createTestPerson(db.pool, { roles });
  for (const grant of grants) {
    await db.pool.query(
      `INSERT INTO permissions (subject, subject_type, person_id, action, deny, object, tags, agents, object_selector, config_id)
       VALUES ($1::text, 'person', $1::uuid, $2, $3, $4, $5, $6, $7, $8)`,
      [
        person.id,
        grant.action,
        grant.deny ?? false,
        grant.object ?? null,
        grant.tags ? JSON.stringify(grant.tags) : null,
        grant.agents ?? null,
        grant.objectSelector ? JSON.stringify(grant.objectSelector) : null,
        grant.configId ?? null,
      ],
    );
  }
  return bearer(await createTestToken(db.pool, person.id));
}

async function get(
  headers: Record<string, string>,
  url: string,
  prefer?: string,
): Promise<{ status: number; body: unknown; contentRange: string | undefined }> {
  const response = await testApp.app.inject({
    method: 'GET',
    url: `/api/db${url}`,
    headers: { ...headers, ...(prefer ? { prefer } : {}) },
  });
  return {
    status: response.statusCode,
    body: response.json(),
    contentRange: response.headers['content-range'] as string | undefined,
  };
}

const names = (body: unknown): string[] => (body as Array<{ name: string }>).map((row) => row.name);

describe('an allow permission scoped to a tag (no role gives the catalog)', () => {
  let headers: Record<string, string>;
  beforeAll(async () => {
    headers = await personWith([], [{ action: 'read', object: 'catalog', tags: { env: 'prod' } }]);
  });

  it('sees only the matching rows, and count=exact agrees', async () => {
    const all = await get(headers, '/config_items?select=name&order=name', 'count=exact');
    expect(all.status).toBe(200);
    expect(names(all.body)).toEqual(['api-prod', 'db-prod']);
    expect(all.contentRange).toBe('0-1/2');
    const filtered = await get(
      headers,
      `/config_items?select=name&id=eq.${CONFIG.stagingApi}`,
      'count=exact',
    );
    expect(filtered.body).toEqual([]);
    expect(filtered.contentRange).toBe('*/0');
  });

  it('restricts views and related tables (changes of matching configs only), and aggregates', async () => {
    expect(names((await get(headers, '/configs?select=name&order=name')).body)).toEqual([
      'api-prod',
      'db-prod',
    ]);
    expect(names((await get(headers, '/config_names?select=name&order=name')).body)).toEqual([
      'api-prod',
      'db-prod',
    ]);
    const changes = await get(headers, '/config_changes?select=summary,config_items(name)');
    expect(changes.body).toEqual([{ summary: 'prod api changed', config_items: { name: 'api-prod' } }]);
    expect((await get(headers, '/config_items?select=count()')).body).toEqual([{ count: 2 }]);
  });

  it('gives no other resource and no writes', async () => {
    expect((await get(headers, '/checks?select=name')).status).toBe(403);
    const patch = await testApp.app.inject({
      method: 'PATCH',
      url: `/api/db/config_items?id=eq.${CONFIG.prodApi}`,
      headers: { ...headers, 'content-type': 'application/json' },
      payload: { name: 'renamed' },
    });
    expect(patch.statusCode).toBe(403);
  });
});

describe('writes with a scoped permission', () => {
  let headers: Record<string, string>;
  beforeAll(async () => {
    headers = await personWith(
      [],
      [
        { action: 'read', object: 'catalog', tags: { env: 'prod' } },
        { action: 'update', object: 'catalog', tags: { env: 'prod' } },
        { action: 'read,create', object: 'canaries', tags: { team: 'a' } },
      ],
    );
  });

  const patch = (id: string, body: unknown) =>
    testApp.app.inject({
      method: 'PATCH',
      url: `/api/db/config_items?id=eq.${id}`,
      headers: { ...headers, 'content-type': 'application/json', prefer: 'return=representation' },
      payload: JSON.stringify(body),
    });

  it('updates matching rows, reaches nothing outside them', async () => {
    const inside = await patch(CONFIG.prodDb, { description: 'primary' });
    expect(inside.statusCode).toBe(200);
    expect(inside.json()).toMatchObject([{ id: CONFIG.prodDb, description: 'primary' }]);
    const outside = await patch(CONFIG.stagingApi, { description: 'hijacked' });
    expect(outside.json()).toEqual([]);
    const { rows } = await db.pool.query('SELECT description FROM config_items WHERE id = $1', [
      CONFIG.stagingApi,
    ]);
    expect(rows[0].description).toBeNull();
  });

  it('refuses to move a row out of the scope, storing nothing', async () => {
    const moved = await patch(CONFIG.prodDb, { tags: { env: 'staging' } });
    expect(moved.statusCode).toBe(403);
    expect(moved.json()).toMatchObject({ code: '42501' });
    const { rows } = await db.pool.query('SELECT tags FROM config_items WHERE id = $1', [CONFIG.prodDb]);
    expect(rows[0].tags).toEqual({ env: 'prod' });
  });

  it('refuses inserts outside the scope and accepts those inside (tags match labels here)', async () => {
    const insert = (name: string, labels: Record<string, string>) =>
      testApp.app.inject({
        method: 'POST',
        url: '/api/db/canaries',
        headers: { ...headers, 'content-type': 'application/json', prefer: 'return=representation' },
        payload: { name, namespace: 'default', labels },
      });
    const outside = await insert('sneaky', { team: 'b' });
    expect(outside.statusCode).toBe(403);
    expect((await db.pool.query("SELECT 1 FROM canaries WHERE name = 'sneaky'")).rowCount).toBe(0);
    const inside = await insert('allowed', { team: 'a' });
    expect(inside.statusCode).toBe(201);
    const canaries = await get(headers, '/canaries?select=name&order=name');
    expect(names(canaries.body)).toEqual(['allowed', 'http-a']);
  });
});

describe('deny beats allow', () => {
  it('hides the rows a scoped deny matches from a role that reads everything', async () => {
    const headers = await personWith(
      ['viewer'],
      [{ action: 'read', object: 'catalog', deny: true, tags: { env: 'prod' } }],
    );
    const rows = await get(headers, '/config_items?select=name&order=name', 'count=exact');
    expect(rows.status).toBe(200);
    // edge-pod has no tags at all: a deny on tags does not hide it.
    expect(names(rows.body)).toEqual(['api-staging', 'edge-pod']);
    expect(rows.contentRange).toBe('0-1/2');
  });

  it('a scoped deny inside a scoped allow', async () => {
    const headers = await personWith(
      [],
      [
        { action: 'read', object: 'catalog', tags: { env: 'prod' } },
        { action: 'read', deny: true, objectSelector: { configs: [{ name: 'db-*' }] } },
      ],
    );
    expect(names((await get(headers, '/config_items?select=name')).body)).toEqual(['api-prod']);
  });

  it('an unscoped deny refuses the resource even with a scoped allow', async () => {
    const headers = await personWith(
      [],
      [
        { action: 'read', object: 'catalog', tags: { env: 'prod' } },
        { action: 'read', object: 'catalog', deny: true },
      ],
    );
    expect((await get(headers, '/config_items?select=name')).status).toBe(403);
  });
});

describe('selectors, agents and single targets', () => {
  it('object selectors: types, name globs and label selectors', async () => {
    const headers = await personWith(
      [],
      [
        {
          action: 'read',
          objectSelector: {
            configs: [{ types: ['Kubernetes::Deployment'], labelSelector: 'app=api' }, { name: 'edge-*' }],
          },
        },
      ],
    );
    const rows = await get(headers, '/config_items?select=name&order=name', 'count=exact');
    expect(names(rows.body)).toEqual(['api-prod', 'api-staging', 'edge-pod']);
    expect(rows.contentRange).toBe('0-2/3');
  });

  it('agents by name or id', async () => {
    const byName = await personWith([], [{ action: 'read', object: 'catalog', agents: ['edge-agent'] }]);
    expect(names((await get(byName, '/config_items?select=name')).body)).toEqual(['edge-pod']);
    const byId = await personWith([], [{ action: 'read', object: 'catalog', agents: [AGENT] }]);
    expect(names((await get(byId, '/config_names?select=name')).body)).toEqual(['edge-pod']);
  });

  it('a permission on one config item', async () => {
    const headers = await personWith([], [{ action: 'read', configId: CONFIG.prodDb }]);
    expect(names((await get(headers, '/configs?select=name')).body)).toEqual(['db-prod']);
    expect((await get(headers, '/checks?select=name')).status).toBe(403);
  });

  it('checks and their statuses by a namespace selector', async () => {
    const headers = await personWith(
      [],
      [{ action: 'read', objectSelector: { checks: [{ namespace: 'team-a' }] } }],
    );
    expect(names((await get(headers, '/checks?select=name')).body)).toEqual(['a-homepage']);
    expect(names((await get(headers, '/check_names?select=name')).body)).toEqual(['a-homepage']);
    expect((await get(headers, '/check_statuses?select=check_id')).status).toBe(200);
    // A selector for checks says nothing about canaries.
    expect((await get(headers, '/canaries?select=name')).status).toBe(403);
  });

  it('fails closed on selector fields it cannot evaluate', async () => {
    const headers = await personWith(
      [],
      [{ action: 'read', objectSelector: { configs: [{ fieldSelector: 'config.spec.replicas=3' }] } }],
    );
    const rows = await get(headers, '/config_items?select=name');
    expect(rows.status).toBe(200);
    expect(rows.body).toEqual([]);
  });
});

describe('every row-scoped relation', () => {
  it('compiles its restriction against the real schema (never a 500)', async () => {
    const selector = [{ name: 'nothing-matches-*', labelSelector: 'team=a' }];
    const headers = await personWith(
      [],
      [
        {
          action: 'read',
          objectSelector: {
            configs: selector,
            checks: selector,
            canaries: selector,
            playbooks: selector,
            components: selector,
            connections: selector,
            topologies: selector,
            notifications: selector,
            views: selector,
          },
        },
        { action: 'read', object: 'incident', objectSelector: { configs: selector, checks: selector } },
        { action: 'read', deny: true, object: '*', agents: ['edge-agent'] },
      ],
    );
    let answered = 0;
    for (const relation of Object.keys(ROW_SCOPED_RELATIONS)) {
      const response = await get(headers, `/${relation}?limit=1`, 'count=exact');
      // 403 where a feature or the relation's own resource rules it out; never a server error.
      expect([200, 403], `${relation}: ${JSON.stringify(response.body)}`).toContain(response.status);
      if (response.status === 200) {
        expect(response.body, relation).toEqual([]);
        answered++;
      }
    }
    expect(answered).toBe(Object.keys(ROW_SCOPED_RELATIONS).length);
  });
});
