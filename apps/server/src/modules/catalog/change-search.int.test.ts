// The change search by config type reads the item's type kept on each change
// (0082_config_changes_config_type.sql) and leaves out deleted items without joining them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfigItem } from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { createCatalogService, type CatalogService } from './catalog-service.js';

let db: TestDatabase;
let catalog: CatalogService;

beforeAll(async () => {
  db = await createTestDatabase();
  catalog = createCatalogService({ pool: db.pool });
});

afterAll(async () => {
  await db?.close();
});

async function changeTypes(configId: string): Promise<Array<string | null>> {
  const { rows } = await db.pool.query<{ config_type: string | null }>(
    'SELECT config_type FROM config_changes WHERE config_id = $1 ORDER BY created_at',
    [configId],
  );
  return rows.map((row) => row.config_type);
}

describe('config_changes.config_type', () => {
  it('is the type of the change’s item, whatever the writer sent, and follows a change of that type', async () => {
    const item = await createConfigItem(db.pool, { type: 'Keep::A' });
    const other = await createConfigItem(db.pool, { type: 'Keep::Other' });
    await db.pool.query(
      `INSERT INTO config_changes (config_id, change_type, created_at) VALUES ($1, 'diff', now() - interval '2 minutes')`,
      [item.id],
    );
    // A writer naming another type is overruled.
    await db.pool.query(
      `INSERT INTO config_changes (config_id, config_type, change_type, created_at)
       VALUES ($1, 'Wrong::Type', 'diff', now() - interval '1 minute')`,
      [item.id],
    );
    expect(await changeTypes(item.id as string)).toEqual(['Keep::A', 'Keep::A']);

    await db.pool.query(`UPDATE config_changes SET config_type = 'Wrong::Type' WHERE config_id = $1`, [
      item.id,
    ]);
    expect(await changeTypes(item.id as string)).toEqual(['Keep::A', 'Keep::A']);

    // The item's type changes: so do its changes' (and no other item's).
    await db.pool.query(`UPDATE config_items SET type = 'Keep::B' WHERE id = $1`, [item.id]);
    expect(await changeTypes(item.id as string)).toEqual(['Keep::B', 'Keep::B']);

    // A change moved to another item takes that item's type.
    await db.pool.query(
      `UPDATE config_changes SET config_id = $2
        WHERE id = (SELECT id FROM config_changes WHERE config_id = $1 ORDER BY created_at LIMIT 1)`,
      [item.id, other.id],
    );
    expect(await changeTypes(item.id as string)).toEqual(['Keep::B']);
    expect(await changeTypes(other.id as string)).toEqual(['Keep::Other']);
  });
});

describe('change search by config_type', () => {
  it('counts and pages the changes of live items of the types asked for, following deletes and undeletes', async () => {
    const a1 = await createConfigItem(db.pool, { type: 'Search::A', name: 'a1', tags: { env: 'prod' } });
    const a2 = await createConfigItem(db.pool, { type: 'Search::A', name: 'a2', tags: { env: 'dev' } });
    const b1 = await createConfigItem(db.pool, { type: 'Search::B', name: 'b1', tags: { env: 'prod' } });
    await db.pool.query(
      `INSERT INTO config_changes (config_id, change_type, severity, created_at) VALUES
         ($1, 'diff', 'high', now() - interval '1 hour'),
         ($1, 'diff', 'info', now() - interval '2 hours'),
         ($1, 'Restarted', 'high', now() - interval '3 hours'),
         ($2, 'diff', 'high', now() - interval '4 hours'),
         ($2, 'diff', 'high', now() - interval '20 days'),
         ($3, 'diff', 'high', now() - interval '5 hours')`,
      [a1.id, a2.id, b1.id],
    );
    const search = (extra: Record<string, unknown> = {}) =>
      catalog.changes({ config_type: 'Search::A', from: 'now-7d', ...extra });
    const names = (result: { changes: Array<Record<string, unknown>> }) =>
      result.changes.map((change) => `${String(change.name)}:${String(change.change_type)}`);

    let result = await search();
    expect(result.total).toBe(4);
    expect(result.summary).toEqual({ diff: 3, Restarted: 1 });
    expect(names(result)).toEqual(['a1:diff', 'a1:diff', 'a1:Restarted', 'a2:diff']);
    expect(result.changes.every((change) => change.type === 'Search::A')).toBe(true);

    result = await search({ type: 'diff', severity: 'high' });
    expect(result).toMatchObject({ total: 2, summary: { diff: 2 } });
    expect(names(result)).toEqual(['a1:diff', 'a2:diff']);

    // Excluding a type keeps the other types' changes.
    result = await catalog.changes({
      config_type: '!Search::A',
      from: 'now-7d',
      type: 'diff',
      severity: 'high',
    });
    expect(names(result).filter((name) => name.startsWith('a') || name.startsWith('b'))).toEqual(['b1:diff']);

    // A deleted item's changes leave the counts and the page, unless deleted items are asked for.
    await db.pool.query(`UPDATE config_items SET deleted_at = now() WHERE id = $1`, [a1.id]);
    result = await search();
    expect(result).toMatchObject({ total: 1, summary: { diff: 1 } });
    expect(names(result)).toEqual(['a2:diff']);
    result = await search({ include_deleted_configs: true });
    expect(result.total).toBe(4);
    expect(names(result)).toEqual(['a1:diff', 'a1:diff', 'a1:Restarted', 'a2:diff']);
    // Without a config_type too.
    result = await catalog.changes({ from: 'now-7d', type: 'Restarted' });
    expect(names(result).filter((name) => name.startsWith('a'))).toEqual([]);

    // Tags filter the item's own columns: the counts join the items, with the same answer.
    result = await search({ tags: 'env=prod' });
    expect(result).toMatchObject({ total: 0, summary: {} });
    result = await search({ tags: 'env!=prod' });
    expect(result).toMatchObject({ total: 1, summary: { diff: 1 } });

    // Undeleted, they are back.
    await db.pool.query(`UPDATE config_items SET deleted_at = NULL WHERE id = $1`, [a1.id]);
    result = await search();
    expect(result).toMatchObject({ total: 4, summary: { diff: 3, Restarted: 1 } });
    result = await search({ tags: 'env=prod' });
    expect(result).toMatchObject({ total: 3, summary: { diff: 2, Restarted: 1 } });

    // An item whose type changes is found under its new type only.
    await db.pool.query(`UPDATE config_items SET type = 'Search::B' WHERE id = $1`, [a2.id]);
    result = await search();
    expect(names(result)).toEqual(['a1:diff', 'a1:diff', 'a1:Restarted']);
    result = await catalog.changes({ config_type: 'Search::B', from: 'now-7d' });
    expect(names(result)).toEqual(['a2:diff', 'b1:diff']);
    expect(result.total).toBe(2);
  });
});

describe('change search of an item with its relations', () => {
  it('counts and pages the related items’ changes, leaving out deleted ones unless asked', async () => {
    const root = await createConfigItem(db.pool, { type: 'Tree::Root', name: 'root' });
    const child = await createConfigItem(db.pool, { type: 'Tree::Child', name: 'child' });
    const gone = await createConfigItem(db.pool, {
      type: 'Tree::Child',
      name: 'gone',
      deleted_at: new Date(),
    });
    const unrelated = await createConfigItem(db.pool, { type: 'Tree::Child', name: 'unrelated' });
    await db.pool.query(
      `INSERT INTO config_relationships (config_id, related_id, relation) VALUES ($1, $2, 'hard'), ($1, $3, 'hard')`,
      [root.id, child.id, gone.id],
    );
    await db.pool.query(
      `INSERT INTO config_changes (config_id, change_type, created_at) VALUES
         ($1, 'diff', now() - interval '1 minute'), ($2, 'diff', now() - interval '2 minutes'),
         ($2, 'Restarted', now() - interval '3 minutes'), ($3, 'diff', now() - interval '4 minutes'),
         ($4, 'diff', now() - interval '5 minutes')`,
      [root.id, child.id, gone.id, unrelated.id],
    );
    const names = (result: { changes: Array<Record<string, unknown>> }) =>
      result.changes.map((change) => `${String(change.name)}:${String(change.change_type)}`);
    let result = await catalog.changes({ id: root.id, recursive: 'all' });
    expect(result).toMatchObject({ total: 3, summary: { diff: 2, Restarted: 1 } });
    expect(names(result)).toEqual(['root:diff', 'child:diff', 'child:Restarted']);
    result = await catalog.changes({
      id: root.id,
      recursive: 'downstream',
      include_deleted_configs: true,
      page_size: 2,
      page: 2,
    });
    expect(result).toMatchObject({ total: 4, summary: { diff: 3, Restarted: 1 } });
    expect(names(result)).toEqual(['child:Restarted', 'gone:diff']);
    result = await catalog.changes({ id: child.id, recursive: 'upstream', type: 'diff' });
    expect(result).toMatchObject({ total: 2, summary: { diff: 2 } });
  });
});

describe('summary grouped by health or status', () => {
  it('orders groups by their value and counts each group’s changes', async () => {
    const fresh = await createTestDatabase();
    try {
      const service = createCatalogService({ pool: fresh.pool });
      const sick = await createConfigItem(fresh.pool, {
        type: 'Group::A',
        health: 'unhealthy',
        status: 'Stopped',
      });
      const well = await createConfigItem(fresh.pool, {
        type: 'Group::A',
        health: 'healthy',
        status: 'Running',
      });
      await createConfigItem(fresh.pool, { type: 'Group::A', health: 'healthy', status: 'Running' });
      await fresh.pool.query(
        `INSERT INTO config_changes (config_id, change_type) VALUES ($1, 'diff'), ($1, 'diff'), ($2, 'diff')`,
        [sick.id, well.id],
      );
      for (const rollup of [true, false]) {
        const summary = await createCatalogService({ pool: fresh.pool, summaryRollup: rollup }).summary({
          groupBy: ['health'],
          changes: { since: 'now-1h' },
        });
        expect(summary.map((row) => [row.health, row.count, row.changes])).toEqual([
          [{ healthy: 2 }, 2, 1],
          [{ unhealthy: 1 }, 1, 2],
        ]);
      }
      const byStatus = await service.summary({ groupBy: ['type', 'status'], changes: { since: 'now-1h' } });
      expect(byStatus.map((row) => [row.type, row.status, row.changes])).toEqual([
        ['Group::A', { Running: 2 }, 1],
        ['Group::A', { Stopped: 1 }, 2],
      ]);
    } finally {
      await fresh.close();
    }
  });
});
