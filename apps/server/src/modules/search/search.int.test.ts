import { resourceSearchResponseSchema, type Role } from '@opsdeck/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheck, createConfigItem } from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { registerErrorHandling } from '../../platform/http/errors.js';
import { authPlugin } from '../auth/index.js';
import {
  bearer,
  createTestPerson,
  createTestToken,
  testAuthConfig,
} from '../auth/test-fixtures/auth-test-app.js';
import { searchRoutes } from './routes.js';

let db: TestDatabase;
let app: FastifyInstance;
const tokens: Partial<Record<Role, string>> = {};
const ids: Record<string, string> = {};
const ROLES: Role[] = ['admin', 'editor', 'responder', 'viewer', 'guest'];

beforeAll(async () => {
  db = await createTestDatabase();
  app = Fastify({ logger: false });
  registerErrorHandling(app);
  await app.register(authPlugin, { pool: db.pool, config: testAuthConfig() });
  await app.register(searchRoutes, { pool: db.pool });
  await app.ready();
  for (const role of ROLES) {
    const person = await createTestPerson(db.pool, { roles: [role] });
    tokens[role] = await createTestToken(db.pool, person.id);
  }
  ids.ordersCheck = (
    await createCheck(db.pool, {
      name: 'orders-api',
      type: 'http',
      status: 'healthy',
      labels: { team: 'shop' },
    })
  ).id as string;
  ids.paymentsCheck = (await createCheck(db.pool, { name: 'payments-api', type: 'tcp', status: 'unhealthy' }))
    .id as string;
  ids.goneCheck = (await createCheck(db.pool, { name: 'orders-old', deleted_at: new Date() })).id as string;
  ids.ordersPod = (
    await createConfigItem(db.pool, {
      name: 'orders-7d9',
      type: 'Kubernetes::Pod',
      health: 'healthy',
      tags: { namespace: 'shop' },
    })
  ).id as string;
  const component = await db.pool.query<{ id: string }>(
    `INSERT INTO components (name, type, icon, health) VALUES ('orders', 'Service', 'server', 'warning') RETURNING id`,
  );
  ids.ordersComponent = component.rows[0].id;
  const connection = await db.pool.query<{ id: string }>(
    `INSERT INTO connections (name, type) VALUES ('orders-db', 'postgres') RETURNING id`,
  );
  ids.ordersConnection = connection.rows[0].id;
  const playbook = await db.pool.query<{ id: string }>(
    `INSERT INTO playbooks (name, title, spec) VALUES ('restart-orders', 'Restart orders', '{"icon": "k8s"}') RETURNING id`,
  );
  ids.ordersPlaybook = playbook.rows[0].id;
});

afterAll(async () => {
  await app?.close();
  await db?.close();
});

const EVERY_KIND = (selector: object) => ({
  checks: [selector],
  components: [selector],
  configs: [selector],
  connections: [selector],
  playbooks: [selector],
});

async function search(body: unknown, role: Role = 'admin') {
  const token = tokens[role];
  if (!token) throw new Error(`no token for ${role}`);
  return app.inject({
    method: 'POST',
    url: '/api/resources/search',
    headers: bearer(token),
    payload: body as object,
  });
}

async function searchOk(body: unknown, role: Role = 'admin') {
  const response = await search(body, role);
  expect(response.statusCode).toBe(200);
  return resourceSearchResponseSchema.parse(response.json());
}

describe('POST /api/resources/search', () => {
  it('answers the five lists with id, name, icon, type and tags, deleted resources left out', async () => {
    const body = await searchOk(EVERY_KIND({ search: 'orders' }));
    expect(body.checks).toEqual([
      { id: ids.ordersCheck, name: 'orders-api', icon: null, type: 'http', tags: { team: 'shop' } },
    ]);
    expect(body.components).toEqual([
      { id: ids.ordersComponent, name: 'orders', icon: 'server', type: 'Service', tags: {} },
    ]);
    expect(body.configs).toEqual([
      {
        id: ids.ordersPod,
        name: 'orders-7d9',
        icon: null,
        type: 'Kubernetes::Pod',
        tags: { namespace: 'shop' },
      },
    ]);
    expect(body.connections.map((row) => row.id)).toEqual([ids.ordersConnection]);
    expect(body.playbooks).toEqual([
      { id: ids.ordersPlaybook, name: 'restart-orders', icon: 'k8s', type: null, tags: {} },
    ]);
  });

  it('understands the hint: name=, type= and health= with comma lists', async () => {
    const byName = await searchOk({ checks: [{ search: 'name=PAYMENTS-API' }] });
    expect(byName.checks.map((row) => row.id)).toEqual([ids.paymentsCheck]);
    const byType = await searchOk({ checks: [{ search: 'api type=http,dns' }] });
    expect(byType.checks.map((row) => row.id)).toEqual([ids.ordersCheck]);
    const byHealth = await searchOk({
      checks: [{ search: 'health=unhealthy' }],
      components: [{ search: 'health=healthy,warning' }],
      connections: [{ search: 'orders health=healthy' }],
    });
    expect(byHealth.checks.map((row) => row.id)).toEqual([ids.paymentsCheck]);
    expect(byHealth.components.map((row) => row.id)).toEqual([ids.ordersComponent]);
    // A connection has no health: asking for healthy ones finds none rather than all.
    expect(byHealth.connections).toEqual([]);
  });

  it('matches typed text literally, limits each selector and merges selectors without repeats', async () => {
    expect((await searchOk({ checks: [{ search: '%' }] })).checks).toEqual([]);
    const limited = await searchOk({ checks: [{ search: 'api', limit: 1 }] });
    expect(limited.checks.map((row) => row.name)).toEqual(['orders-api']);
    const merged = await searchOk({ checks: [{ search: 'orders' }, { search: 'api' }] });
    expect(merged.checks.map((row) => row.name)).toEqual(['orders-api', 'payments-api']);
    const local = await searchOk({ checks: [{ search: 'api', agent: 'local' }] });
    expect(local.checks).toHaveLength(2);
    const elsewhere = await searchOk({
      checks: [{ search: 'api', agent: '11111111-1111-1111-1111-111111111111' }],
    });
    expect(elsewhere.checks).toEqual([]);
  });

  it('leaves kinds that were not asked for empty', async () => {
    const body = await searchOk({ checks: [{ search: 'orders' }] });
    expect(body.components).toEqual([]);
    expect(body.playbooks).toEqual([]);
  });

  // The role matrix (core §6): connections are hidden from responders, viewers and guests.
  it.each([
    ['admin', true],
    ['editor', true],
    ['responder', false],
    ['viewer', false],
    ['guest', false],
  ] as const)(
    '%s reads connections: %s; every role reads the other kinds',
    async (role, readsConnections) => {
      const body = await searchOk(EVERY_KIND({ search: 'orders' }), role);
      expect(body.connections.length > 0).toBe(readsConnections);
      for (const kind of ['checks', 'components', 'configs', 'playbooks'] as const)
        expect(body[kind].length).toBe(1);
    },
  );

  it('refuses callers without a session and bodies out of bounds', async () => {
    const anonymous = await app.inject({ method: 'POST', url: '/api/resources/search', payload: {} });
    expect(anonymous.statusCode).toBe(401);
    expect((await search({ checks: [{ search: 'x', limit: 101 }] })).statusCode).toBe(400);
    expect((await search({ checks: 'orders' })).statusCode).toBe(400);
  });
});
