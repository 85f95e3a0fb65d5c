import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheck, createConfigItem } from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { loadCanary, runCanaryChecks } from '../health/index.js';
import { inlineCanarySource, loadTopology, runTopology, type TopologyRow } from './topology-engine.js';

const logger = pino({ level: 'silent' });
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.close();
});

async function createTopology(name: string, spec: Record<string, unknown>): Promise<TopologyRow> {
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO topologies (name, spec) VALUES ($1, $2::jsonb) RETURNING id`,
    [name, JSON.stringify(spec)],
  );
  const topology = await loadTopology(db.pool, rows[0].id);
  if (!topology) throw new Error('no topology');
  return topology;
}

async function setSpec(topology: TopologyRow, spec: Record<string, unknown>): Promise<TopologyRow> {
  await db.pool.query(`UPDATE topologies SET spec = $2::jsonb WHERE id = $1`, [
    topology.id,
    JSON.stringify(spec),
  ]);
  return (await loadTopology(db.pool, topology.id))!;
}

interface Row {
  id: string;
  name: string;
  type: string | null;
  parent_id: string | null;
  labels: Record<string, string>;
  properties: Record<string, unknown>[];
  health: string | null;
  hidden: boolean;
  deleted_at: Date | null;
  path: string | null;
}

async function components(topologyId: string): Promise<Row[]> {
  const { rows } = await db.pool.query<Row>(
    `SELECT id, name, type, parent_id, labels, properties, health, hidden, deleted_at, path
     FROM components WHERE topology_id = $1 ORDER BY name`,
    [topologyId],
  );
  return rows;
}

function named(rows: Row[], name: string): Row {
  const row = rows.find((entry) => entry.name === name);
  if (!row) throw new Error(`no component ${name} among ${rows.map((entry) => entry.name).join(', ')}`);
  return row;
}

const execLookup = (json: string) => ({
  exec: [{ name: 'list', script: `echo '${json}'`, display: { expr: 'stdout' } }],
});

describe('runTopology', () => {
  it('builds the tree from nested components and an exec lookup with forEach templating', async () => {
    const topology = await createTopology('machine', {
      type: 'Machine',
      icon: 'server',
      components: [
        {
          name: 'services',
          type: 'Group',
          order: 2,
          lookup: execLookup(
            '[{"name":"api","type":"Service","properties":[{"name":"port","value":8080,"headline":true}]},{"name":"worker","type":"Service","hidden":true}]',
          ),
          forEach: {
            labels: { svc: '$(.component.name)' },
            properties: [{ name: 'owner', text: 'team-$(.component.name)' }],
          },
        },
        { name: 'disk', type: 'Disk', properties: [{ name: 'size', value: 100, unit: 'GB' }] },
      ],
    });
    const summary = await runTopology(db.pool, topology, { logger });
    expect(summary).toMatchObject({ components: 5, deleted: 0, lookups: 1 });

    const rows = await components(topology.id);
    const root = named(rows, 'machine');
    expect(root.parent_id).toBeNull();
    expect(root.type).toBe('Machine');
    const services = named(rows, 'services');
    expect(services.parent_id).toBe(root.id);
    const api = named(rows, 'api');
    expect(api.parent_id).toBe(services.id);
    expect(api.path).toBe(`${root.id}.${services.id}`);
    expect(api.labels).toEqual({ svc: 'api' });
    expect(api.properties).toEqual([
      { name: 'port', value: 8080, headline: true },
      { name: 'owner', text: 'team-api' },
    ]);
    expect(named(rows, 'worker').hidden).toBe(true);
    expect(named(rows, 'worker').labels).toEqual({ svc: 'worker' });
    expect(named(rows, 'disk').properties).toEqual([{ name: 'size', value: 100, unit: 'GB' }]);

    // A re-run keeps the ids; a component the lookup no longer returns is soft-deleted.
    const next = await setSpec(topology, {
      ...topology.spec,
      components: [
        { name: 'services', type: 'Group', lookup: execLookup('[{"name":"api","type":"Service"}]') },
        { name: 'disk', type: 'Disk' },
      ],
    });
    const again = await runTopology(db.pool, next, { logger });
    expect(again).toMatchObject({ components: 4, deleted: 1 });
    const after = await components(topology.id);
    expect(named(after, 'api').id).toBe(api.id);
    expect(named(after, 'api').deleted_at).toBeNull();
    expect(named(after, 'worker').deleted_at).not.toBeNull();
  });

  it('builds one component per database from a SQL lookup against PostgreSQL', async () => {
    await db.pool.query(`CREATE TABLE IF NOT EXISTS lookup_databases (name text, size_mb int)`);
    await db.pool.query(`INSERT INTO lookup_databases VALUES ('orders', 12), ('billing', 30)`);
    const topology = await createTopology('postgres-server', {
      type: 'PostgreSQL',
      components: [
        {
          name: 'databases',
          type: 'Group',
          lookup: {
            postgres: [
              {
                name: 'databases',
                url: db.url,
                query:
                  'SELECT name, size_mb FROM lookup_databases UNION ALL SELECT current_database(), 0 ORDER BY 1',
                display: {
                  expr: "results.rows.map(r, {'name': r.name, 'type': 'Database', 'properties': [{'name': 'size', 'value': r.size_mb, 'unit': 'MB'}]})",
                },
              },
            ],
          },
        },
      ],
    });
    await runTopology(db.pool, topology, { logger });
    const rows = await components(topology.id);
    const databases = named(rows, 'databases');
    const children = rows.filter((row) => row.parent_id === databases.id).map((row) => row.name);
    expect(children.sort()).toEqual(['billing', db.name, 'orders'].sort());
    expect(named(rows, 'billing').properties).toEqual([{ name: 'size', value: 30, unit: 'MB' }]);
    expect(named(rows, 'billing').type).toBe('Database');
  });

  it('keeps the last good components when a lookup fails', async () => {
    const topology = await createTopology('fragile', {
      components: [{ name: 'things', lookup: execLookup('[{"name":"one"},{"name":"two"}]') }],
    });
    await runTopology(db.pool, topology, { logger });
    const before = await components(topology.id);
    expect(before.map((row) => row.name)).toEqual(['fragile', 'one', 'things', 'two']);

    const broken = await setSpec(topology, {
      components: [{ name: 'things', lookup: { exec: [{ name: 'list', script: 'echo nope >&2; exit 3' }] } }],
    });
    await expect(runTopology(db.pool, broken, { logger })).rejects.toThrow(
      /spec.components\[0\].lookup exec\/list/,
    );
    const after = await components(topology.id);
    expect(after.map((row) => [row.name, row.deleted_at])).toEqual(before.map((row) => [row.name, null]));

    const notJson = await setSpec(topology, {
      components: [
        {
          name: 'things',
          lookup: { exec: [{ name: 'list', script: 'echo hello', display: { expr: 'stdout' } }] },
        },
      ],
    });
    await expect(runTopology(db.pool, notJson, { logger })).rejects.toThrow(/display did not return JSON/);
    expect((await components(topology.id)).every((row) => row.deleted_at === null)).toBe(true);
  });

  it('links checks and configs, pulls in selected components, rolls health up and emits events', async () => {
    const check = await createCheck(db.pool, {
      name: 'api-http',
      labels: { app: 'shop-api' },
      status: 'healthy',
    });
    const config = await createConfigItem(db.pool, {
      name: 'shop-api-deployment',
      type: 'Kubernetes::Deployment',
    });
    const other = await createTopology('elsewhere', {
      components: [{ name: 'shared-cache', type: 'Cache', labels: { tier: 'cache' }, health: 'warning' }],
    });
    await runTopology(db.pool, other, { logger });

    const topology = await createTopology('shop', {
      components: [
        {
          name: 'frontend',
          components: [
            {
              name: 'api',
              type: 'Service',
              checks: [{ selector: { labelSelector: 'app=shop-api' } }],
              configs: [{ name: 'shop-api-deployment', type: 'Kubernetes::Deployment' }],
            },
            { name: 'static', type: 'Service', health: 'healthy' },
          ],
        },
        { name: 'cache', selectors: [{ labelSelector: 'tier=cache' }] },
        {
          name: 'scored',
          properties: [{ name: 'errors', value: 7 }],
          healthExpr: "properties[0].value > 5 ? 'unhealthy' : 'healthy'",
        },
      ],
    });
    await runTopology(db.pool, topology, { logger });
    let rows = await components(topology.id);
    const api = named(rows, 'api');
    expect(api.health).toBe('healthy');
    expect(named(rows, 'frontend').health).toBe('healthy');
    expect(named(rows, 'cache').health).toBe('warning');
    expect(named(rows, 'scored').health).toBe('unhealthy');
    expect(named(rows, 'shop').health).toBe('unhealthy');

    const links = await db.pool.query(
      `SELECT check_id FROM check_component_relationships WHERE component_id = $1 AND deleted_at IS NULL`,
      [api.id],
    );
    expect(links.rows.map((row: { check_id: string }) => row.check_id)).toEqual([check.id]);
    const configLinks = await db.pool.query(
      `SELECT config_id FROM config_component_relationships WHERE component_id = $1 AND deleted_at IS NULL`,
      [api.id],
    );
    expect(configLinks.rows.map((row: { config_id: string }) => row.config_id)).toEqual([config.id]);
    const related = await db.pool.query<{ name: string }>(
      `SELECT c.name FROM component_relationships r JOIN components c ON c.id = r.relationship_id
       WHERE r.component_id = $1 AND r.deleted_at IS NULL`,
      [named(rows, 'cache').id],
    );
    expect(related.rows.map((row) => row.name)).toEqual(['shared-cache']);

    const eventsOf = async (id: string): Promise<string[]> =>
      (
        await db.pool.query<{ name: string }>(
          `SELECT name FROM event_queue WHERE properties->>'id' = $1 ORDER BY created_at, name`,
          [id],
        )
      ).rows.map((row) => row.name);
    expect(await eventsOf(api.id)).toEqual(['component.healthy']);

    // The check fails: api and its ancestors turn unhealthy, and only the changes are events.
    await db.pool.query(`UPDATE checks SET status = 'unhealthy' WHERE id = $1`, [check.id]);
    await runTopology(db.pool, (await loadTopology(db.pool, topology.id))!, { logger });
    rows = await components(topology.id);
    expect(named(rows, 'api').health).toBe('unhealthy');
    expect(named(rows, 'frontend').health).toBe('unhealthy');
    expect(await eventsOf(api.id)).toEqual(['component.healthy', 'component.unhealthy']);
    expect(await eventsOf(named(rows, 'frontend').id)).toEqual(['component.healthy', 'component.unhealthy']);
    expect(await eventsOf(named(rows, 'static').id)).toEqual(['component.healthy']);

    // Unchanged health on a re-run: no new event.
    await runTopology(db.pool, (await loadTopology(db.pool, topology.id))!, { logger });
    expect(await eventsOf(api.id)).toEqual(['component.healthy', 'component.unhealthy']);
  });

  it('creates a canary per inline check spec, links its checks and rolls their results up', async () => {
    let status = 200;
    const server: Server = createServer((_request, response) => {
      response.statusCode = status;
      response.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`;
    try {
      const topology = await createTopology('inline-shop', {
        components: [
          {
            name: 'web',
            type: 'Website',
            checks: [{ inline: { http: [{ name: 'web-home', url, responseCodes: [200] }] } }],
          },
        ],
      });
      await runTopology(db.pool, topology, { logger });
      const canaries = async () =>
        (
          await db.pool.query<{ id: string; name: string; deleted_at: Date | null }>(
            `SELECT id, name, deleted_at FROM canaries WHERE source = $1 ORDER BY name`,
            [inlineCanarySource(topology.id)],
          )
        ).rows;
      const [canary] = await canaries();
      expect(canary).toMatchObject({ name: 'inline-shop-inline-shop.web-0', deleted_at: null });
      const web = named(await components(topology.id), 'web');
      const linked = async () =>
        (
          await db.pool.query<{ check_id: string; name: string; selector_id: string }>(
            `SELECT r.check_id, ch.name, r.selector_id FROM check_component_relationships r
             JOIN checks ch ON ch.id = r.check_id
             WHERE r.component_id = $1 AND r.deleted_at IS NULL`,
            [web.id],
          )
        ).rows;
      const links = await linked();
      expect(links).toMatchObject([{ name: 'web-home', selector_id: 'checks[0].inline' }]);
      // Not run yet: unknown.
      expect(web.health).toBe('unknown');

      // The canary runs through the health module; the next topology run picks its result up.
      const run = async () => {
        await runCanaryChecks((await loadCanary(db.pool, canary.id))!, {
          pool: db.pool,
          logger,
          checkTimeoutMs: 5_000,
        });
        await runTopology(db.pool, (await loadTopology(db.pool, topology.id))!, { logger });
        return named(await components(topology.id), 'web').health;
      };
      expect(await run()).toBe('healthy');
      status = 500;
      expect(await run()).toBe('unhealthy');
      expect(named(await components(topology.id), 'inline-shop').health).toBe('unhealthy');
      // Re-runs keep the same canary and check.
      expect((await canaries()).map((row) => row.id)).toEqual([canary.id]);
      expect((await linked()).map((row) => row.check_id)).toEqual([links[0].check_id]);

      // An inline spec that is not a valid canary fails the run with its path.
      const broken = await setSpec(topology, {
        components: [{ name: 'web', type: 'Website', checks: [{ inline: { replicas: -1, http: [] } }] }],
      });
      await expect(runTopology(db.pool, broken, { logger })).rejects.toThrow(
        /inline-shop\.web\.checks\[0\]\.inline: spec\.replicas/,
      );

      // The inline check removed: its canary is soft-deleted and the link goes.
      const plain = await setSpec(topology, { components: [{ name: 'web', type: 'Website' }] });
      await runTopology(db.pool, plain, { logger });
      expect((await canaries())[0].deleted_at).not.toBeNull();
      expect(await linked()).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('groups the root components by a label with groupBy', async () => {
    const topology = await createTopology('grouped', {
      groupBy: { tag: 'zone' },
      components: [
        { name: 'a', labels: { zone: 'west' }, health: 'healthy' },
        { name: 'b', labels: { zone: 'east' }, health: 'unhealthy' },
        { name: 'c', labels: { zone: 'west' }, health: 'warning' },
        { name: 'loose', health: 'healthy' },
      ],
    });
    await runTopology(db.pool, topology, { logger });
    const rows = await components(topology.id);
    const root = named(rows, 'grouped');
    const west = named(rows, 'west');
    const east = named(rows, 'east');
    expect([west.parent_id, east.parent_id, named(rows, 'loose').parent_id]).toEqual([
      root.id,
      root.id,
      root.id,
    ]);
    expect([west.type, west.labels]).toEqual(['Group', { zone: 'west' }]);
    expect([named(rows, 'a').parent_id, named(rows, 'c').parent_id]).toEqual([west.id, west.id]);
    expect(named(rows, 'b').parent_id).toBe(east.id);
    expect([west.health, east.health, root.health]).toEqual(['warning', 'unhealthy', 'unhealthy']);
  });
});
