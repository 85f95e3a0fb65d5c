/**
 * Seeded, bounded fuzzing of the data API: thousands of random and malformed query strings,
 * headers and bodies. Nothing may answer 5xx, nothing may reject unhandled, and a sentinel table
 * no request may reach must be unchanged afterwards.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness/db.js';
import { buildFixtureApp, FIXTURE_SCHEMA, ID, installFixture } from './conformance-fixture.js';

const SEED = Number(process.env.DATA_API_FUZZ_SEED ?? 20241121);
const REQUESTS = Number(process.env.DATA_API_FUZZ_REQUESTS ?? 3000);

/** mulberry32: small, fast, good enough to explore inputs reproducibly. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Gen {
  constructor(private readonly random: () => number) {}
  int(n: number): number {
    return Math.floor(this.random() * n);
  }
  chance(p: number): boolean {
    return this.random() < p;
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)];
  }
  some<T>(list: readonly T[], max: number): T[] {
    return Array.from({ length: 1 + this.int(max) }, () => this.pick(list));
  }
}

const RELATIONS = [
  'people',
  'teams',
  'team_members',
  'config_items',
  'config_relationships',
  'config_changes',
  'config_scrapers',
  'incidents',
  'hypotheses',
  'evidences',
  'access_tokens',
  'configs',
  'config_names',
  'incident_summary',
  'token_owners',
];
// Paths that still route to the data API ('..' or a bad %-escape in the path is Fastify's, not ours).
const FORBIDDEN_PATHS = [
  'sentinel',
  'pg_class',
  'pg_catalog.pg_class',
  'nope',
  'people;drop',
  '"people"',
  "sentinel'--",
  '\u0000',
  'rpc',
  'rpc/',
  'a/b/c',
];
const FUNCTIONS = [
  'related_configs',
  'incident_count',
  'config_type_summary',
  'severity_levels',
  'close_incident',
  'echo_payload',
  'people_named',
  'wipe_sentinel',
  'nope',
];
const COLUMNS = [
  'id',
  'name',
  'title',
  'email',
  'avatar',
  'severity',
  'status',
  'labels',
  'tags',
  'created_at',
  'deleted_at',
  'created_by',
  'commander_id',
  'incident_id',
  'type',
  'health',
  'cost',
  'search',
  'spec',
  'config_id',
  'related_id',
  'relation',
  'password_hash',
  'value',
  'secret',
  'nope',
  '"name"',
  'id;drop table x',
  "name'--",
  'sentinel.secret',
  '',
  '*',
  'name)',
];
const EMBEDS = [
  'people',
  'teams',
  'incidents',
  'hypotheses',
  'evidences',
  'config_items',
  'configs',
  'config_scrapers',
  'created_by',
  'commander_id',
  'access_tokens',
  'sentinel',
  'nope',
];
const HINTS = [
  'incidents_created_by_fkey',
  'config_relationships_config_id_fkey',
  'created_by',
  'team_members',
  'inner',
  'left',
  'nope',
  "x'--",
];
const OPERATORS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'match',
  'imatch',
  'in',
  'is',
  'isdistinct',
  'cs',
  'cd',
  'ov',
  'sl',
  'sr',
  'nxr',
  'nxl',
  'adj',
  'fts',
  'plfts',
  'phfts',
  'wfts',
  'fts(english)',
  'fts(x;drop)',
  'eq(any)',
  'like(all)',
  'eqq',
  '',
  'not',
];
const VALUES = [
  '',
  'null',
  'NULL',
  'true',
  'false',
  'unknown',
  'not_null',
  '1',
  '-1',
  '0',
  '1.5',
  '1e309',
  '99999999999999999999999',
  'abc',
  ID.alice,
  ID.dbDown,
  'notauuid',
  'now',
  'now()',
  '2024-01-01',
  '{a,b}',
  '{}',
  '{"env":"prod"}',
  '[1,2)',
  '(1,2)',
  '("a,b",c)',
  '()',
  '"quoted"',
  "'; DELETE FROM dapi_fixture.sentinel; --",
  '$1',
  '\\',
  '%',
  '*',
  '**',
  '.',
  ',',
  ')',
  '(',
  '\u0000',
  'é☃𝄞',
  'x'.repeat(500),
  '>now-1h',
  'now-7d..now',
  '!healthy',
  'db-*',
  'a____b',
  'a||||b',
];
const TYPES = [
  'text',
  'int',
  'integer',
  'jsonb',
  'float8',
  'text[]',
  'double precision',
  'nope',
  'text);drop table x;--',
  'regclass',
  '',
];

function field(g: Gen): string {
  let name = g.pick(COLUMNS);
  if (g.chance(0.15))
    name += `${g.pick(['->', '->>'])}${g.pick(['app', 'env', '0', 'a.b', '"q"', '', "x'"])}`;
  if (g.chance(0.05)) name += `->>${g.pick(['role', 'x'])}`;
  return name;
}

function selectList(g: Gen, depth: number): string {
  const items: string[] = [];
  const n = 1 + g.int(4);
  for (let i = 0; i < n; i++) {
    const roll = g.int(10);
    if (roll === 0) items.push('*');
    else if (roll < 6) {
      let item = field(g);
      if (g.chance(0.2)) item = `${g.pick(['a', 'alias', 'x y', '"q"', ''])}:${item}`;
      if (g.chance(0.15)) item += `::${g.pick(TYPES)}`;
      items.push(item);
    } else if (depth < 4) {
      let embed = g.pick(EMBEDS);
      if (g.chance(0.3)) embed += `!${g.pick(HINTS)}`;
      if (g.chance(0.2)) embed += '!inner';
      if (g.chance(0.2)) embed = `${g.pick(['e', 'rel', 'x'])}:${embed}`;
      if (g.chance(0.1)) embed = `...${embed}`;
      items.push(`${embed}(${g.chance(0.1) ? '' : selectList(g, depth + 1)})`);
    } else {
      items.push(g.pick(['count()', 'id.sum()', 'x(count)', '(', ')', ',']));
    }
  }
  return items.join(',');
}

function filterValue(g: Gen): string {
  const op = g.pick(OPERATORS);
  const negate = g.chance(0.15) ? 'not.' : '';
  if (op === 'in')
    return `${negate}in.(${g
      .some(VALUES, 4)
      .map((v) => (g.chance(0.3) ? `"${v}"` : v))
      .join(',')}${g.chance(0.1) ? '' : ')'}`;
  if (op === 'is') return `${negate}is.${g.pick(VALUES)}`;
  return `${negate}${op}${g.chance(0.95) ? '.' : ''}${g.pick(VALUES)}`;
}

function logicTree(g: Gen, depth: number): string {
  const parts: string[] = [];
  const n = 1 + g.int(3);
  for (let i = 0; i < n; i++) {
    if (depth < 3 && g.chance(0.25))
      parts.push(`${g.chance(0.2) ? 'not.' : ''}${g.pick(['and', 'or'])}${logicTree(g, depth + 1)}`);
    else parts.push(`${field(g)}.${filterValue(g)}`);
  }
  return `(${parts.join(',')}${g.chance(0.05) ? '' : ')'}`;
}

function orderValue(g: Gen): string {
  return g
    .some([0, 1, 2], 3)
    .map(() => {
      let term = g.chance(0.1) ? `${g.pick(EMBEDS)}(${field(g)})` : field(g);
      if (g.chance(0.5)) term += `.${g.pick(['asc', 'desc', 'up', ''])}`;
      if (g.chance(0.3)) term += `.${g.pick(['nullsfirst', 'nullslast', 'nulls'])}`;
      return term;
    })
    .join(',');
}

function encode(g: Gen, text: string): string {
  if (g.chance(0.03)) return `${text}%${g.pick(['', 'G', 'E0%A4', '2'])}`;
  return encodeURIComponent(text).replace(/%2C/g, g.chance(0.8) ? ',' : '%2C');
}

function mutate(g: Gen, text: string): string {
  if (text === '' || !g.chance(0.1)) return text;
  // By code point, so a cut never leaves half a surrogate pair.
  const chars = Array.from(text);
  const i = g.int(chars.length);
  switch (g.int(3)) {
    case 0:
      return chars.slice(0, i).join('');
    case 1:
      return [
        ...chars.slice(0, i),
        g.pick(['(', ')', ',', '.', '"', '!', ':', '->', '%', '&', '=']),
        ...chars.slice(i),
      ].join('');
    default:
      return [...chars.slice(0, i), ...chars.slice(i + 1)].join('');
  }
}

function queryString(g: Gen): string {
  const params: string[] = [];
  const n = g.int(6);
  if (g.chance(0.6)) params.push(`select=${encode(g, mutate(g, selectList(g, 0)))}`);
  if (g.chance(0.1)) params.push(`select=${encode(g, selectList(g, 0))}`);
  for (let i = 0; i < n; i++) {
    const roll = g.int(12);
    let key: string;
    let value: string;
    if (roll < 5) {
      key = field(g);
      if (g.chance(0.15)) key = `${g.pick(EMBEDS)}.${key}`;
      value = filterValue(g);
    } else if (roll < 7) {
      key = `${g.chance(0.2) ? `${g.pick(EMBEDS)}.` : ''}${g.chance(0.2) ? 'not.' : ''}${g.pick(['or', 'and'])}`;
      value = logicTree(g, 0);
    } else if (roll < 8) {
      key = `${g.chance(0.2) ? `${g.pick(EMBEDS)}.` : ''}order`;
      value = orderValue(g);
    } else if (roll < 9) {
      key = `${g.chance(0.2) ? `${g.pick(EMBEDS)}.` : ''}${g.pick(['limit', 'offset'])}`;
      value = g.pick(['0', '1', '2', '10', '-1', 'abc', '99999999999', '1.5', '']);
    } else if (roll < 10) {
      key = `${field(g)}.filter`;
      value = g
        .some(VALUES, 3)
        .map((v) => (g.chance(0.3) ? `!${v}` : v))
        .join(',');
    } else if (roll < 11) {
      key = g.pick(['columns', 'on_conflict']);
      value = g.some(COLUMNS, 3).join(',');
    } else {
      key = g.pick(['config_id', 'p_status', 'p_name', 'p_id', 'include_deleted', 'seconds']);
      value = g.pick(VALUES);
    }
    params.push(`${encode(g, mutate(g, key))}=${encode(g, mutate(g, value))}`);
  }
  if (g.chance(0.05)) params.push(g.pick(['&&', '=', '==', 'select', '%', 'a=b=c']));
  return params.join('&');
}

/** Relation-aware, mostly valid requests: they reach planning and execution, not just parsing. */
const SHAPES: Record<string, { columns: string[]; text: string[]; embeds: string[] }> = {
  people: {
    columns: ['id', 'name', 'email', 'avatar', 'created_at', 'deleted_at'],
    text: ['name', 'email', 'avatar'],
    embeds: ['teams(name)', 'access_tokens(name)', 'incidents!created_by(title,hypotheses(title))'],
  },
  incidents: {
    columns: [
      'id',
      'title',
      'severity',
      'status',
      'created_by',
      'commander_id',
      'labels',
      'created_at',
      'closed_at',
    ],
    text: ['title', 'status'],
    embeds: [
      'created_by(name)',
      'commander:commander_id(name)',
      'hypotheses(title,evidences(description,config_items(name)))',
      'hypotheses!inner(type)',
    ],
  },
  config_items: {
    columns: [
      'id',
      'name',
      'type',
      'status',
      'health',
      'labels',
      'tags',
      'cost',
      'created_at',
      'deleted_at',
      'parent_id',
    ],
    text: ['name', 'type', 'status', 'health'],
    embeds: ['config_scrapers(name)', 'config_changes(change_type)', 'config_items!parent_id(name)'],
  },
  hypotheses: {
    columns: ['id', 'title', 'type', 'incident_id', 'created_by'],
    text: ['title', 'type'],
    embeds: ['incidents(title)', 'evidences(description)'],
  },
  config_changes: {
    columns: ['id', 'config_id', 'change_type', 'severity', 'summary', 'created_at'],
    text: ['change_type', 'summary'],
    embeds: ['config_items(name)', 'config:config_names!inner(name)'],
  },
  teams: { columns: ['id', 'name', 'spec'], text: ['name'], embeds: ['people(name)'] },
};

function validQuery(g: Gen, relation: string): string {
  const shape = SHAPES[relation];
  const params: string[] = [];
  const select = [...g.some(shape.columns, 3), ...(g.chance(0.5) ? [g.pick(shape.embeds)] : [])];
  params.push(`select=${encodeURIComponent(select.join(','))}`);
  for (let i = 0; i < g.int(3); i++) {
    const column = g.pick(shape.text);
    const filter = g.pick([
      `eq.${g.pick(['db-primary', 'Alice', 'open', 'x', ''])}`,
      `neq.${g.pick(['a', 'open'])}`,
      `like.${g.pick(['*a*', 'db*', '*'])}`,
      `ilike.${g.pick(['*A*', 'x'])}`,
      `in.(${g.some(['Alice', 'open', 'healthy', '"a,b"'], 3).join(',')})`,
      `is.${g.pick(['null', 'not_null'])}`,
      `not.is.null`,
    ]);
    params.push(`${column}=${encodeURIComponent(filter)}`);
  }
  if (g.chance(0.3))
    params.push(`or=${encodeURIComponent(`(${g.pick(shape.text)}.is.null,${g.pick(shape.text)}.like.*e*)`)}`);
  if (g.chance(0.3))
    params.push(`${g.pick(shape.text)}.filter=${g.some(['a*', '!b*', 'open', '!x'], 3).join(',')}`);
  if (g.chance(0.2))
    params.push(`created_at.filter=${encodeURIComponent(g.pick(['>now-1h', 'now-30d..now', '<now-1y']))}`);
  if (g.chance(0.5))
    params.push(
      `order=${g.pick(shape.columns)}.${g.pick(['asc', 'desc'])}${g.pick(['', '.nullsfirst', '.nullslast'])}`,
    );
  if (g.chance(0.5)) params.push(`limit=${g.int(20)}&offset=${g.int(5)}`);
  return params.join('&');
}

function jsonValue(g: Gen, depth: number): unknown {
  switch (g.int(depth > 2 ? 5 : 8)) {
    case 0:
      return null;
    case 1:
      return g.pick([0, 1, -1, 1.5, 1e308, Number.MAX_SAFE_INTEGER * 1000]);
    case 2:
      return g.pick([true, false]);
    case 3:
    case 4:
      return g.pick(VALUES);
    case 5:
      return Array.from({ length: g.int(3) }, () => jsonValue(g, depth + 1));
    default:
      return jsonObject(g, depth + 1);
  }
}

function jsonObject(g: Gen, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const n = g.int(4);
  for (let i = 0; i < n; i++)
    out[g.pick([...COLUMNS, 'p_status', 'config_id', 'p_id'])] = jsonValue(g, depth);
  return out;
}

function body(g: Gen): string | undefined {
  switch (g.int(8)) {
    case 0:
      return undefined;
    case 1:
      return g.pick([
        '',
        '{',
        '[',
        'null',
        '1',
        '"x"',
        '{"a":}',
        '[1,2',
        'not json',
        '\u0000',
        '{"name": "x"}}',
      ]);
    case 2:
      return JSON.stringify(Array.from({ length: g.int(4) }, () => jsonObject(g, 0)));
    case 3: {
      const row = jsonObject(g, 0);
      return JSON.stringify(Array.from({ length: 1 + g.int(3) }, () => row));
    }
    default:
      return JSON.stringify(jsonObject(g, 0));
  }
}

function headers(g: Gen): Record<string, string> {
  const out: Record<string, string> = {};
  const token = g.int(20);
  if (token < 15) out.authorization = 'Bearer admin';
  else if (token < 17) out.authorization = 'Bearer alice';
  else if (token < 19) out.authorization = 'Bearer viewer';
  if (g.chance(0.5)) {
    out.prefer = g
      .some(
        [
          'return=representation',
          'return=minimal',
          'return=headers-only',
          'count=exact',
          'count=planned',
          'count=estimated',
          'resolution=merge-duplicates',
          'resolution=ignore-duplicates',
          'missing=default',
          'handling=strict',
          'handling=lenient',
          'max-affected=1',
          'tx=rollback',
          'bogus',
          'return=',
        ],
        4,
      )
      .join(',');
  }
  if (g.chance(0.2)) {
    out.accept = g.pick([
      'application/json',
      'application/vnd.pgrst.object+json',
      'application/vnd.pgrst.array+json;nulls=stripped',
      'text/csv',
      '*/*',
      'image/png',
      '',
      'application/json;q=0,text/csv;q=abc',
    ]);
  }
  if (g.chance(0.1)) out.range = g.pick(['0-1', '1-', '5-2', 'items=0-0', 'abc', '-', '99999999999999999-']);
  if (g.chance(0.7))
    out['content-type'] = g.pick([
      'application/json',
      'application/json',
      'text/plain',
      'application/vnd.pgrst.object+json',
      'text/csv',
    ]);
  return out;
}

let db: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  db = await createTestDatabase();
  await installFixture(db.pool);
  ({ app } = await buildFixtureApp(db.pool, { statementTimeoutMs: 5000 }));
});

afterAll(async () => {
  await app.close();
  await db.close();
});

describe('data API fuzz', () => {
  it(
    `answers ${REQUESTS} random and malformed requests without a 5xx, leaving the sentinel untouched`,
    { timeout: 120_000 },
    async () => {
      const sentinelBefore = (await db.pool.query(`SELECT * FROM ${FIXTURE_SCHEMA}.sentinel ORDER BY id`))
        .rows;
      const rejections: unknown[] = [];
      const onRejection = (reason: unknown): void => {
        rejections.push(reason);
      };
      process.on('unhandledRejection', onRejection);
      const g = new Gen(prng(SEED));
      const failures: string[] = [];
      const statuses = new Map<number, number>();
      try {
        for (let i = 0; i < REQUESTS; i++) {
          const method = g.pick([
            'GET',
            'GET',
            'GET',
            'GET',
            'HEAD',
            'POST',
            'POST',
            'PATCH',
            'DELETE',
            'PUT',
          ] as const);
          const path = g.chance(0.15)
            ? `rpc/${g.pick(FUNCTIONS)}`
            : g.chance(0.06)
              ? encodeURIComponent(g.pick(FORBIDDEN_PATHS))
              : g.pick(RELATIONS);
          const valid = method !== 'PUT' && g.chance(0.35) ? g.pick(Object.keys(SHAPES)) : null;
          const url = valid
            ? `/api/db/${valid}?${validQuery(g, valid)}`
            : `/api/db/${path}?${queryString(g)}`;
          const requestHeaders = headers(g);
          const payload = method === 'GET' || method === 'HEAD' ? undefined : body(g);
          const response = await app.inject({ method, url, headers: requestHeaders, payload });
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          if (response.statusCode >= 500) {
            failures.push(
              `${response.statusCode} ${method} ${url} ${JSON.stringify(requestHeaders)} ${payload ?? ''} → ${response.body}`,
            );
          }
          if (response.statusCode >= 400 && method !== 'HEAD' && response.body !== '') {
            const error = JSON.parse(response.body) as Record<string, unknown>;
            if (!('code' in error && 'message' in error && 'details' in error && 'hint' in error)) {
              failures.push(`error body without PostgREST's shape: ${method} ${url} → ${response.body}`);
            }
          }
        }
        await new Promise((resolve) => setImmediate(resolve));
      } finally {
        process.off('unhandledRejection', onRejection);
      }
      expect(failures.slice(0, 10)).toEqual([]);
      expect(rejections).toEqual([]);
      const sentinelAfter = (await db.pool.query(`SELECT * FROM ${FIXTURE_SCHEMA}.sentinel ORDER BY id`))
        .rows;
      expect(sentinelAfter).toEqual(sentinelBefore);
      // The fuzzer reaches the engine's depth, not only its parser: successes and many error kinds.
      const ok = [...statuses].filter(([status]) => status < 300).reduce((sum, [, n]) => sum + n, 0);
      expect(ok).toBeGreaterThan(REQUESTS * 0.1);
      expect(statuses.size).toBeGreaterThan(6);
    },
  );
});
