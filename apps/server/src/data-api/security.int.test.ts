/**
 * The data API's security properties: allowlist, per-table actions, hidden and writable columns,
 * the authorize hook (401/403 before any SQL), row restrictions applied in SQL (reads, counts,
 * embeds, writes), read-only GETs, statement timeout and the row cap.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness/db.js';
import { buildFixtureApp, FIXTURE_SCHEMA, ID, installFixture } from './conformance-fixture.js';

let db: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  db = await createTestDatabase();
  await installFixture(db.pool);
  ({ app } = await buildFixtureApp(db.pool));
});

afterAll(async () => {
  await app.close();
  await db.close();
});

interface Reply {
  status: number;
  body: unknown;
  headers: Record<string, unknown>;
}

async function call(
  token: string | null,
  method: 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const response = await app.inject({
    method,
    url: `/api/db${url}`,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: response.statusCode,
    body: response.body === '' ? null : JSON.parse(response.body),
    headers: response.headers,
  };
}

async function sql<T>(text: string): Promise<T[]> {
  return (await db.pool.query(text)).rows as T[];
}

describe('authorization hook', () => {
  it('answers 401 before any SQL when not signed in', async () => {
    const reply = await call(null, 'GET', '/people');
    expect(reply.status).toBe(401);
    expect(reply.body).toMatchObject({ code: '42501', message: 'Not signed in' });
  });

  it('answers 403 for an action the role lacks, and nothing changes', async () => {
    const reply = await call('viewer', 'PATCH', `/incidents?id=eq.${ID.dbDown}`, { title: 'hacked' });
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({ code: '42501' });
    expect(await sql(`SELECT title FROM ${FIXTURE_SCHEMA}.incidents WHERE id = '${ID.dbDown}'`)).toEqual([
      { title: 'Database down' },
    ]);
  });

  it('asks the hook for read on every relation an embed touches (junction included)', async () => {
    const { default: Fastify } = await import('fastify');
    const { dataApiRoutes } = await import('./index.js');
    const { fixtureAllowlist } = await import('./conformance-fixture.js');
    const { createSchemaCatalog } = await import('./catalog.js');
    const asked: string[] = [];
    const local = Fastify();
    await local.register(dataApiRoutes, {
      prefix: '/api/db',
      pool: db.pool,
      allowlist: fixtureAllowlist,
      catalog: createSchemaCatalog(db.pool, { schema: FIXTURE_SCHEMA }),
      authorize: async (_request, target, action) => {
        asked.push(`${target.kind}:${target.relation}:${action}`);
        return target.relation === 'teams' && action === 'read' && asked.length > 3
          ? { allow: false, status: 403, message: 'no teams for you' }
          : { allow: true };
      },
    });
    const allowed = await local.inject({ method: 'GET', url: '/api/db/people?select=name,teams(name)' });
    expect(allowed.statusCode).toBe(200);
    expect([...asked].sort()).toEqual(['table:people:read', 'table:team_members:read', 'table:teams:read']);
    const denied = await local.inject({ method: 'GET', url: '/api/db/people?select=name,teams(name)' });
    expect(denied.statusCode).toBe(403);
    expect(JSON.parse(denied.body)).toMatchObject({ code: '42501', message: 'no teams for you' });
    await local.close();
  });
});

describe('allowlist', () => {
  it('treats a relation outside the allowlist as unknown', async () => {
    const reply = await call('admin', 'GET', '/sentinel');
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ code: '42P01' });
  });

  it('does not embed relations outside the allowlist', async () => {
    const reply = await call('admin', 'GET', '/people?select=name,sentinel(*)');
    expect(reply.body).toMatchObject({ code: 'PGRST200' });
  });

  it('does not call functions outside the allowlist, and the sentinel is untouched', async () => {
    const reply = await call('admin', 'POST', '/rpc/wipe_sentinel', {});
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ code: 'PGRST202' });
    expect(await sql(`SELECT count(*)::int AS n FROM ${FIXTURE_SCHEMA}.sentinel`)).toEqual([{ n: 2 }]);
  });

  it('answers 405 for an action the table does not offer', async () => {
    const del = await call('admin', 'DELETE', `/config_changes?config_id=eq.${ID.dbPrimary}`);
    expect(del.status).toBe(405);
    expect(del.body).toMatchObject({ code: 'PGRST117' });
    const insertIntoView = await call('admin', 'POST', '/configs', { name: 'x', type: 'y' });
    expect(insertIntoView.status).toBe(405);
    expect(await sql(`SELECT count(*)::int AS n FROM ${FIXTURE_SCHEMA}.config_changes`)).toEqual([{ n: 4 }]);
  });

  it('allows a filterless PATCH/DELETE only where the table says so', async () => {
    const { createDataApiAllowlist } = await import('./allowlist.js');
    const { DataApiEngine } = await import('./engine.js');
    const { createSchemaCatalog } = await import('./catalog.js');
    const engine = new DataApiEngine({
      pool: db.pool,
      catalog: createSchemaCatalog(db.pool, { schema: FIXTURE_SCHEMA }),
      allowlist: createDataApiAllowlist({
        tables: { team_members: { allowFilterlessWrite: true }, teams: {} },
      }),
      maxRows: 100,
      statementTimeoutMs: 5000,
    });
    const request = (name: string) => ({
      method: 'DELETE',
      target: { kind: 'relation' as const, name },
      rawQuery: '',
      headers: { prefer: 'count=exact' },
      body: undefined,
      basePath: '',
    });
    const refused = await engine.handle(request('teams'), async () => ({ allow: true }));
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body!)).toMatchObject({ code: '21000' });
    const allowed = await engine.handle(request('team_members'), async () => ({ allow: true }));
    expect(allowed.status).toBe(204);
    expect(allowed.headers['content-range']).toBe('0-3/4');
    expect(await sql(`SELECT count(*)::int AS n FROM ${FIXTURE_SCHEMA}.team_members`)).toEqual([{ n: 0 }]);
    expect(await sql(`SELECT count(*)::int AS n FROM ${FIXTURE_SCHEMA}.teams`)).toEqual([{ n: 2 }]);
  });

  it('treats a listed relation that does not exist (yet) as unknown, without breaking', async () => {
    const { createDataApiAllowlist } = await import('./allowlist.js');
    const { DataApiEngine } = await import('./engine.js');
    const { createSchemaCatalog } = await import('./catalog.js');
    const engine = new DataApiEngine({
      pool: db.pool,
      catalog: createSchemaCatalog(db.pool, { schema: FIXTURE_SCHEMA }),
      allowlist: createDataApiAllowlist({ tables: { not_yet_migrated: {} } }),
      maxRows: 10,
      statementTimeoutMs: 1000,
    });
    const response = await engine.handle(
      {
        method: 'GET',
        target: { kind: 'relation', name: 'not_yet_migrated' },
        rawQuery: '',
        headers: {},
        body: undefined,
        basePath: '',
      },
      async () => ({ allow: true }),
    );
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body!)).toMatchObject({ code: '42P01' });
  });
});

describe('hidden columns', () => {
  it('never selects them, not even with *', async () => {
    const star = await call('admin', 'GET', '/people?select=*');
    expect((star.body as Array<Record<string, unknown>>).every((row) => !('password_hash' in row))).toBe(
      true,
    );
    const tokens = await call('admin', 'GET', '/access_tokens?select=*');
    expect(tokens.status).toBe(200);
    expect((tokens.body as Array<Record<string, unknown>>)[0]).not.toHaveProperty('value');
  });

  it('answers as for an unknown column when named in select, filters, order, JSON paths or logic trees', async () => {
    for (const url of [
      '/people?select=password_hash',
      '/people?select=h:password_hash::text',
      '/people?password_hash=eq.hash-a',
      '/people?password_hash=like.hash*',
      '/people?order=password_hash',
      '/people?or=(password_hash.eq.hash-a,name.eq.x)',
      '/people?password_hash.filter=hash*',
      '/access_tokens?select=value',
      '/access_tokens?value=eq.secret-hash-value',
      '/people?select=name,access_tokens(value)',
    ]) {
      const reply = await call('admin', 'GET', url);
      expect(reply.status, url).toBe(400);
      expect(reply.body, url).toMatchObject({ code: '42703' });
      expect(JSON.stringify(reply.body)).not.toContain('hash-a');
    }
  });

  it('hides view columns that show a hidden base column', async () => {
    const view = await call('admin', 'GET', '/token_owners?select=*');
    expect(view.status).toBe(200);
    expect((view.body as Array<Record<string, unknown>>)[0]).not.toHaveProperty('value');
    const filtered = await call('admin', 'GET', '/token_owners?value=eq.secret-hash-value');
    expect(filtered.body).toMatchObject({ code: '42703' });
  });

  it('hides them in rows returned by functions and embeds', async () => {
    const rpc = await call('admin', 'GET', '/rpc/people_named?p_name=Alice');
    expect(rpc.status).toBe(200);
    expect((rpc.body as Array<Record<string, unknown>>)[0]).not.toHaveProperty('password_hash');
    const embedded = await call('admin', 'GET', `/access_tokens?select=name,people(*)`);
    expect(JSON.stringify(embedded.body)).not.toContain('hash-a');
  });

  it('cannot be written, and writes return no hidden column', async () => {
    const patch = await call('admin', 'PATCH', `/people?id=eq.${ID.bob}`, { password_hash: 'x' });
    expect(patch.status).toBe(400);
    expect(patch.body).toMatchObject({ code: 'PGRST204' });
    expect(await sql(`SELECT password_hash FROM ${FIXTURE_SCHEMA}.people WHERE id = '${ID.bob}'`)).toEqual([
      { password_hash: 'hash-b' },
    ]);
    const insert = await call(
      'admin',
      'POST',
      '/people',
      { name: 'Ivy' },
      { prefer: 'return=representation' },
    );
    expect(insert.status).toBe(201);
    expect((insert.body as Array<Record<string, unknown>>)[0]).not.toHaveProperty('password_hash');
  });

  it('refuses columns that are visible but not writable', async () => {
    const reply = await call('admin', 'PATCH', `/config_items?id=eq.${ID.dbPrimary}`, {
      created_at: '2000-01-01T00:00:00Z',
    });
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({ code: '42501' });
  });
});

describe('row restrictions (in SQL)', () => {
  it('restrict reads and counts', async () => {
    const reply = await call('alice', 'GET', '/incidents?select=title&order=title', undefined, {
      prefer: 'count=exact',
    });
    expect(reply.body).toEqual([{ title: 'Cert expiry, again' }, { title: 'Database down' }]);
    expect(reply.headers['content-range']).toBe('0-1/2');
  });

  it('restrict embedded relations', async () => {
    const reply = await call(
      'alice',
      'GET',
      `/people?select=name,incidents!created_by(title)&id=eq.${ID.bob}`,
    );
    expect(reply.body).toEqual([{ name: 'Bob', incidents: [] }]);
    const hypotheses = await call('alice', 'GET', '/hypotheses?select=title&order=title');
    expect(hypotheses.body).toEqual([{ title: 'Network partition' }, { title: 'Primary crashed' }]);
  });

  it('restrict which rows an update or delete can reach', async () => {
    const patch = await call(
      'alice',
      'PATCH',
      `/incidents?id=eq.${ID.slowApi}`,
      { title: 'mine now' },
      { prefer: 'return=representation' },
    );
    expect(patch.status).toBe(200);
    expect(patch.body).toEqual([]);
    const del = await call('alice', 'DELETE', `/incidents?id=eq.${ID.slowApi}`, undefined, {
      prefer: 'count=exact',
    });
    expect(del.status).toBe(204);
    expect(del.headers['content-range']).toBe('*/0');
    expect(await sql(`SELECT title FROM ${FIXTURE_SCHEMA}.incidents WHERE id = '${ID.slowApi}'`)).toEqual([
      { title: 'Slow API' },
    ]);
  });

  it('refuse inserted or updated rows outside the restriction, storing nothing', async () => {
    const insert = await call('alice', 'POST', '/incidents', { title: 'Bobs incident', created_by: ID.bob });
    expect(insert.status).toBe(403);
    expect(insert.body).toMatchObject({ code: '42501' });
    expect(
      await sql(`SELECT count(*)::int AS n FROM ${FIXTURE_SCHEMA}.incidents WHERE title = 'Bobs incident'`),
    ).toEqual([{ n: 0 }]);
    const handOver = await call('alice', 'PATCH', `/incidents?id=eq.${ID.certExpiry}`, {
      created_by: ID.bob,
    });
    expect(handOver.status).toBe(403);
    expect(
      await sql(`SELECT created_by FROM ${FIXTURE_SCHEMA}.incidents WHERE id = '${ID.certExpiry}'`),
    ).toEqual([{ created_by: ID.alice }]);
    const own = await call('alice', 'POST', '/incidents', { title: 'Alices incident', created_by: ID.alice });
    expect(own.status).toBe(201);
  });
});

describe('bounds', () => {
  it('runs GET in a read-only transaction: a volatile function cannot write through GET', async () => {
    const reply = await call('admin', 'GET', `/rpc/close_incident?p_id=${ID.slowApi}`);
    expect(reply.status).toBe(405);
    expect(reply.body).toMatchObject({ code: '25006' });
    expect(await sql(`SELECT status FROM ${FIXTURE_SCHEMA}.incidents WHERE id = '${ID.slowApi}'`)).toEqual([
      { status: 'open' },
    ]);
  });

  it('cancels statements past the timeout (57014, as PostgREST maps it)', async () => {
    const { app: quick } = await buildFixtureApp(db.pool, { statementTimeoutMs: 100 });
    const started = Date.now();
    const reply = await quick.inject({
      method: 'GET',
      url: '/api/db/rpc/slow_echo?seconds=5',
      headers: { authorization: 'Bearer admin' },
    });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(JSON.parse(reply.body)).toMatchObject({ code: '57014' });
    // The timeout is SET LOCAL: the pooled connection goes back without it.
    const { rows } = await db.pool.query<{ statement_timeout: string }>('SHOW statement_timeout');
    expect(rows[0].statement_timeout).toBe('0');
    await quick.close();
  });

  it('caps the rows of a response at maxRows, with the true total in Content-Range', async () => {
    const { app: capped } = await buildFixtureApp(db.pool, { maxRows: 2 });
    const reply = await capped.inject({
      method: 'GET',
      url: '/api/db/config_items?select=name&order=name',
      headers: { authorization: 'Bearer admin', prefer: 'count=exact' },
    });
    expect(JSON.parse(reply.body)).toHaveLength(2);
    expect(reply.headers['content-range']).toBe('0-1/5');
    const limited = await capped.inject({
      method: 'GET',
      url: '/api/db/config_items?limit=100',
      headers: { authorization: 'Bearer admin' },
    });
    expect(JSON.parse(limited.body)).toHaveLength(2);
    await capped.close();
  });

  it('refreshes the catalog after invalidate() (migrations)', async () => {
    const { app: fresh, catalog } = await buildFixtureApp(db.pool);
    const before = await fresh.inject({
      method: 'GET',
      url: '/api/db/people?select=nickname',
      headers: { authorization: 'Bearer admin' },
    });
    expect(JSON.parse(before.body)).toMatchObject({ code: '42703' });
    await db.pool.query(`ALTER TABLE ${FIXTURE_SCHEMA}.people ADD COLUMN nickname text`);
    catalog.invalidate();
    const after = await fresh.inject({
      method: 'GET',
      url: `/api/db/people?select=nickname&id=eq.${ID.alice}`,
      headers: { authorization: 'Bearer admin' },
    });
    expect(JSON.parse(after.body)).toEqual([{ nickname: null }]);
    await fresh.close();
  });

  it('runs a repeated read shape as a prepared statement: right rows for each value, also after a schema change', async () => {
    const { app: fresh, catalog } = await buildFixtureApp(db.pool);
    const read = async (id: string): Promise<unknown> => {
      const response = await fresh.inject({
        method: 'GET',
        url: `/api/db/config_items?select=*&id=eq.${id}`,
        headers: { authorization: 'Bearer admin' },
      });
      expect(response.statusCode, response.body).toBe(200);
      return JSON.parse(response.body);
    };
    // More uses than the read pool has connections, so every session prepares and reuses it.
    const ids = [ID.dbPrimary, ID.dbReplica, ID.apiDeployment, ID.stagingApi, ID.oldVm];
    for (let round = 0; round < 4; round++) {
      for (const id of ids) expect(await read(id)).toMatchObject([{ id }]);
    }
    await db.pool.query(`ALTER TABLE ${FIXTURE_SCHEMA}.config_items ADD COLUMN owner text DEFAULT 'ops'`);
    catalog.invalidate();
    for (const id of ids) expect(await read(id)).toMatchObject([{ id, owner: 'ops' }]);
    await db.pool.query(`ALTER TABLE ${FIXTURE_SCHEMA}.config_items DROP COLUMN owner`);
    // The cached plan names a column that is gone: the first answer fails, the catalog refreshes.
    const gone = await fresh.inject({
      method: 'GET',
      url: `/api/db/config_items?select=*&id=eq.${ID.dbPrimary}`,
      headers: { authorization: 'Bearer admin' },
    });
    if (gone.statusCode !== 200) expect(JSON.parse(gone.body)).toMatchObject({ code: '42703' });
    const recovered = (await read(ID.dbPrimary)) as Array<Record<string, unknown>>;
    expect(recovered[0]).not.toHaveProperty('owner');
    await fresh.close();
  });
});
