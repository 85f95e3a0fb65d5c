import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { applicationReport } from '../applications/index.js';
import { loadDemoResources } from '../resources/index.js';
import { searchLogs } from './logs-service.js';

/** demo/logs.yaml and demo/applications.yaml load on a fresh database and answer. */
const DEMO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../demo');
let db: TestDatabase;
let dir: string;

beforeAll(async () => {
  db = await createTestDatabase();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'opsdeck-demo-logs-'));
  for (const file of ['logs.yaml', 'applications.yaml'])
    await fs.copyFile(path.join(DEMO_DIR, file), path.join(dir, file));
});

afterAll(async () => {
  await db?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe('the logs and applications demo', () => {
  it('creates three logging backends and the opsdeck application, which answer', async () => {
    const report = await loadDemoResources(db.pool, dir, pino({ level: 'silent' }));
    expect(report.results.map((result) => `${result.key} ${result.status}`).sort()).toEqual([
      'application/demo/opsdeck created',
      'loggingbackend/demo/opsdeck-server created',
      'loggingbackend/demo/postgresql created',
      'loggingbackend/demo/system-logs created',
    ]);
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO components (name, type) VALUES ('Opsdeck', 'Application') RETURNING id`,
    );
    const logs = await searchLogs(
      db.pool,
      { id: rows[0].id },
      { resolveConnection: () => Promise.resolve(undefined) },
    );
    expect(logs.total).toBe(logs.results.length);
    const audit = await applicationReport(db.pool, 'demo', 'opsdeck', '1d', true);
    expect(audit.components.map((component) => component.name)).toEqual(['Opsdeck']);
  });
});
