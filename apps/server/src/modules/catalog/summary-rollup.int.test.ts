// The catalog summary read from config_item_summary (0080_catalog_summary_rollup.sql) must answer
// exactly what the GROUP BY over config_items answers, whatever the writes did to the items.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfigItem } from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { type CatalogService, createCatalogService } from './catalog-service.js';

let db: TestDatabase;
let rollup: CatalogService;
let scan: CatalogService;

beforeAll(async () => {
  db = await createTestDatabase();
  rollup = createCatalogService({ pool: db.pool });
  scan = createCatalogService({ pool: db.pool, summaryRollup: false });
});

afterAll(async () => {
  await db?.close();
});

/** Requests the rollup answers: by class/type, health, status, with and without deleted items. */
const REQUESTS: Array<Record<string, unknown>> = [
  { groupBy: ['config_class', 'type'], deleted: false },
  { groupBy: ['config_class', 'type'], deleted: true },
  { groupBy: ['health'] },
  { groupBy: ['type', 'status'], deleted: true, health: 'healthy,!unknown' },
  { groupBy: ['config_class'], type: 'Test::A,Test::B', status: '!Stopped' },
];

async function deltaRows(): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>(
    'SELECT count(*)::integer AS n FROM config_item_summary_deltas',
  );
  return rows[0].n;
}

/** Every request answered from the rollup equals the scan's answer, times and costs included. */
async function expectRollupEqualsScan(): Promise<void> {
  for (const request of REQUESTS) {
    // The rollup may fold its rows while answering: compare with a scan taken afterwards too.
    const fromRollup = await rollup.summary(request);
    const fromScan = await scan.summary(request);
    expect(fromRollup, JSON.stringify(request)).toEqual(fromScan);
  }
}

async function expectSameRequest(request: Record<string, unknown>): Promise<void> {
  expect(await rollup.summary(request)).toEqual(await scan.summary(request));
}

describe('config_item_summary', () => {
  it('follows inserts, updates, soft and hard deletes, moves between groups and truncation', async () => {
    // Rows from before a migration, inserted one by one, and a multi-row statement.
    const a1 = await createConfigItem(db.pool, {
      type: 'Test::A',
      config_class: 'Alpha',
      health: 'healthy',
      status: 'Running',
      cost_per_minute: 1.25,
      cost_total_30d: 10,
      created_at: new Date('2026-01-01T00:00:00Z'),
    });
    const a2 = await createConfigItem(db.pool, {
      type: 'Test::A',
      config_class: 'Alpha',
      health: 'healthy',
      status: 'Running',
      cost_per_minute: 0.5,
      created_at: new Date('2026-03-01T00:00:00Z'),
    });
    await db.pool.query(
      `INSERT INTO config_items (type, config_class, name, health, status, cost_total_1d, created_at)
       SELECT 'Test::B', CASE WHEN i % 2 = 0 THEN 'Beta' END, 'b-' || i,
              (ARRAY['healthy', 'unhealthy', NULL])[1 + i % 3], (ARRAY['Running', 'Stopped'])[1 + i % 2],
              CASE WHEN i % 4 = 0 THEN i * 1.5 END, '2026-02-01T00:00:00Z'::timestamptz + i * interval '1 hour'
         FROM generate_series(1, 40) AS i`,
    );
    await expectRollupEqualsScan();

    // Health changes move rows between groups; a cost change; an update that touches nothing
    // the summary reads but updated_at.
    await db.pool.query(`UPDATE config_items SET health = 'warning' WHERE name IN ('b-1', 'b-2', 'b-3')`);
    await db.pool.query(`UPDATE config_items SET cost_per_minute = 2 WHERE id = $1`, [a2.id]);
    await db.pool.query(`UPDATE config_items SET last_scraped_time = now() WHERE type = 'Test::B'`);
    await expectRollupEqualsScan();

    // Soft-deleting the newest item of a group: its newest created_at must fall back.
    await db.pool.query(`UPDATE config_items SET deleted_at = now() WHERE id = $1`, [a2.id]);
    await expectSameRequest({ groupBy: ['config_class', 'type'] });
    const [alpha] = (await rollup.summary({ groupBy: ['config_class', 'type'] })).filter(
      (row) => row.type === 'Test::A',
    );
    expect(alpha).toMatchObject({ count: 1, cost_per_minute: 1.25, cost_total_30d: 10 });
    expect(alpha.created_at).toEqual(new Date('2026-01-01T00:00:00Z'));
    await expectRollupEqualsScan();

    // Undelete, hard delete (a group left empty disappears), an upsert that updates.
    await db.pool.query(`UPDATE config_items SET deleted_at = NULL WHERE id = $1`, [a2.id]);
    await db.pool.query(`DELETE FROM config_items WHERE id = $1`, [a1.id]);
    await db.pool.query(`DELETE FROM config_items WHERE type = 'Test::B' AND status = 'Stopped'`);
    await db.pool.query(
      `INSERT INTO config_items (id, type, config_class, name, health, status)
       VALUES ($1, 'Test::A', 'Alpha', 'again', 'unhealthy', 'Pending'), (gen_random_uuid(), 'Test::C', NULL, 'c', NULL, NULL)
       ON CONFLICT (id) DO UPDATE SET health = excluded.health, status = excluded.status`,
      [a2.id],
    );
    await expectRollupEqualsScan();

    // Folding keeps the answers and leaves one row per group.
    const before = await deltaRows();
    await db.pool.query('SELECT fold_config_item_summary()');
    expect(await deltaRows()).toBeLessThan(before);
    const { rows: groups } = await db.pool.query<{ n: number; keys: number }>(
      `SELECT count(*)::integer AS n,
              count(DISTINCT (config_class, type, health, status, deleted))::integer AS keys
         FROM config_item_summary_deltas`,
    );
    expect(groups[0].n).toBe(groups[0].keys);
    await expectRollupEqualsScan();

    // Bulk loads under session_replication_role = replica keep it too.
    const client = await db.pool.connect();
    try {
      await client.query(`SET session_replication_role = replica`);
      await client.query(
        `INSERT INTO config_items (type, config_class, name, health, created_at, updated_at)
         SELECT 'Test::D', 'Delta', 'd-' || i, 'healthy', now(), now() FROM generate_series(1, 25) AS i`,
      );
    } finally {
      await client.query(`SET session_replication_role = origin`);
      client.release();
    }
    await expectRollupEqualsScan();

    await db.pool.query('TRUNCATE config_items CASCADE');
    expect(await rollup.summary({})).toEqual([]);
    expect(await deltaRows()).toBe(0);
  });

  it('folds itself when it has gathered many rows, answering the same before and after', async () => {
    for (let i = 0; i < 30; i++)
      await db.pool.query(
        `INSERT INTO config_items (type, config_class, name, health) SELECT 'Test::Many', 'M', 'm-' || $1 || '-' || j, 'healthy'
           FROM generate_series(1, 3) AS j`,
        [i],
      );
    // More single-row statements than the fold threshold.
    await db.pool.query(`
      DO $$ BEGIN
        FOR i IN 1..2100 LOOP
          UPDATE config_items SET status = CASE WHEN i % 2 = 0 THEN 'Running' ELSE 'Pending' END
           WHERE name = 'm-0-1';
        END LOOP;
      END $$`);
    expect(await deltaRows()).toBeGreaterThan(2000);
    const answer = await rollup.summary({ groupBy: ['type', 'status'] });
    expect(await deltaRows()).toBeLessThan(10);
    expect(await rollup.summary({ groupBy: ['type', 'status'] })).toEqual(answer);
    expect(answer).toEqual(await scan.summary({ groupBy: ['type', 'status'] }));
    const many = answer.filter((row) => row.type === 'Test::Many');
    expect(many.map((row) => [row.status, row.count])).toEqual([
      [{ Running: 1 }, 1],
      [{ unknown: 89 }, 89],
    ]);
  });

  it('never makes concurrent writers of the same group wait on each other', async () => {
    const first = await db.pool.connect();
    const second = await db.pool.connect();
    try {
      await first.query('BEGIN');
      await second.query('BEGIN');
      await second.query(`SET LOCAL lock_timeout = '2s'`);
      const item = (name: string) =>
        `INSERT INTO config_items (type, config_class, name, health) VALUES ('Test::Same', 'S', '${name}', 'healthy')`;
      await first.query(item('one'));
      await second.query(item('two'));
      await second.query(`UPDATE config_items SET health = 'unhealthy' WHERE name = 'two'`);
      await second.query('COMMIT');
      await first.query('COMMIT');
    } finally {
      first.release();
      second.release();
    }
    await expectSameRequest({ groupBy: ['type', 'health'] });
  });

  it('reads the items for tag or label filters and other groupings', async () => {
    await createConfigItem(db.pool, { type: 'Test::T', tags: { env: 'prod' }, namespace: 'ns1' });
    await createConfigItem(db.pool, { type: 'Test::T', tags: { env: 'dev' }, namespace: 'ns2' });
    expect(await rollup.summary({ groupBy: ['type'], tags: 'env=prod', type: 'Test::T' })).toEqual([
      expect.objectContaining({ type: 'Test::T', count: 1 }),
    ]);
    expect(await rollup.summary({ groupBy: ['namespace'], type: 'Test::T' })).toEqual([
      expect.objectContaining({ namespace: 'ns1', count: 1 }),
      expect.objectContaining({ namespace: 'ns2', count: 1 }),
    ]);
  });
});
