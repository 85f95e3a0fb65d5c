import { relationRowSchemas, type Role } from '@opsdeck/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFullApp, type FullApp } from '../../../test/harness/full-app.js';
import { bearer, createTestPerson, TestBrowser } from './test-fixtures/auth-test-app.js';

/** The agent registry on the whole app: generate, list with counts, token as the agent only, soft delete. */

let full: FullApp;

beforeAll(async () => {
  full = await startFullApp('Agents Admin');
});

afterAll(async () => {
  await full?.close();
});

async function signedIn(roles: Role[]) {
  const person = await createTestPerson(full.db.pool, { roles });
  const browser = new TestBrowser(full.app);
  expect((await browser.signIn(person.email, person.password)).statusCode).toBe(200);
  return browser;
}

describe('POST /api/agent/generate', () => {
  it('answers {id, username, access_token}; the token authenticates as the agent, with no role', async () => {
    const admin = await signedIn(['admin']);
    const answer = await admin.post('/api/agent/generate', { name: 'edge-1', properties: { region: 'eu' } });
    expect(answer.statusCode, answer.body).toBe(200);
    const {
      id,
      username,
      access_token: token,
    } = answer.json<{
      id: string;
      username: string;
      access_token: string;
    }>();
    expect(username).toBe('agent-edge-1');
    expect(token).toMatch(/^opsdeck_/);

    const whoami = await full.app.inject({ url: '/api/auth/whoami', headers: bearer(token) });
    expect(whoami.statusCode).toBe(200);
    expect(whoami.json()).toMatchObject({ payload: { user: { name: 'agent-edge-1' }, roles: [] } });
    // Only the agent: no role, so nothing else is readable with its token.
    expect((await full.app.inject({ url: '/api/db/canaries', headers: bearer(token) })).statusCode).toBe(403);

    // Listed with the counts of what it owns; the token is nowhere in the row.
    await full.db.pool.query(
      `INSERT INTO config_items (name, type, agent_id) VALUES ('pod-a', 'Kubernetes::Pod', $1), ('pod-b', 'Kubernetes::Pod', $1)`,
      [id],
    );
    // Three checks of a canary the agent runs, one of them deleted; a check of this server's own.
    const canary = await full.db.pool.query<{ id: string }>(
      `INSERT INTO canaries (name, agent_id) VALUES ('edge-canary', $1) RETURNING id`,
      [id],
    );
    await full.db.pool.query(
      `INSERT INTO checks (canary_id, agent_id, type, name, deleted_at)
       VALUES ($1, $2, 'http', 'a', NULL), ($1, $2, 'http', 'b', NULL), ($1, $2, 'http', 'gone', now()),
              ($1, DEFAULT, 'http', 'local', NULL)`,
      [canary.rows[0]!.id, id],
    );
    const listed = await admin.get(`/api/db/agents_summary?id=eq.${id}`);
    const [row] = listed.json<unknown[]>();
    const parsed = relationRowSchemas.agents_summary.parse(row);
    expect(parsed).toEqual(row);
    expect(parsed).toMatchObject({
      name: 'edge-1',
      properties: { region: 'eu' },
      config_count: 2,
      checks_count: 2,
    });
    expect(listed.body).not.toContain(token.split('_')[2]);

    // Soft delete: the row keeps its name with deleted_at, the token ends at once.
    const removed = await admin.request({ method: 'DELETE', url: `/api/agent/${id}` });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ message: 'edge-1 deleted successfully' });
    expect((await full.app.inject({ url: '/api/auth/whoami', headers: bearer(token) })).statusCode).toBe(401);
    const kept = await full.db.pool.query<{ deleted_at: Date | null }>(
      'SELECT deleted_at FROM agents WHERE id = $1',
      [id],
    );
    expect(kept.rows[0]?.deleted_at).not.toBeNull();
    // The name is free again.
    expect((await admin.post('/api/agent/generate', { name: 'edge-1' })).statusCode).toBe(200);
  });

  it('refuses a taken or bad name naming the field, and a missing body', async () => {
    const admin = await signedIn(['admin']);
    expect((await admin.post('/api/agent/generate', { name: 'twin' })).statusCode).toBe(200);
    const twin = await admin.post('/api/agent/generate', { name: 'twin' });
    expect(twin.statusCode).toBe(400);
    expect(twin.json()).toMatchObject({ error: 'An agent named twin already exists', field: 'name' });
    const bad = await admin.post('/api/agent/generate', { name: 'has space' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'name' });
    expect((await admin.post('/api/agent/generate', {})).statusCode).toBe(400);
  });

  it('editors may register agents; viewers and responders may not; deleting an unknown agent is 404', async () => {
    const editor = await signedIn(['editor']);
    expect((await editor.post('/api/agent/generate', { name: 'by-editor' })).statusCode).toBe(200);
    for (const role of ['viewer', 'responder'] as const) {
      const browser = await signedIn([role]);
      expect((await browser.post('/api/agent/generate', { name: `by-${role}` })).statusCode).toBe(403);
      const list = await browser.get('/api/db/agents_summary');
      expect(list.statusCode).toBe(200);
    }
    const admin = await signedIn(['admin']);
    const missing = await admin.request({
      method: 'DELETE',
      url: '/api/agent/00000000-0000-4000-8000-000000000099',
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe('agent_id filters', () => {
  it('the topology API and the data API answer only what the agent owns', async () => {
    const admin = await signedIn(['admin']);
    const generated = await admin.post('/api/agent/generate', { name: 'filter-edge' });
    const { id } = generated.json<{ id: string }>();
    await full.db.pool.query(
      `INSERT INTO components (name, type, agent_id) VALUES ('edge-svc', 'Service', $1), ('edge-db', 'Database', $1)`,
      [id],
    );
    await full.db.pool.query(`INSERT INTO components (name, type) VALUES ('local-svc', 'Service')`);
    await full.db.pool.query(
      `INSERT INTO config_items (name, type, agent_id) VALUES ('edge-node', 'Kubernetes::Node', $1)`,
      [id],
    );
    await full.db.pool.query(
      `INSERT INTO config_items (name, type) VALUES ('local-node', 'Kubernetes::Node')`,
    );

    const topology = await admin.get(`/api/canary/api/topology?agent_id=${id}`);
    expect(topology.statusCode, topology.body).toBe(200);
    const names = topology
      .json<{ components: { name: string }[] }>()
      .components.map((component) => component.name)
      .sort();
    expect(names).toEqual(['edge-db', 'edge-svc']);

    const configs = await admin.get(`/api/db/config_items?select=name&agent_id=eq.${id}`);
    expect(configs.json()).toEqual([{ name: 'edge-node' }]);
    const bad = await admin.get('/api/canary/api/topology?agent_id=not-a-uuid');
    expect(bad.statusCode).toBeGreaterThanOrEqual(400);
    expect(bad.statusCode).toBeLessThan(500);
  });
});
