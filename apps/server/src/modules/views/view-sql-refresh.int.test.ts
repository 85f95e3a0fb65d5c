// The refresh's SQL fast path (view-sql-mapping.ts) writes what the general path (CEL per row in
// Node) writes: the same view is run once with mappings the fast path translates and once with
// the same mappings in a form only CEL evaluates, and their tables must hold the same rows.
import { viewResultSchema, type ViewResult } from '@opsdeck/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfigItem, createPerson } from '../../../test/harness/factories.js';
import { startFullApp, type FullApp } from '../../../test/harness/full-app.js';
import { createTokenForUser } from '../auth/index.js';
import { parseViewSpec, sqlPlans } from './view-service.js';
import { writeViewRowsBySql } from './view-table.js';

let full: FullApp;
let token: string;

const columns = [
  { name: 'name', type: 'string', primaryKey: true },
  { name: 'namespace', type: 'string' },
  { name: 'health', type: 'health', filter: { type: 'multiselect' } },
  { name: 'cpu', type: 'number' },
  { name: 'zone', type: 'string' },
  { name: 'cost', type: 'decimal' },
  { name: 'created_at', type: 'datetime' },
  { name: 'created_text', type: 'string' },
  { name: 'ready', type: 'boolean' },
  { name: 'missing', type: 'string' },
];

function spec(mapping: Record<string, string>) {
  return {
    queries: { pods: { configs: { types: ['Sql::Pod'], tagSelector: 'cluster=$(var.cluster)' } } },
    templating: [{ key: 'cluster', values: ['one'] }],
    columns,
    mapping,
  };
}

const fast = {
  cpu: 'double(row.tags.cpu)',
  zone: 'row.tags.zone',
  cost: 'row.cost_per_minute',
  created_text: 'row.created_at',
};
// The same values, written so that only CEL evaluates them (`+ 0.0`, a conditional).
const general = {
  cpu: 'double(row.tags.cpu) + 0.0',
  zone: "true ? row.tags.zone : ''",
  cost: "true ? row.cost_per_minute : ''",
  created_text: 'true ? row.created_at : row.created_at',
};

async function createView(name: string, body: unknown): Promise<string> {
  const created = await full.send('POST', '/api/db/views', { name, namespace: 'sqlpath', spec: body });
  expect(created.statusCode, created.body).toBe(201);
  return (created.json() as Array<{ id: string }>)[0].id;
}

async function run(id: string) {
  const response = await full.app.inject({
    method: 'POST',
    url: `/api/view/${id}`,
    payload: JSON.stringify({ variables: { cluster: 'one' } }),
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });
  return response;
}

async function tableRows(table: string) {
  const { rows } = await full.db.pool.query(
    `SELECT name, namespace, health, cpu, zone, cost::text AS cost, created_at, created_text, ready, missing
       FROM ${table} ORDER BY name`,
  );
  return rows;
}

beforeAll(async () => {
  full = await startFullApp('Views SQL Admin');
  const person = await createPerson(full.db.pool, { roles: ['viewer'] });
  token = await createTokenForUser(full.db.pool, { email: person.email as string, name: 'viewer' });
  const items: Array<[string, Record<string, string>, number | null, boolean | null]> = [
    ['a-1', { cluster: 'one', cpu: '2', zone: 'eu' }, 0.125, true],
    ['a-2', { cluster: 'one', cpu: '1.5e1', zone: 'us' }, null, false],
    ['a-3', { cluster: 'one', cpu: '-3', zone: 'eu' }, 12.5, null],
    ['b-1', { cluster: 'two', cpu: '8', zone: 'eu' }, 1, true],
  ];
  for (const [name, tags, cost, ready] of items)
    await createConfigItem(full.db.pool, {
      name,
      type: 'Sql::Pod',
      namespace: 'ns',
      health: 'healthy',
      tags,
      cost_per_minute: cost,
      ready,
      created_at: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678)),
    });
});

afterAll(async () => {
  await full?.close();
});

/** Runs the view both ways; both answer alike and, when they succeed, hold the same rows. */
async function compare(suffix: string) {
  const fastId = await createView(`fast-${suffix}`, spec(fast));
  const generalId = await createView(`general-${suffix}`, spec(general));
  const fastAnswer = await run(fastId);
  const generalAnswer = await run(generalId);
  expect(fastAnswer.statusCode, fastAnswer.body).toBe(generalAnswer.statusCode);
  if (fastAnswer.statusCode !== 200) {
    // The same failure; only the quoted expression differs.
    const failure = (body: { error: string }) => body.error.split(' (expression:')[0];
    expect(failure(fastAnswer.json())).toBe(failure(generalAnswer.json()));
    return { answer: fastAnswer, rows: [] };
  }
  const rows = await tableRows(`view_sqlpath_fast_${suffix}`);
  expect(rows).toEqual(await tableRows(`view_sqlpath_general_${suffix}`));
  return { answer: fastAnswer, rows };
}

describe('the SQL refresh of a view', () => {
  it('plans SQL for field reads and writes their rows in one statement per query', async () => {
    const plans = await sqlPlans(
      full.db.pool,
      parseViewSpec(spec(fast)),
      columns.map((column) => ({
        name: column.name,
        type: column.type as never,
        primaryKey: column.primaryKey === true,
      })),
      { var: { cluster: 'one' }, config: null },
    );
    expect(plans).toHaveLength(1);
    expect(
      await sqlPlans(
        full.db.pool,
        parseViewSpec(spec(general)),
        [{ name: 'cpu', type: 'number', primaryKey: false }],
        { var: { cluster: 'one' }, config: null },
      ),
    ).toBeNull();
    const client = await full.db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        'CREATE TEMPORARY TABLE sql_plan_rows (request_fingerprint text, name text, namespace text, health text, cpu float8, zone text, cost numeric, created_at timestamptz, created_text text, ready boolean, missing text)',
      );
      const written = await writeViewRowsBySql(
        client,
        'sql_plan_rows',
        columns.map((column) => ({ name: column.name, type: column.type as never, primaryKey: false })),
        'fp',
        plans!,
      );
      expect(written).toBe(3);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  it('writes the rows CEL in Node writes, and answers their count', async () => {
    const { answer, rows } = await compare('one');
    expect(rows.map((row) => row.name)).toEqual(['a-1', 'a-2', 'a-3']);
    expect(rows[0]).toMatchObject({
      namespace: 'ns',
      cpu: 2,
      zone: 'eu',
      cost: '0.125',
      created_text: '2026-01-02T03:04:05.678Z',
      ready: true,
      missing: null,
    });
    expect(rows[1].cpu).toBe(15);
    const result: ViewResult = viewResultSchema.parse(answer.json());
    expect(result.rowCount).toBe(3);
  });

  it('gives what CEL gives for a tag that is no number', async () => {
    await createConfigItem(full.db.pool, {
      name: 'a-4',
      type: 'Sql::Pod',
      tags: { cluster: 'one', cpu: 'lots', zone: 'eu' },
    });
    const { rows } = await compare('lots');
    expect(rows.find((row) => row.name === 'a-4')?.cpu ?? null).toBeNull();
  });

  it('gives what CEL gives for a key a row lacks', async () => {
    await full.db.pool.query(
      `UPDATE config_items SET tags = '{"cluster": "one", "cpu": "4"}' WHERE name = 'a-4'`,
    );
    const { answer } = await compare('nozone');
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error).toMatch(/^spec\.mapping\.zone: CEL expression failed: field not found: zone/);
  });

  it('keeps one row per primary key when two queries give the same rows (the key built after the rows)', async () => {
    const both = {
      ...spec({ cpu: 'double(row.tags.cpu)', cost: 'row.cost_per_minute' }),
      queries: {
        pods: { configs: { types: ['Sql::Pod'], tagSelector: 'cluster=$(var.cluster)' } },
        again: { configs: { types: ['Sql::Pod'], tagSelector: 'cluster=$(var.cluster)' } },
      },
    };
    const answer = await run(await createView('twice', both));
    expect(answer.statusCode, answer.body).toBe(200);
    expect(viewResultSchema.parse(answer.json()).rowCount).toBe(4);
    const rows = await tableRows('view_sqlpath_twice');
    expect(rows.map((row) => row.name)).toEqual(['a-1', 'a-2', 'a-3', 'a-4']);
    // Read through the view table, from its partition in view_parts, with the primary key.
    const { rows: partitions } = await full.db.pool.query<{ schema: string; keyed: boolean }>(
      `SELECT n.nspname AS schema, EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid AND i.indisprimary) AS keyed
         FROM pg_inherits h JOIN pg_class c ON c.oid = h.inhrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE h.inhparent = 'view_sqlpath_twice'::regclass`,
    );
    expect(partitions).toEqual([{ schema: 'view_parts', keyed: true }]);
  });
});
