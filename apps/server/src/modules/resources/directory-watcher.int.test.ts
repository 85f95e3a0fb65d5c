import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { startResourceDirectoryWatcher, type ResourceDirectoryWatcher } from './directory-watcher.js';
import {
  recordingLogger,
  resetResourceTables,
  temporaryDirectory,
  waitFor,
} from './test-fixtures/helpers.js';

function team(name: string, icon = 'group'): string {
  return `apiVersion: mission-control.flanksource.com/v1
kind: Team
metadata: {name: ${name}}
spec: {icon: ${icon}}
`;
}

interface TeamRow {
  name: string;
  icon: string;
  source: string;
  deleted: boolean;
}

describe('startResourceDirectoryWatcher', () => {
  let db: TestDatabase;
  let folder: { dir: string; remove(): Promise<void> };
  let watcher: ResourceDirectoryWatcher | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.close());
  beforeEach(async () => {
    await resetResourceTables(db.pool);
    folder = await temporaryDirectory();
  });
  afterEach(async () => {
    await watcher?.stop();
    watcher = undefined;
    await folder.remove();
  });

  async function teams(): Promise<TeamRow[]> {
    const { rows } = await db.pool.query<TeamRow>(
      'SELECT name, icon, source, deleted_at IS NOT NULL AS deleted FROM teams ORDER BY name, created_at',
    );
    return rows;
  }

  // Tests that call sync() themselves keep the watcher from syncing first with a long debounce.
  const start = (debounceMs = 50) =>
    startResourceDirectoryWatcher({ pool: db.pool, dir: folder.dir, logger: recordingLogger(), debounceMs });

  it('loads the directory at start, then applies an edit and soft-deletes a removed file', async () => {
    const first = path.join(folder.dir, 'a.yaml');
    const nested = path.join(folder.dir, 'nested', 'b.yml');
    await mkdir(path.dirname(nested));
    await writeFile(first, team('alpha'));
    await writeFile(nested, team('beta'));
    await writeFile(path.join(folder.dir, 'notes.txt'), 'not a resource');
    watcher = await start();
    expect(await teams()).toEqual([
      { name: 'alpha', icon: 'group', source: first, deleted: false },
      { name: 'beta', icon: 'group', source: nested, deleted: false },
    ]);

    await writeFile(first, team('alpha', 'star'));
    await waitFor(async () => (await teams())[0].icon === 'star', { what: 'the edit to be applied' });

    await rm(nested);
    await waitFor(async () => (await teams())[1].deleted, { what: 'the removed file to be soft-deleted' });
    expect(await teams()).toEqual([
      { name: 'alpha', icon: 'star', source: first, deleted: false },
      { name: 'beta', icon: 'group', source: nested, deleted: true },
    ]);
  });

  it('deletes a document removed from a file, but keeps everything while the file is broken', async () => {
    const file = path.join(folder.dir, 'teams.yaml');
    await writeFile(file, `${team('one')}---\n${team('two')}`);
    watcher = await start(60_000);
    expect((await teams()).map((row) => row.name)).toEqual(['one', 'two']);

    await writeFile(file, `${team('one')}---\nkind: [half written`);
    const report = await watcher.sync();
    expect(report.applied.map((result) => result.status)).toEqual(['unchanged', 'invalid']);
    expect(report.deleted).toEqual([]);
    expect((await teams()).filter((row) => !row.deleted).map((row) => row.name)).toEqual(['one', 'two']);

    await writeFile(file, team('one'));
    const fixed = await watcher.sync();
    expect(fixed.deleted).toMatchObject([{ kind: 'Team', namespace: 'default', name: 'two', source: file }]);
  });

  it('follows a resource moved to another file', async () => {
    const from = path.join(folder.dir, 'old.yaml');
    const to = path.join(folder.dir, 'new.yaml');
    await writeFile(from, team('moving'));
    watcher = await start();
    await rename(from, to);
    await waitFor(async () => (await teams()).some((row) => row.source === to && !row.deleted), {
      what: 'the moved resource to belong to the new file',
    });
    expect((await teams()).filter((row) => !row.deleted)).toEqual([
      { name: 'moving', icon: 'group', source: to, deleted: false },
    ]);
  });

  it('deletes at start what files removed while it was stopped held', async () => {
    const file = path.join(folder.dir, 'gone.yaml');
    await writeFile(file, team('gone'));
    watcher = await start();
    await watcher.stop();
    await rm(file);
    watcher = await start();
    expect(await teams()).toEqual([{ name: 'gone', icon: 'group', source: file, deleted: true }]);
  });

  it('does not take over a resource created in the UI', async () => {
    await db.pool.query(`INSERT INTO teams (name, icon) VALUES ('ui-team', 'user')`);
    await writeFile(path.join(folder.dir, 'ui.yaml'), team('ui-team', 'star'));
    const logger = recordingLogger();
    watcher = await startResourceDirectoryWatcher({ pool: db.pool, dir: folder.dir, logger, debounceMs: 50 });
    expect(await teams()).toEqual([{ name: 'ui-team', icon: 'user', source: 'UI', deleted: false }]);
    expect(
      logger.entries.some((entry) => entry.level === 'warn' && entry.message === 'resource conflict'),
    ).toBe(true);
  });

  it('refuses a directory that does not exist', async () => {
    await expect(
      startResourceDirectoryWatcher({
        pool: db.pool,
        dir: path.join(folder.dir, 'missing'),
        logger: recordingLogger(),
      }),
    ).rejects.toThrow(/is not a directory/);
  });
});
