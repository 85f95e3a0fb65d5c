import { relationRowSchemas, type Relation } from '@opsdeck/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';

// The row schemas of the catalog and incident relations (contracts catalog.ts, incidents.ts,
// listed in rows.ts) against the migrated database: a schema names every column, and a table's
// column accepts null in the schema exactly when the database allows it. A parsed row drops the
// keys its schema does not name, so a column missing here is a column the web app cannot show.

const RELATIONS = [
  'config_items',
  'configs',
  'config_changes',
  'config_analysis',
  'config_analysis_items',
  'config_scrapers',
  'config_scrapers_with_status',
  'check_summary_for_config',
  'config_tags_labels_keys',
  'change_types',
  'config_types',
  'config_tags',
  'config_analysis_analyzers',
  'analysis_types',
  'incidents',
  'incident_summary',
  'hypotheses',
  'comments',
  'evidences',
  'responders',
  'incident_histories',
  'incident_rules',
] as const satisfies readonly Relation[];

/** The functions read through /api/db/rpc/<name>: their result columns. */
const FUNCTIONS = {
  'rpc/related_configs_recursive': 'related_configs_recursive',
  'rpc/get_parents_by_location': 'get_parents_by_location',
} as const satisfies Partial<Record<Relation, string>>;

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db?.close());

interface Column {
  name: string;
  nullable: boolean;
}

async function columnsOf(relation: string): Promise<{ columns: Column[]; isTable: boolean }> {
  const { rows } = await db.pool.query<{ column_name: string; is_nullable: string; table_type: string }>(
    `SELECT c.column_name, c.is_nullable, t.table_type
       FROM information_schema.columns c
       JOIN information_schema.tables t USING (table_schema, table_name)
      WHERE c.table_schema = 'public' AND c.table_name = $1
      ORDER BY c.ordinal_position`,
    [relation],
  );
  return {
    columns: rows.map((row) => ({ name: row.column_name, nullable: row.is_nullable === 'YES' })),
    isTable: rows[0]?.table_type === 'BASE TABLE',
  };
}

const shapeOf = (relation: Relation) => (relationRowSchemas[relation] as z.ZodObject).shape;

describe('catalog and incident row schemas', () => {
  it.each(RELATIONS)('%s: the schema names exactly the columns, nullable as the table', async (relation) => {
    const { columns, isTable } = await columnsOf(relation);
    expect(columns.length).toBeGreaterThan(0);
    const shape = shapeOf(relation);
    expect(Object.keys(shape).sort()).toEqual(columns.map((column) => column.name).sort());
    // A view reports every column as nullable: only tables say which may be null.
    if (!isTable) return;
    for (const column of columns) {
      const acceptsNull = (shape[column.name] as z.ZodType).safeParse(null).success;
      expect(acceptsNull, `${relation}.${column.name} accepts null`).toBe(column.nullable);
    }
  });

  it.each(Object.entries(FUNCTIONS))('%s: the schema names the result columns', async (relation, name) => {
    const { rows } = await db.pool.query<{ columns: string[] }>(
      `SELECT array_agg(arg ORDER BY n) AS columns
         FROM pg_proc p, unnest(p.proargnames, p.proargmodes) WITH ORDINALITY AS a(arg, mode, n)
        WHERE p.proname = $1 AND a.mode = 't'`,
      [name],
    );
    expect(Object.keys(shapeOf(relation as Relation)).sort()).toEqual([...rows[0].columns].sort());
  });
});
