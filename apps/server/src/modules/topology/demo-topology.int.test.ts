import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { loadCanary, runCanaryChecks } from '../health/index.js';
import { loadDemoResources } from '../resources/index.js';
import { loadTopology, runTopology } from './topology-engine.js';

/**
 * demo/topology.yaml against this machine's services: the demo loader applies it (with the
 * health demo, whose checks the Opsdeck component links), the datastore canary runs for real
 * against Redis and MariaDB, and the topology's lookups list the machine's PostgreSQL databases.
 */
const DEMO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../demo');
const logger = pino({ level: 'silent' });
let db: TestDatabase;
let dir: string;

beforeAll(async () => {
  db = await createTestDatabase();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'opsdeck-demo-topology-'));
  for (const file of ['topology.yaml', 'health.yaml'])
    await fs.copyFile(path.join(DEMO_DIR, file), path.join(dir, file));
});

afterAll(async () => {
  await db?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe('demo/topology.yaml', () => {
  it('builds this machine: Opsdeck, PostgreSQL with its databases, Redis and MariaDB from their checks', async () => {
    const report = await loadDemoResources(db.pool, dir, logger, { variables: { OPSDECK_PORT: '1' } });
    expect(report.status).toBe('loaded');
    expect(report.results.filter((result) => result.status !== 'created')).toEqual([]);
    const { rows: canaries } = await db.pool.query<{ id: string }>(
      `SELECT id FROM canaries WHERE name = 'local-datastores' AND namespace = 'demo'`,
    );
    const canary = await loadCanary(db.pool, canaries[0].id);
    const checks = await runCanaryChecks(canary!, { pool: db.pool, logger, checkTimeoutMs: 10_000 });
    expect(checks.errors).toEqual([]);
    const { rows: topologies } = await db.pool.query<{ id: string }>(
      `SELECT id FROM topologies WHERE name = 'this-machine' AND namespace = 'demo'`,
    );
    const topology = await loadTopology(db.pool, topologies[0].id);
    const summary = await runTopology(db.pool, topology!, { logger, lookupTimeoutMs: 10_000 });
    expect(summary.lookups).toBe(2);

    const { rows } = await db.pool.query<{
      name: string;
      parent: string | null;
      health: string;
      properties: { name: string; value?: number; text?: string }[];
      labels: Record<string, string>;
    }>(
      `SELECT c.name, p.name AS parent, c.health, c.properties, c.labels FROM components c
       LEFT JOIN components p ON p.id = c.parent_id WHERE c.topology_id = $1 AND c.deleted_at IS NULL`,
      [topology!.id],
    );
    const byName = new Map(rows.map((row) => [row.name, row]));
    expect(byName.get('Redis')?.health).toBe('healthy');
    expect(byName.get('MariaDB')?.health).toBe('healthy');
    const postgres = byName.get('postgres');
    expect(postgres).toMatchObject({
      parent: 'databases',
      health: 'healthy',
      labels: { database: 'postgres' },
    });
    expect(rows.some((row) => row.name === db.name)).toBe(false);
    // pg_database_size is a bigint, which arrives as text: stored as the number it is.
    expect(postgres?.properties[0]).toEqual({
      name: 'size',
      value: expect.any(Number),
      unit: 'MB',
      headline: true,
    });
    expect(byName.get('this-machine')?.properties[0].value).toBe(os.availableParallelism());
    expect(byName.get('Opsdeck')?.properties).toEqual([{ name: 'port', text: '1', headline: true }]);
    expect(byName.get('Opsdeck')?.health).toBe('unknown');
  });
});
