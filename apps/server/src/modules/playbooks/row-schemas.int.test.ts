import { relationRowSchemas } from '@opsdeck/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';

// The row schemas of the playbook tables (contracts playbooks.ts, listed in rows.ts) against the
// migrated database: every column named, nullable exactly where the table allows null.
const RELATIONS = ['playbooks', 'playbook_runs', 'playbook_run_actions', 'playbook_approvals'] as const;

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.close();
});

describe('playbook row schemas', () => {
  it.each(RELATIONS)('%s: the schema names exactly the columns, nullable as the table', async (relation) => {
    const { rows } = await db.pool.query<{ name: string; nullable: boolean }>(
      `SELECT column_name AS name, is_nullable = 'YES' AS nullable FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name = $1`,
      [relation],
    );
    expect(rows.length).toBeGreaterThan(0);
    const shape = (relationRowSchemas[relation] as z.ZodObject).shape;
    expect(Object.keys(shape).sort()).toEqual(rows.map((row) => row.name).sort());
    for (const column of rows) {
      const acceptsNull = (shape[column.name] as z.ZodType).safeParse(null).success;
      expect(acceptsNull, `${relation}.${column.name} accepts null`).toBe(column.nullable);
    }
  });
});
