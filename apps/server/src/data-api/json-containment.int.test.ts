// `->>` equality filters on a jsonb column with a GIN index are written with a containment
// condition (`tags @> …`) the index can answer (planner/select-tree.ts `withContainment`). Through
// HTTP, every such filter must answer exactly the rows and count the plain `->>` comparison does,
// for string values and for what else a jsonb document can hold under the key (nothing, JSON
// null, numbers, booleans, objects, arrays), negated, in `or=`/`not.or=` groups and tri-states.
import { dataApiAllowlist } from '../modules.js';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness/db.js';
import { createSchemaCatalog } from './catalog.js';
import { DataApiEngine } from './engine.js';
import { dataApiRoutes } from './index.js';

let db: TestDatabase;
let app: FastifyInstance;

const TYPE = 'Containment::Test';

/** name → tags as jsonb text (numbers as written: jsonb keeps 1.50's scale). */
const TAGS: Record<string, string | null> = {
  staging: '{"env": "staging", "region": "eu"}',
  'staging-us': '{"env": "staging", "region": "us"}',
  prod: '{"env": "prod"}',
  'upper-staging': '{"env": "Staging"}',
  empty: '{}',
  'sql-null': null,
  'json-null': '{"env": null}',
  'string-null': '{"env": "null"}',
  'number-5': '{"env": 5}',
  'string-5': '{"env": "5"}',
  'number-1.50': '{"env": 1.50}',
  'number-big': '{"env": 12345678901234567890}',
  'bool-true': '{"env": true}',
  'string-true': '{"env": "true"}',
  object: '{"env": {"a": 1}}',
  'object-string': '{"env": "{\\"a\\": 1}"}',
  array: '{"env": [1, "x"]}',
  'top-array': '["env", "staging"]',
  'top-string': '"staging"',
  nested: '{"nested": {"env": "staging"}}',
  'nested-number': '{"nested": {"env": 5}}',
  list: '{"list": ["staging", "prod"]}',
  'list-second': '{"list": ["prod", "staging"]}',
  'odd-key': '{"we.ird,key": "v", "env": ""}',
};

beforeAll(async () => {
  db = await createTestDatabase();
  for (const [name, tags] of Object.entries(TAGS)) {
    await db.pool.query(
      `INSERT INTO config_items (type, name, tags, labels) VALUES ($1, $2, $3::jsonb, $4::jsonb)`,
      [TYPE, name, tags, tags],
    );
  }
  // Enough other items that the GIN index is worth it to the planner.
  await db.pool.query(
    `INSERT INTO config_items (type, name, tags)
     SELECT 'Containment::Other', 'other-' || i, jsonb_build_object('env', 'env-' || (i % 50)) FROM generate_series(1, 2000) AS i`,
  );
  await db.pool.query('ANALYZE config_items');
  app = Fastify({ logger: false });
  await app.register(dataApiRoutes, {
    prefix: '/api/db',
    pool: db.pool,
    allowlist: dataApiAllowlist,
    catalog: createSchemaCatalog(db.pool),
    authorize: async () => ({ allow: true }),
  });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await db?.close();
});

async function viaApi(relation: string, filter: string): Promise<{ names: string[]; total: number }> {
  const response = await app.inject({
    method: 'GET',
    url: `/api/db/${relation}?select=name&type=eq.${encodeURIComponent(TYPE)}&${filter}&order=name`,
    headers: { prefer: 'count=exact' },
  });
  expect(response.statusCode, response.body).toBeLessThan(300);
  const names = (JSON.parse(response.body) as Array<{ name: string }>).map((row) => row.name);
  const total = Number(/\/(\d+)$/.exec(String(response.headers['content-range']))?.[1]);
  return { names, total };
}

/** The same rows by the plain `->>` comparison, straight from the table. */
async function viaSql(where: string, values: unknown[]): Promise<{ names: string[]; total: number }> {
  const { rows } = await db.pool.query<{ name: string }>(
    `SELECT name FROM config_items WHERE type = '${TYPE}' AND (${where}) ORDER BY name`,
    values,
  );
  return { names: rows.map((row) => row.name), total: rows.length };
}

/** [query-string filter, equivalent WHERE over config_items, its values, the names expected]. */
const CASES: Array<[string, string, unknown[], string[]]> = [
  ['tags->>env=eq.staging', `tags->>'env' = $1`, ['staging'], ['staging', 'staging-us']],
  ['tags->>env=eq.5', `tags->>'env' = $1`, ['5'], ['number-5', 'string-5']],
  ['tags->>env=eq.1.50', `tags->>'env' = $1`, ['1.50'], ['number-1.50']],
  ['tags->>env=eq.1.5', `tags->>'env' = $1`, ['1.5'], []],
  ['tags->>env=not.eq.1.5', `NOT (tags->>'env' = $1)`, ['1.5'], []],
  [`tags->>env=eq.${encodeURIComponent('{"b": 2}')}`, `tags->>'env' = $1`, ['{"b": 2}'], []],
  [`tags->>env=not.eq.${encodeURIComponent('{"b": 2}')}`, `NOT (tags->>'env' = $1)`, ['{"b": 2}'], []],
  ['tags->>env=eq.12345678901234567890', `tags->>'env' = $1`, ['12345678901234567890'], ['number-big']],
  ['tags->>env=eq.true', `tags->>'env' = $1`, ['true'], ['bool-true', 'string-true']],
  ['tags->>env=eq.null', `tags->>'env' = $1`, ['null'], ['string-null']],
  [
    `tags->>env=eq.${encodeURIComponent('{"a": 1}')}`,
    `tags->>'env' = $1`,
    ['{"a": 1}'],
    ['object', 'object-string'],
  ],
  [`tags->>env=eq.${encodeURIComponent('[1, "x"]')}`, `tags->>'env' = $1`, ['[1, "x"]'], ['array']],
  ['tags->>env=eq.', `tags->>'env' = $1`, [''], ['odd-key']],
  ['tags->>env=neq.staging', `tags->>'env' <> $1`, ['staging'], []],
  ['tags->>env=not.eq.staging', `NOT (tags->>'env' = $1)`, ['staging'], []],
  ['tags->>env=in.(staging,5,true)', `tags->>'env' = ANY($1)`, [['staging', '5', 'true']], []],
  ['tags->>env=not.in.(staging,prod)', `NOT (tags->>'env' = ANY($1))`, [['staging', 'prod']], []],
  [
    'or=(tags->>env.eq.prod,tags->>env.eq.5,name.eq.empty)',
    `tags->>'env' = 'prod' OR tags->>'env' = '5' OR name = 'empty'`,
    [],
    ['empty', 'number-5', 'prod', 'string-5'],
  ],
  [
    'not.or=(tags->>env.eq.staging,tags->>env.eq.prod)',
    `NOT (tags->>'env' = 'staging' OR tags->>'env' = 'prod')`,
    [],
    [],
  ],
  [
    'and=(tags->>env.eq.staging,tags->>region.eq.eu)',
    `tags->>'env' = 'staging' AND tags->>'region' = 'eu'`,
    [],
    ['staging'],
  ],
  [
    'not.and=(tags->>env.eq.staging,tags->>region.eq.eu)',
    `NOT (tags->>'env' = 'staging' AND tags->>'region' = 'eu')`,
    [],
    [],
  ],
  ['tags->>env.filter=staging,5', `tags->>'env' = 'staging' OR tags->>'env' = '5'`, [], []],
  ['tags->>env.filter=!staging', `NOT (tags->>'env' = 'staging')`, [], []],
  ['tags->>env.filter=staging,!prod', `(tags->>'env' = 'staging') AND NOT (tags->>'env' = 'prod')`, [], []],
  ['tags->>env.filter=!staging,!5', `NOT (tags->>'env' = 'staging') AND NOT (tags->>'env' = '5')`, [], []],
  ['tags->nested->>env=eq.staging', `tags->'nested'->>'env' = 'staging'`, [], ['nested']],
  ['tags->nested->>env=eq.5', `tags->'nested'->>'env' = '5'`, [], ['nested-number']],
  ['tags->list->>0=eq.staging', `tags->'list'->>0 = 'staging'`, [], ['list']],
  ['tags->>0=eq.env', `tags->>0 = 'env'`, [], ['top-array']],
  [`tags->>${encodeURIComponent('"we.ird,key"')}=eq.v`, `tags->>'we.ird,key' = 'v'`, [], ['odd-key']],
];

describe('->> equality on an indexed jsonb column', () => {
  it.each(CASES)(
    '%s answers the rows and count of the plain comparison',
    async (filter, where, values, expected) => {
      const truth = await viaSql(where, values);
      // The cases whose expected names are listed pin the plain comparison's answer too.
      if (expected.length > 0) expect(truth.names).toEqual(expected);
      for (const relation of ['configs', 'config_items']) {
        expect(await viaApi(relation, filter), `${relation}?${filter}`).toEqual(truth);
      }
      // The same filter on labels (another indexed column, same documents).
      const labelsFilter = filter.replace(/tags->/g, 'labels->');
      expect(await viaApi('configs', labelsFilter), labelsFilter).toEqual(
        await viaSql(where.replace(/tags->/g, 'labels->'), values),
      );
    },
  );

  it('neq and not: rows without the key (or with JSON null) are in neither side, as before', async () => {
    const equal = await viaApi('configs', 'tags->>env=eq.staging');
    const notEqual = await viaApi('configs', 'tags->>env=neq.staging');
    const negated = await viaApi('configs', 'tags->>env=not.eq.staging');
    expect(negated).toEqual(notEqual);
    const neither = Object.keys(TAGS).filter(
      (name) => !equal.names.includes(name) && !notEqual.names.includes(name),
    );
    expect(neither.sort()).toEqual(
      [
        'empty',
        'json-null',
        'list',
        'list-second',
        'nested',
        'nested-number',
        'sql-null',
        'top-array',
        'top-string',
      ].sort(),
    );
  });

  it('the statement carries the containment only where a GIN index can use it', async () => {
    const catalog = createSchemaCatalog(db.pool);
    const engine = new DataApiEngine({
      pool: db.pool,
      catalog,
      allowlist: dataApiAllowlist,
      maxRows: 1000,
      statementTimeoutMs: 5000,
    });
    const sql = async (query: string) => {
      const prepared = engine.prepare(
        {
          method: 'GET',
          target: { kind: 'relation', name: 'configs' },
          rawQuery: query,
          headers: {},
          body: undefined,
          basePath: '/api/db',
        },
        await catalog.get(),
      );
      return prepared.plan.main.text;
    };
    expect(await sql('tags->>env=eq.staging')).toContain('"tags" @> ANY(');
    expect(await sql('labels->>app.filter=a,!b')).toContain('"labels" @> ANY(');
    // properties has no GIN index; a `->` comparison and a LIKE are not `->>` equalities.
    expect(await sql('properties->>env=eq.staging')).not.toContain('@>');
    expect(await sql('tags->env=eq."staging"')).not.toContain('@>');
    expect(await sql('tags->>env=like.stag*')).not.toContain('@>');
    expect(await sql('tags->list->>0=eq.staging')).not.toContain('@>');
  });

  it('the containment finds the rows through the tags index', async () => {
    const client = await db.pool.connect();
    try {
      await client.query('SET enable_seqscan = off');
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT name FROM configs
          WHERE ((tags @> ANY($1::jsonb[]) OR NULL) AND coalesce((tags->>'env') = 'staging', true))`,
        [['{"env":"staging"}']],
      );
      expect(rows.map((row) => row['QUERY PLAN']).join('\n')).toContain('config_items_tags_idx');
    } finally {
      client.release();
    }
  });
});
