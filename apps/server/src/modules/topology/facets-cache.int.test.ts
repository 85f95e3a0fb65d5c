import { topologyResponseSchema } from '@opsdeck/contracts';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { createFacetsCache, type FacetsCache } from './facets-cache.js';
import { queryTopology, queryTopologyJson } from './topology-service.js';

const logger = pino({ level: 'silent' });
let db: TestDatabase;
let cache: FacetsCache;

beforeAll(async () => {
  db = await createTestDatabase();
  cache = createFacetsCache({ pool: db.pool, logger });
});

afterAll(async () => {
  await cache?.close();
  await db?.close();
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function addRoot(name: string, type: string, extra: Record<string, unknown> = {}) {
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO components (name, type, owner, labels, health) VALUES ($1, $2, $3, $4::jsonb, $5) RETURNING id`,
    [name, type, extra.owner ?? null, JSON.stringify(extra.labels ?? {}), extra.health ?? null],
  );
  return rows[0].id;
}

describe('the topology API, written by PostgreSQL, with cached filter values', () => {
  it('keeps the filter values until a component changes, then reads them again', async () => {
    await addRoot('alpha', 'Alpha', { owner: 'team-a', labels: { env: 'prod' } });
    // The listener connects asynchronously: once connected, a second read is a hit.
    const first = await until(
      async () => {
        const before = cache.stats.hits;
        await queryTopology(db.pool, {}, undefined, cache);
        const response = await queryTopology(db.pool, {}, undefined, cache);
        return { response, hit: cache.stats.hits > before };
      },
      (value) => value.hit,
    );
    expect(first.hit).toBe(true);
    expect(first.response).toMatchObject({ types: ['Alpha'], teams: ['team-a'], tags: { env: ['prod'] } });

    // A change (committed elsewhere: a plain SQL insert) drops the cached values.
    await addRoot('beta', 'Beta', { owner: 'team-b', labels: { env: 'dev' } });
    const after = await until(
      () => queryTopology(db.pool, {}, undefined, cache),
      (response) => response.types.includes('Beta'),
    );
    expect(after).toMatchObject({
      types: ['Alpha', 'Beta'],
      teams: ['team-a', 'team-b'],
      tags: { env: ['dev', 'prod'] },
    });
    expect(after.components.map((component) => component.name)).toEqual(['alpha', 'beta']);

    // A soft delete (an update) drops them too.
    await db.pool.query(`UPDATE components SET deleted_at = now() WHERE name = 'beta'`);
    const deleted = await until(
      () => queryTopology(db.pool, {}, undefined, cache),
      (response) => !response.types.includes('Beta'),
    );
    expect(deleted.types).toEqual(['Alpha']);

    // A row scope through another table (a topology's tags) is read every time, never cached.
    const scope = {
      filters: [
        {
          kind: 'exists' as const,
          relation: 'topologies',
          on: [['id', 'topology_id']] as [string, string][],
        },
      ],
    };
    const misses = cache.stats.misses;
    await queryTopology(db.pool, {}, { components: scope, checks: null, configs: null }, cache);
    await queryTopology(db.pool, {}, { components: scope, checks: null, configs: null }, cache);
    expect(cache.stats.misses).toBe(misses + 2);
  });

  it('writes each component as the contract says: health normalised, ISO times, counts, JSON text', async () => {
    const parent = await addRoot('gamma', 'Gamma', { health: 'OK' });
    await db.pool.query(
      `INSERT INTO components (name, type, parent_id, path, health, hidden, properties)
       VALUES ('g1', 'Pod', $1::uuid, $1::text, 'failing', false, '{"not": "a list"}'::jsonb),
              ('g2', 'Pod', $1::uuid, $1::text, 'degraded', true, '[{"name": "cpu", "value": 3}]'::jsonb),
              ('g3', 'Pod', $1::uuid, $1::text, '  ', false, NULL)`,
      [parent],
    );
    const text = await queryTopologyJson(db.pool, { type: 'Gamma' }, undefined, cache);
    const response = topologyResponseSchema.parse(JSON.parse(text));
    const gamma = response.components[0];
    const row = (
      await db.pool.query<{ created_at: Date }>(`SELECT created_at FROM components WHERE id = $1`, [parent])
    ).rows[0];
    expect(gamma).toMatchObject({
      name: 'gamma',
      health: 'healthy',
      labels: {},
      properties: [],
      created_at: row.created_at.toISOString(),
      children: { healthy: 0, unhealthy: 1, warning: 1, unknown: 1 },
      checks: [],
      configs: [],
      relationships: [],
      incidents: 0,
    });
    expect(response.healthStatuses).toEqual(['healthy', 'unhealthy', 'warning', 'unknown']);
    const hiddenLeft = topologyResponseSchema.parse(
      JSON.parse(await queryTopologyJson(db.pool, { type: 'Gamma', hidden: false }, undefined, cache)),
    );
    expect(hiddenLeft.components[0].children).toEqual({ healthy: 0, unhealthy: 1, warning: 0, unknown: 1 });

    const tree = await queryTopology(db.pool, { id: parent, depth: 1 });
    const children = tree.components[0].components ?? [];
    expect(children.map((child) => [child.name, child.health])).toEqual([
      ['g1', 'unhealthy'],
      ['g2', 'warning'],
      ['g3', 'unknown'],
    ]);
    expect(children[0].properties).toEqual([]);
    expect(children[1].properties).toEqual([{ name: 'cpu', value: 3 }]);
    expect(tree.types).toEqual(['Gamma', 'Pod']);
  });
});
