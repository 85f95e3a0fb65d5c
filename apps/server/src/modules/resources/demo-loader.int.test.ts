import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { DEMO_LOADED_PROPERTY, loadDemoResources } from './demo-loader.js';
import { deleteResource, listResources } from './resource-store.js';
import { recordingLogger, resetResourceTables, temporaryDirectory } from './test-fixtures/helpers.js';

const REPOSITORY_DEMO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../demo');

describe('loadDemoResources', () => {
  let db: TestDatabase;
  let folder: { dir: string; remove(): Promise<void> };

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.close());
  beforeEach(async () => {
    await resetResourceTables(db.pool);
    folder = await temporaryDirectory();
    await mkdir(path.join(folder.dir, 'health'));
    await writeFile(
      path.join(folder.dir, 'teams.yaml'),
      'apiVersion: mission-control.flanksource.com/v1\nkind: Team\nmetadata: {name: demo-team}\nspec: {icon: group}\n',
    );
    await writeFile(
      path.join(folder.dir, 'health', 'canary.yaml'),
      'apiVersion: canaries.flanksource.com/v1\nkind: Canary\nmetadata: {name: demo-canary}\nspec: {schedule: "@every 1m"}\n',
    );
  });
  afterEach(() => folder.remove());

  async function property(): Promise<string | undefined> {
    const { rows } = await db.pool.query<{ value: string }>('SELECT value FROM properties WHERE name = $1', [
      DEMO_LOADED_PROPERTY,
    ]);
    return rows[0]?.value;
  }

  it('applies the demo once on an empty database and never again, even after the user deleted it', async () => {
    const first = await loadDemoResources(db.pool, folder.dir, recordingLogger());
    expect(first.status).toBe('loaded');
    expect(first.results.map((result) => `${result.key} ${result.status}`)).toEqual([
      'canary/default/demo-canary created',
      'team/default/demo-team created',
    ]);
    expect((await listResources(db.pool, 'teams')).map((team) => [team.name, team.source])).toEqual([
      ['demo-team', 'demo/teams.yaml'],
    ]);
    expect((await listResources(db.pool, 'canaries')).map((canary) => canary.source)).toEqual([
      'demo/health/canary.yaml',
    ]);
    expect(await property()).toBe('true');

    await deleteResource(db.pool, 'team', 'default', 'demo-team');
    expect((await loadDemoResources(db.pool, folder.dir, recordingLogger())).status).toBe('already-decided');
    expect(await listResources(db.pool, 'teams')).toEqual([]);
  });

  it('loads once when several replicas start together', async () => {
    const reports = await Promise.all(
      Array.from({ length: 3 }, () => loadDemoResources(db.pool, folder.dir, recordingLogger())),
    );
    expect(reports.map((report) => report.status).sort()).toEqual([
      'already-decided',
      'already-decided',
      'loaded',
    ]);
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM teams');
    expect(rows[0].n).toBe(1);
  });

  it('skips, and records that it skipped, a database that already holds resources', async () => {
    await db.pool.query(`INSERT INTO canaries (name) VALUES ('mine')`);
    expect((await loadDemoResources(db.pool, folder.dir, recordingLogger())).status).toBe(
      'skipped-not-empty',
    );
    expect(await property()).toBe('false');
    await db.pool.query('DELETE FROM canaries');
    expect((await loadDemoResources(db.pool, folder.dir, recordingLogger())).status).toBe('already-decided');
  });

  it('records nothing when there are no demo files', async () => {
    const report = await loadDemoResources(db.pool, path.join(folder.dir, 'missing'), recordingLogger());
    expect(report.status).toBe('no-demo-files');
    expect(await property()).toBeUndefined();
  });

  it('loads the repository demo directory without errors', async () => {
    const report = await loadDemoResources(db.pool, REPOSITORY_DEMO_DIR, recordingLogger());
    expect(report.status).toBe('loaded');
    expect(report.results.filter((result) => result.status !== 'created')).toEqual([]);
    expect((await listResources(db.pool, 'teams')).length).toBeGreaterThan(0);
  });
});
