/**
 * The default allowlist against the product's migrated schema: every listed relation and
 * function answers (200 when it exists, 42P01/PGRST202 when it does not exist yet), never 5xx,
 * and the secrets API.md names stay hidden.
 */
import { dataApiAllowlist, dataApiAllowlistInput } from '../modules.js';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness/db.js';
import { createSchemaCatalog } from './catalog.js';
import { dataApiRoutes } from './index.js';

let db: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  db = await createTestDatabase();
  app = Fastify({ logger: false });
  await app.register(dataApiRoutes, {
    prefix: '/api/db',
    pool: db.pool,
    allowlist: dataApiAllowlist,
    catalog: createSchemaCatalog(db.pool),
    authorize: async () => ({ allow: true }),
  });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await db.close();
});

async function existing(kind: 'r' | 'f', name: string): Promise<boolean> {
  const sql =
    kind === 'r'
      ? `SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relname = $1`
      : `SELECT 1 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public' AND p.proname = $1`;
  return (await db.pool.query(sql, [name])).rowCount! > 0;
}

describe('default allowlist on the migrated schema', () => {
  const relations = [
    ...Object.keys(dataApiAllowlistInput.tables ?? {}),
    ...Object.keys(dataApiAllowlistInput.views ?? {}),
  ];

  it('every relation and function API.md §1 names (the allowlist) exists in the migrated schema', async () => {
    const functions = Object.keys(dataApiAllowlistInput.functions ?? {});
    const missing: string[] = [];
    for (const name of relations) if (!(await existing('r', name))) missing.push(name);
    for (const name of functions) if (!(await existing('f', name))) missing.push(`rpc/${name}`);
    expect(missing).toEqual([]);
  });

  it('answers every listed relation: rows when it exists, 42P01 when it does not', async () => {
    let found = 0;
    for (const name of relations) {
      const response = await app.inject({
        method: 'GET',
        url: `/api/db/${name}?limit=1`,
        headers: { prefer: 'count=exact' },
      });
      if (await existing('r', name)) {
        found++;
        expect(response.statusCode, `${name}: ${response.body}`).toBe(200);
        expect(Array.isArray(JSON.parse(response.body))).toBe(true);
      } else {
        expect(response.statusCode, `${name}: ${response.body}`).toBe(404);
        expect(JSON.parse(response.body)).toMatchObject({ code: '42P01' });
      }
    }
    expect(found).toBeGreaterThan(relations.length / 2);
  });

  it('answers every listed function without a 5xx', async () => {
    const functions = Object.keys(dataApiAllowlistInput.functions ?? {});
    for (const name of functions) {
      const response = await app.inject({ method: 'GET', url: `/api/db/rpc/${name}` });
      expect(response.statusCode, `${name}: ${response.body}`).toBeLessThan(500);
      if (!(await existing('f', name))) expect(JSON.parse(response.body)).toMatchObject({ code: 'PGRST202' });
    }
  });

  it('never returns access token hashes or connection secrets', async () => {
    const person = await db.pool.query<{ id: string }>(
      `INSERT INTO people (name) VALUES ('Token Owner') RETURNING id`,
    );
    await db.pool.query(
      `INSERT INTO access_tokens (name, value, person_id) VALUES ('ci', 'hash-value', $1)`,
      [person.rows[0].id],
    );
    await db.pool.query(
      `INSERT INTO connections (name, type, password, certificate) VALUES ('db', 'postgres', 'p4ss', 'cert')`,
    );
    const tokens = await app.inject({ method: 'GET', url: '/api/db/access_tokens?select=*' });
    expect(tokens.statusCode).toBe(200);
    expect(tokens.body).not.toContain('hash-value');
    const valueColumn = await app.inject({ method: 'GET', url: '/api/db/access_tokens?select=value' });
    expect(JSON.parse(valueColumn.body)).toMatchObject({ code: '42703' });
    const connections = await app.inject({ method: 'GET', url: '/api/db/connections' });
    expect(connections.statusCode).toBe(200);
    expect(connections.body).not.toContain('p4ss');
    expect(connections.body).not.toContain('cert');
    const embedded = await app.inject({
      method: 'GET',
      url: '/api/db/people?select=name,access_tokens!access_tokens_person_id_fkey(*)',
    });
    expect(embedded.statusCode, embedded.body).toBe(200);
    expect(embedded.body).not.toContain('hash-value');
  });

  it('canaries_with_status read through its read source answers exactly what the view holds', async () => {
    await db.pool.query(`
      INSERT INTO canaries (id, name, namespace, labels, schedule) VALUES
        ('ca900000-0000-4000-8000-000000000001', 'mixed', 'ns', '{"a":"1"}', '@every 1m'),
        ('ca900000-0000-4000-8000-000000000002', 'all-good', 'ns', '{}', NULL),
        ('ca900000-0000-4000-8000-000000000003', 'empty', 'ns', '{}', NULL)`);
    await db.pool.query(`
      INSERT INTO checks (canary_id, type, name, status, last_runtime, deleted_at) VALUES
        ('ca900000-0000-4000-8000-000000000001', 'http', 'm1', 'healthy', now() - interval '1 minute', NULL),
        ('ca900000-0000-4000-8000-000000000001', 'http', 'm2', 'unhealthy', now(), NULL),
        ('ca900000-0000-4000-8000-000000000001', 'http', 'm3', NULL, NULL, NULL),
        ('ca900000-0000-4000-8000-000000000001', 'http', 'gone', 'unhealthy', now(), now()),
        ('ca900000-0000-4000-8000-000000000002', 'dns', 'g1', 'healthy', now(), NULL)`);
    const { rows } = await db.pool.query<{ body: unknown }>(
      `SELECT coalesce(json_agg(v ORDER BY v.id), '[]') AS body FROM canaries_with_status v`,
    );
    const response = await app.inject({
      method: 'GET',
      url: '/api/db/canaries_with_status?select=*&order=id',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(JSON.parse(response.body)).toEqual(rows[0].body);
    expect(JSON.parse(response.body)).toHaveLength(3);
  });

  it('every relation with a read source answers exactly what its view holds', async () => {
    const person = await db.pool.query<{ id: string }>(
      `INSERT INTO people (name) VALUES ('Member') RETURNING id`,
    );
    await db.pool.query(`
      INSERT INTO config_scrapers (id, name) VALUES ('5c800000-0000-4000-8000-000000000001', 'k8s');
      INSERT INTO config_items (id, name, type, scraper_id) VALUES
        ('cf800000-0000-4000-8000-000000000001', 'a', 'Pod', '5c800000-0000-4000-8000-000000000001'),
        ('cf800000-0000-4000-8000-000000000002', 'b', 'Pod', NULL);
      INSERT INTO config_relationships (config_id, related_id, relation) VALUES
        ('cf800000-0000-4000-8000-000000000001', 'cf800000-0000-4000-8000-000000000002', 'uses');
      INSERT INTO config_changes (config_id, change_type) VALUES ('cf800000-0000-4000-8000-000000000001', 'diff');
      INSERT INTO config_analysis (config_id, analyzer, status) VALUES
        ('cf800000-0000-4000-8000-000000000002', 'x', 'open');
      INSERT INTO topologies (id, name) VALUES
        ('70800000-0000-4000-8000-000000000001', 'mixed'), ('70800000-0000-4000-8000-000000000002', 'bare');
      INSERT INTO components (id, topology_id, name, type, health, deleted_at) VALUES
        ('c0800000-0000-4000-8000-000000000001', '70800000-0000-4000-8000-000000000001', 'a', 'svc', 'healthy', NULL),
        ('c0800000-0000-4000-8000-000000000002', '70800000-0000-4000-8000-000000000001', 'b', 'svc', 'warning', NULL),
        ('c0800000-0000-4000-8000-000000000003', '70800000-0000-4000-8000-000000000001', 'c', 'svc', NULL, NULL),
        ('c0800000-0000-4000-8000-000000000004', '70800000-0000-4000-8000-000000000001', 'd', 'svc', 'unhealthy', now());
      INSERT INTO job_history (name, resource_id, resource_type, status) VALUES
        ('TopologyRun', '70800000-0000-4000-8000-000000000001', 'topology', 'WARNING');
      INSERT INTO teams (id, name) VALUES ('7e800000-0000-4000-8000-000000000001', 'ops');
      INSERT INTO team_components (team_id, component_id) VALUES
        ('7e800000-0000-4000-8000-000000000001', 'c0800000-0000-4000-8000-000000000002');
      INSERT INTO team_members (team_id, person_id) VALUES ('7e800000-0000-4000-8000-000000000001', '${person.rows[0].id}')`);
    const withSource = Object.entries(dataApiAllowlistInput.views ?? {})
      .filter(([, policy]) => policy.readSource)
      .map(([name]) => name);
    expect(withSource.sort()).toEqual([
      'canaries_with_status',
      'config_detail',
      'teams_with_status',
      'topologies_with_status',
    ]);
    for (const name of withSource) {
      const { rows } = await db.pool.query<{ body: unknown }>(
        `SELECT coalesce(json_agg(v ORDER BY v.id), '[]') AS body FROM ${name} v`,
      );
      const response = await app.inject({ method: 'GET', url: `/api/db/${name}?select=*&order=id` });
      expect(response.statusCode, response.body).toBe(200);
      expect(JSON.parse(response.body), name).toEqual(rows[0].body);
      expect((JSON.parse(response.body) as unknown[]).length, name).toBeGreaterThan(0);
    }
  });

  it('refuses filterless writes everywhere', async () => {
    const response = await app.inject({ method: 'DELETE', url: '/api/db/comments' });
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({ code: '21000' });
  });
});
