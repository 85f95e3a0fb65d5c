import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheck, createConfigItem } from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { loadDemoResources } from '../resources/index.js';
import { runView } from './view-service.js';

/** demo/views.yaml: the demo loader applies it, and it runs over the demo's checks and catalog. */
const DEMO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../demo');
const logger = pino({ level: 'silent' });
let db: TestDatabase;
let dir: string;

beforeAll(async () => {
  db = await createTestDatabase();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'opsdeck-demo-views-'));
  await fs.copyFile(path.join(DEMO_DIR, 'views.yaml'), path.join(dir, 'views.yaml'));
});

afterAll(async () => {
  await db?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe('demo/views.yaml', () => {
  it('is a sidebar view over the demo checks and catalog items, with its panels', async () => {
    const report = await loadDemoResources(db.pool, dir, logger, { variables: { OPSDECK_PORT: '1' } });
    expect(report.results.filter((result) => result.status !== 'created')).toEqual([]);
    const { rows } = await db.pool.query<{ id: string; title: string; sidebar: boolean; icon: string }>(
      `SELECT id, title, sidebar, icon FROM views WHERE namespace = 'demo' AND name = 'estate'`,
    );
    expect(rows[0]).toMatchObject({ title: 'Demo Estate', sidebar: true, icon: 'server' });
    await createCheck(db.pool, { name: 'opsdeck-healthz', namespace: 'demo', status: 'healthy' });
    await createCheck(db.pool, { name: 'closed-port', namespace: 'demo', status: 'unhealthy' });
    await createConfigItem(db.pool, { name: 'opsdeck', type: 'Npm::Package', health: 'healthy' });
    await createConfigItem(db.pool, { name: 'estate', type: 'Opsdeck::DemoResource' });

    const result = await runView(db.pool, rows[0].id, {});
    expect(result.table).toBe('view_demo_estate');
    expect(result.rows.map((row) => [row[0], row[1], row[2]]).sort()).toEqual([
      ['closed-port', 'check', 'unhealthy'],
      ['opsdeck', 'catalog item', 'healthy'],
      ['opsdeck-healthz', 'check', 'healthy'],
    ]);
    expect(result.panels.map((panel) => [panel.name, panel.error ?? null, panel.rows])).toEqual([
      [
        'Health',
        null,
        [
          { health: 'healthy', count: 2 },
          { health: 'unhealthy', count: 1 },
        ],
      ],
      ['Rows', null, [{ value: 3 }]],
      [
        'By kind',
        null,
        [
          { kind: 'catalog item', count: 1 },
          { kind: 'check', count: 2 },
        ],
      ],
    ]);
    const other = await runView(db.pool, rows[0].id, {
      variables: { catalog_type: 'Opsdeck::DemoResource' },
    });
    expect(other.rows.map((row) => row[0]).sort()).toEqual(['closed-port', 'estate', 'opsdeck-healthz']);
  });
});
