import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { MIGRATIONS_DIR } from '../../../test/harness/postgres.js';
import { MigrationError, readMigrations, runMigrations } from './migrate.js';
import { createPool } from './pool.js';

describe('runMigrations', () => {
  let db: TestDatabase;
  let scratchDir: string;

  beforeEach(async () => {
    db = await createTestDatabase();
    scratchDir = await fs.mkdtemp(path.join(os.tmpdir(), 'opsdeck-migrations-'));
  });
  afterEach(async () => {
    await db.close();
    await fs.rm(scratchDir, { recursive: true, force: true });
  });

  it('records every project migration once and is idempotent', async () => {
    const files = await readMigrations(MIGRATIONS_DIR);
    const { rows } = await db.pool.query<{ name: string }>(
      'SELECT name FROM schema_migrations ORDER BY version',
    );
    expect(rows.map((row) => row.name)).toEqual(files.map((file) => file.name));
    expect(await runMigrations(db.pool, MIGRATIONS_DIR)).toEqual({ applied: [] });
  });

  it('applies a failing batch not at all and names the file and the PostgreSQL error', async () => {
    await fs.writeFile(path.join(scratchDir, '9001_good.sql'), 'CREATE TABLE migrate_good (id int);');
    await fs.writeFile(
      path.join(scratchDir, '9002_bad.sql'),
      'CREATE TABLE migrate_partial (id int);\nALTER TABLE migrate_good ADD COLUMN x no_such_type;',
    );
    const failure = await runMigrations(db.pool, scratchDir).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MigrationError);
    expect((failure as Error).message).toMatch(/9002_bad\.sql failed: type "no_such_type" does not exist/);
    expect((failure as Error).message).toMatch(/at line 2/);
    const { rows } = await db.pool.query(
      "SELECT relname FROM pg_class WHERE relname IN ('migrate_good', 'migrate_partial')",
    );
    expect(rows).toEqual([]);
    const recorded = await db.pool.query("SELECT 1 FROM schema_migrations WHERE version LIKE '900%'");
    expect(recorded.rowCount).toBe(0);
  });

  it('lets concurrent migrators apply each file exactly once', async () => {
    await fs.writeFile(
      path.join(scratchDir, '9001_counter.sql'),
      'CREATE TABLE migrate_counter (n int); INSERT INTO migrate_counter VALUES (1);',
    );
    const pools = Array.from({ length: 4 }, () => createPool(db.url, { max: 1 }));
    try {
      const results = await Promise.all(pools.map((pool) => runMigrations(pool, scratchDir)));
      expect(results.filter((result) => result.applied.length === 1)).toHaveLength(1);
      const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM migrate_counter');
      expect(rows[0]).toEqual({ n: 1 });
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it('refuses badly named files', async () => {
    await fs.writeFile(path.join(scratchDir, 'create-things.sql'), 'SELECT 1;');
    await expect(runMigrations(db.pool, scratchDir)).rejects.toThrow(
      /must look like 0001_lower_snake_name\.sql/,
    );
  });
});
