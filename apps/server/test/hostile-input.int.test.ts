import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { dataApiRoutes } from '../src/data-api/index.js';
import { dataApiAllowlist } from '../src/modules.js';
import { createTokenForUser } from '../src/modules/auth/index.js';
import {
  createTestPerson,
  recordingLogger,
  TestBrowser,
} from '../src/modules/auth/test-fixtures/auth-test-app.js';
import { loadConfig } from '../src/config.js';
import { registerErrorHandling } from '../src/platform/http/errors.js';
import { createJobsService } from '../src/platform/jobs/index.js';
import { createLogger } from '../src/platform/logger.js';
import { createSecretBox, keyFromSecret } from '../src/platform/secrets.js';
import { createTestDatabase, type TestDatabase } from './harness/db.js';

/**
 * Issue 18 point 8: what a hostile probe sent, through the composed app on a real database. Each
 * answer is a 4xx that names the limit or the field, never PostgreSQL's own text; the server keeps
 * answering and nothing stored changes. Point 9: DATA_API_MAX_ROWS caps lists and embeds.
 */

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
/** Text PostgreSQL (or pg) would have put in an answer had the value reached it. */
const RAW_PG =
  /invalid byte sequence|unsupported Unicode|out of range for type|invalid input syntax|Failing row|stack depth|22P0|22021/i;

let db: TestDatabase;
let app: FastifyInstance;
let token: string;
let browser: TestBrowser;
const logs = recordingLogger();
let markShuttingDown: () => void;

async function buildWith(env: Record<string, string>, logger = createLogger('silent')) {
  return buildApp({
    config: loadConfig({ WEB_DIST_DIR: '/nonexistent', LOG_LEVEL: 'silent', ...env }),
    pool: db.pool,
    logger,
    secrets: createSecretBox(keyFromSecret('a-test-secret-key')),
    jobs: createJobsService({ pool: db.pool, logger }),
  });
}

beforeAll(async () => {
  db = await createTestDatabase();
  const built = await buildWith({}, logs.logger);
  app = built.app;
  markShuttingDown = built.markShuttingDown;
  const admin = await createTestPerson(db.pool, { roles: ['admin'] });
  token = await createTokenForUser(db.pool, { email: admin.email, name: 'hostile-probe' });
  browser = new TestBrowser(app);
  const signedIn = await browser.signIn(admin.email, admin.password);
  expect(signedIn.statusCode, signedIn.body).toBeLessThan(400);
});
afterAll(async () => {
  await app?.close();
  await db?.close();
});

function call(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: string,
  contentType = 'application/json',
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    payload,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': contentType,
      prefer: 'return=representation',
      ...headers,
    },
  });
}

/** A 4xx whose body names `mention` and holds no PostgreSQL text. */
function expectRefused(response: LightMyRequestResponse, mention: RegExp, status?: number): void {
  expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
  expect(response.statusCode, response.body).toBeLessThan(500);
  if (status) expect(response.statusCode, response.body).toBe(status);
  expect(response.body).toMatch(mention);
  expect(response.body).not.toMatch(RAW_PG);
}

/** The server still answers, with the database behind it. */
async function expectAlive(): Promise<void> {
  expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  const read = await call('GET', '/api/db/incidents?select=id&limit=1');
  expect(read.statusCode, read.body).toBe(200);
}

async function snapshot(): Promise<string> {
  const { rows } = await db.pool.query(`
    SELECT (SELECT json_agg(to_jsonb(t) ORDER BY t.id) FROM incidents t) AS incidents,
           (SELECT json_agg(to_jsonb(t) ORDER BY t.id) FROM canaries t) AS canaries,
           (SELECT json_agg(to_jsonb(t) ORDER BY t.id) FROM checks t) AS checks,
           (SELECT json_agg(to_jsonb(t) ORDER BY t.id) FROM config_scrapers t) AS scrapers,
           (SELECT json_agg(to_jsonb(t) ORDER BY t.id) FROM config_maps t) AS config_maps,
           (SELECT json_agg(to_jsonb(t) ORDER BY t.id) FROM access_tokens t) AS tokens`);
  return JSON.stringify(rows[0]);
}

describe('hostile bodies and parameters answer 4xx and change nothing', () => {
  let incidentId: string;
  let canaryId: string;
  let before: string;

  beforeAll(async () => {
    const incident = await call(
      'POST',
      '/api/db/incidents',
      JSON.stringify({ title: 'Stored before the probe', severity: 'high', type: 'availability' }),
    );
    expect(incident.statusCode, incident.body).toBe(201);
    incidentId = incident.json<{ id: string }[]>()[0].id;
    const canary = await call(
      'POST',
      '/api/canaries',
      JSON.stringify({
        name: 'stored-canary',
        spec: { http: [{ name: 'home', url: 'http://127.0.0.1:1' }] },
      }),
    );
    expect(canary.statusCode, canary.body).toBeLessThan(300);
    canaryId = canary.json<{ id: string }>().id;
    before = await snapshot();
  });

  it('refuses a JSON body nested 5,000 deep on data API writes (PostgREST shape, the limit named)', async () => {
    const deep = nested(5000);
    const cases = [
      call('POST', '/api/db/incidents', `{"title":"x","severity":"high","type":"x","properties":${deep}}`),
      call('PATCH', `/api/db/incidents?id=eq.${incidentId}`, `{"properties":${deep}}`),
      call('POST', '/api/db/rpc/related_configs_recursive', `{"config_id":${deep}}`),
    ];
    for (const response of await Promise.all(cases)) {
      expectRefused(response, /deeper than the limit of 100 levels/, 400);
      expect(response.json()).toMatchObject({ code: 'PGRST102', hint: null });
      expect(Object.keys(response.json() as object).sort()).toEqual(['code', 'details', 'hint', 'message']);
    }
    await expectAlive();
  });

  it('refuses deep and oversized JSON bodies on every other route, naming the limit', async () => {
    const deep = nested(5000);
    for (const url of ['/api/canaries', '/api/catalog/scrapers', '/api/resources', '/api/catalog/changes']) {
      const response = await call('POST', url, `{"name":"x","spec":${deep}}`);
      expectRefused(response, /deeper than the limit of 100 levels/, 400);
    }
    const wide = JSON.stringify({ name: 'wide', spec: { http: Array.from({ length: 100_001 }, () => 0) } });
    expectRefused(await call('POST', '/api/canaries', wide), /limit of 100,000 keys and elements/, 400);
    expectRefused(
      await call('POST', '/api/canaries', JSON.stringify({ name: 'x'.repeat(1024 * 1024) })),
      /larger than the limit of 1,048,576 bytes/,
      413,
    );
    await expectAlive();
  });

  it('refuses a NUL character in a path or query parameter, naming it', async () => {
    const webhook = await app.inject({ method: 'POST', url: '/webhook/%00', payload: '{}' });
    expectRefused(webhook, /NUL character/, 400);
    expect(webhook.json()).toMatchObject({ field: 'path' });
    const query = await call('GET', '/api/db/incidents?title=eq.a%00b');
    expectRefused(query, /query parameter title holds a NUL character/, 400);
    expect(query.json()).toMatchObject({ code: 'PGRST100' });
    expectRefused(await call('GET', '/api/canary/api?check=%00'), /query parameter check/, 400);
    await expectAlive();
  });

  it('refuses out-of-range times on the canary API, naming the parameter', async () => {
    const values = [
      '1e20',
      '-999999-01-01',
      '99999-12-31',
      '99999999999999999999',
      '99999999999y',
      '0000-01-01',
    ];
    for (const value of values) {
      for (const name of ['start', 'end']) {
        for (const path of ['/api/canary/api', '/api/canary/api/summary', '/api/canary/api/graph?check=c']) {
          const url = `${path}${path.includes('?') ? '&' : '?'}${name}=${encodeURIComponent(value)}`;
          const response = await call('GET', url);
          expectRefused(response, new RegExp(`"${name}: .*(is out of range|is not a time|is too long)`));
          expect(response.json()).toMatchObject({ field: name });
        }
      }
      const body = await call('POST', '/api/canary/api/summary', JSON.stringify({ start: value }));
      expectRefused(body, /"start: .*(is out of range|is not a time|is too long)/, 400);
    }
    const numeric = await call('POST', '/api/canary/api/summary', JSON.stringify({ end: 1e20 }));
    expectRefused(numeric, /"end: .* is out of range/, 400);
    await expectAlive();
  });

  it('refuses a page, depth or time past any real list on the catalog API, naming it', async () => {
    const cases: Array<[Promise<LightMyRequestResponse>, string]> = [
      [call('POST', '/api/catalog/changes?page=1e40', '{}'), 'page'],
      [call('POST', '/api/catalog/changes', JSON.stringify({ page: 1e40 })), 'page'],
      [call('POST', '/api/catalog/changes', JSON.stringify({ page_size: 1e40 })), 'page_size'],
      [call('POST', '/api/catalog/changes', JSON.stringify({ from: 'now-99999999999999999y' })), 'from'],
      [call('POST', '/api/catalog/changes', JSON.stringify({ to: '-999999-01-01' })), 'to'],
      [
        call('POST', '/api/catalog/summary', JSON.stringify({ changes: { since: '99999-12-31' } })),
        'changes.since',
      ],
      [
        call(
          'POST',
          '/api/catalog/changes',
          JSON.stringify({ id: '00000000-0000-4000-8000-000000000000', recursive: 'all', depth: 1e40 }),
        ),
        'depth',
      ],
    ];
    for (const [pending, field] of cases) {
      const response = await pending;
      expectRefused(response, new RegExp(`${field.replace('.', '\\.')}(:| must be| is out of range)`), 400);
      expect(response.json()).toMatchObject({ field });
    }
    await expectAlive();
  });

  it('refuses NUL characters in canary, scraper, resource, token and data API bodies, naming the field', async () => {
    const cases: Array<[Promise<LightMyRequestResponse>, string]> = [
      [call('POST', '/api/canaries', JSON.stringify({ name: 'a\u0000b', spec: {} })), 'name'],
      [
        call(
          'POST',
          '/api/canaries',
          JSON.stringify({ name: 'nul-spec', spec: { http: [{ name: 'h\u0000', url: 'http://x' }] } }),
        ),
        'spec.http[0].name',
      ],
      [
        call(
          'PUT',
          `/api/canaries/${canaryId}`,
          JSON.stringify({ name: 'stored-canary', labels: { a: '\u0000' } }),
        ),
        'labels.a',
      ],
      [
        call('POST', '/api/catalog/scrapers', JSON.stringify({ name: 'scraper\u0000', spec: { file: [] } })),
        'name',
      ],
      [
        call(
          'POST',
          '/api/resources',
          JSON.stringify({
            apiVersion: 'configs.flanksource.com/v1',
            kind: 'ScrapeConfig',
            metadata: { name: 's' },
            spec: { file: [{ type: 'x\u0000', paths: ['a'] }] },
          }),
        ),
        'spec.file[0].type',
      ],
      [
        call(
          'POST',
          '/api/resources',
          JSON.stringify({
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'cm' },
            data: { k: 'v\u0000' },
          }),
        ),
        'data.k',
      ],
      [
        browser.post(
          '/api/auth/create_token',
          JSON.stringify({ name: 'tok\u0000en', expiry: '1h', scope: [] }),
          {
            'content-type': 'application/json',
          },
        ),
        'name',
      ],
    ];
    for (const [pending, field] of cases) {
      const response = await pending;
      expectRefused(response, /NUL character/, 400);
      expect(response.json()).toMatchObject({ field });
    }
    const row = await call(
      'POST',
      '/api/db/incidents',
      JSON.stringify([
        { title: 'fine', severity: 'high', type: 'x' },
        { title: 'a\u0000b', severity: 'high', type: 'x' },
      ]),
    );
    expectRefused(row, /\[1\]\.title: the text holds a NUL character/, 400);
    expect(row.json()).toMatchObject({ code: 'PGRST102', details: 'field: [1].title' });
    const jsonb = await call(
      'PATCH',
      `/api/db/incidents?id=eq.${incidentId}`,
      JSON.stringify({ properties: { k: '\u0000' } }),
    );
    expectRefused(jsonb, /properties\.k/, 400);
    const csv = await call(
      'POST',
      '/api/db/incidents',
      'title,severity,type\n"a\u0000",high,x\n',
      'text/csv',
    );
    expectRefused(csv, /NUL character/, 400);
    await expectAlive();
  });

  it('limits YAML resources: size, documents, alias expansion, depth and NUL', async () => {
    const big = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n  k: ${'x'.repeat(2_400_000)}\n`;
    expectRefused(
      await call('POST', '/api/resources', big, 'text/yaml'),
      /larger than the limit of 2,097,152 bytes/,
      413,
    );
    const many = Array.from({ length: 101 }, (_, i) => `kind: ConfigMap\nmetadata: {name: m${i}}\n`).join(
      '---\n',
    );
    expectRefused(await call('POST', '/api/resources', many, 'text/yaml'), /limit of 100 documents/, 400);
    const laughs = [
      'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
      ...'bcdefgh'.split('').map((name, i) => {
        const previous = 'abcdefgh'[i];
        return `${name}: &${name} [${Array.from({ length: 9 }, () => `*${previous}`).join(',')}]`;
      }),
    ].join('\n');
    expectRefused(
      await call('POST', '/api/resources', laughs, 'text/yaml'),
      /aliases more than the limit of 100/,
      400,
    );
    expectRefused(
      await call('POST', '/api/resources', nested(5000), 'text/yaml'),
      /deeper than the limit of 100 levels/,
      400,
    );
    const nul = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: nul\ndata:\n  k: "a\\0b"\n';
    expectRefused(
      await call('POST', '/api/resources', nul, 'text/yaml'),
      /data\.k: the text holds a NUL character/,
      400,
    );
    await expectAlive();
  });

  it('has changed nothing stored', async () => {
    expect(await snapshot()).toBe(before);
  });
});

describe('bodies of legitimate size', () => {
  it('stores a ConfigMap over the 1 MiB default through POST /api/resources (its limit is 2 MiB)', async () => {
    const value = 'y'.repeat(1_200_000);
    const yaml = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: large-but-fine\ndata:\n  k: ${value}\n`;
    const response = await call('POST', '/api/resources', yaml, 'text/yaml');
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    const { rows } = await db.pool.query<{ k: string }>(
      `SELECT data->>'k' AS k FROM config_maps WHERE name = 'large-but-fine' AND deleted_at IS NULL`,
    );
    expect(rows[0]?.k).toBe(value);
  });
});

describe('data API bodies', () => {
  it('take bulk writes over the 1 MiB default, up to 10 MiB (413 PGRST102 naming it past that)', async () => {
    const rows = Array.from({ length: 1500 }, (_, i) => ({
      title: `bulk ${i} ${'z'.repeat(1000)}`,
      severity: 'low',
      type: 'availability',
    }));
    const bulk = await call('POST', '/api/db/incidents', JSON.stringify(rows), 'application/json', {
      prefer: 'return=minimal',
    });
    expect(bulk.statusCode, bulk.body).toBe(201);
    const { rows: stored } = await db.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM incidents WHERE title LIKE 'bulk %'`,
    );
    expect(Number(stored[0].n)).toBe(1500);
    const huge = await call(
      'POST',
      '/api/db/incidents',
      JSON.stringify([{ title: 'x'.repeat(11 * 1024 * 1024) }]),
    );
    expectRefused(huge, /larger than the limit of 10,485,760 bytes/, 413);
    expect(huge.json()).toMatchObject({ code: 'PGRST102' });
  });
});

describe("PostgreSQL's refusals", () => {
  it('answer 400 through the data API without quoting the row', async () => {
    const response = await call(
      'POST',
      '/api/db/incidents',
      JSON.stringify({ title: null, severity: 'high', type: 'x' }),
    );
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ code: '23502', details: 'field: title' });
    expect(response.body).not.toMatch(/Failing row/);
    const badDate = await call('GET', '/api/db/incidents?created_at=gt.-999999-01-01');
    expect(badDate.statusCode, badDate.body).toBe(400);
    expect(badDate.body).not.toContain('999999');
  });

  it('answer 400 through the app error handler, naming the problem and not the value', async () => {
    const small = Fastify();
    registerErrorHandling(small);
    small.get('/uuid', async () => db.pool.query(`SELECT 'secret-value'::uuid`));
    small.get('/date', async () => db.pool.query(`SELECT '99999-12-31 BC'::timestamptz`));
    small.get('/int', async () => db.pool.query(`SELECT 1e40::numeric::bigint`));
    small.get('/deep', async () => db.pool.query(`SELECT $1::jsonb`, [nested(100_000)]));
    try {
      for (const [url, mention] of [
        ['/uuid', /not in the format its field needs/],
        ['/date', /date or time is not valid or out of range/],
        ['/int', /number is out of range/],
        ['/deep', /nested too deeply/],
      ] as const) {
        const response = await small.inject({ method: 'GET', url });
        expectRefused(response, mention, 400);
        expect(response.body).not.toContain('secret-value');
      }
    } finally {
      await small.close();
    }
  });
});

describe('503 answers', () => {
  it('from the data API, when the database cannot be reached, log the cause and the answer', async () => {
    const recorded = recordingLogger();
    const unreachable = new pg.Pool({
      connectionString: 'postgres://nobody@127.0.0.1:1/none',
      connectionTimeoutMillis: 2000,
    });
    const small = Fastify({ loggerInstance: recorded.logger }) as unknown as FastifyInstance;
    registerErrorHandling(small);
    await small.register(dataApiRoutes, {
      prefix: '/api/db',
      pool: unreachable,
      readPool: null,
      allowlist: dataApiAllowlist,
      authorize: async () => ({ allow: true }),
    });
    try {
      const response = await small.inject({ method: 'GET', url: '/api/db/incidents' });
      expect(response.statusCode, response.body).toBe(503);
      expect(response.json()).toMatchObject({ code: 'PGRST001' });
      const messages = recorded.lines().map((line) => line.msg);
      expect(messages).toContain('data API request failed');
      expect(messages).toContain('answered 503 Service Unavailable');
    } finally {
      await small.close();
      await unreachable.end();
    }
  });

  it('leave a log line', async () => {
    markShuttingDown();
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(503);
    expect(logs.lines()).toContainEqual(
      expect.objectContaining({ msg: 'answered 503 Service Unavailable', url: '/readyz', statusCode: 503 }),
    );
  });
});

describe('DATA_API_MAX_ROWS', () => {
  let capped: FastifyInstance;
  let incidentId: string;

  beforeAll(async () => {
    ({ app: capped } = await buildWith({ DATA_API_MAX_ROWS: '3' }));
    const created = await call(
      'POST',
      '/api/db/incidents',
      JSON.stringify(
        Array.from({ length: 5 }, (_, i) => ({
          title: `max-rows ${i}`,
          severity: 'low',
          type: 'availability',
        })),
      ),
    );
    expect(created.statusCode, created.body).toBe(201);
    incidentId = created.json<{ id: string }[]>()[0].id;
    const hypotheses = await call(
      'POST',
      '/api/db/hypotheses',
      JSON.stringify(Array.from({ length: 5 }, (_, i) => ({ incident_id: incidentId, title: `h${i}` }))),
    );
    expect(hypotheses.statusCode, hypotheses.body).toBe(201);
  });
  afterAll(async () => {
    await capped?.close();
  });

  const read = (url: string, headers: Record<string, string> = {}) =>
    capped.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}`, ...headers } });

  it('caps the top level, with Content-Range and the count still telling the whole', async () => {
    const { rows } = await db.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM incidents WHERE title LIKE 'max-rows %'`,
    );
    const total = Number(rows[0].n);
    expect(total).toBe(5);
    const first = await read(`/api/db/incidents?select=title&title=like.max-rows*&order=title`, {
      prefer: 'count=exact',
    });
    // PostgREST answers a range short of the total as 206 Partial Content.
    expect(first.statusCode, first.body).toBe(206);
    expect(first.json()).toHaveLength(3);
    expect(first.headers['content-range']).toBe(`0-2/${total}`);
    const asked = await read(`/api/db/incidents?select=title&title=like.max-rows*&order=title&limit=100`);
    expect(asked.json()).toHaveLength(3);
    const next = await read(`/api/db/incidents?select=title&title=like.max-rows*&order=title&offset=3`, {
      prefer: 'count=exact',
    });
    expect(next.json()).toEqual([{ title: 'max-rows 3' }, { title: 'max-rows 4' }]);
    expect(next.headers['content-range']).toBe(`3-4/${total}`);
  });

  it('caps each embedded array, also when the embed asks for more', async () => {
    const url = `/api/db/incidents?select=id,hypotheses(title)&id=eq.${incidentId}`;
    const embedded = await read(url);
    expect(embedded.statusCode, embedded.body).toBe(200);
    expect(embedded.json<{ hypotheses: unknown[] }[]>()[0].hypotheses).toHaveLength(3);
    const more = await read(`${url}&hypotheses.limit=50`);
    expect(more.json<{ hypotheses: unknown[] }[]>()[0].hypotheses).toHaveLength(3);
    const fewer = await read(`${url}&hypotheses.limit=2&hypotheses.order=title`);
    expect(fewer.json()).toEqual([{ id: incidentId, hypotheses: [{ title: 'h0' }, { title: 'h1' }] }]);
    // The app without the variable holds them all (default 1000).
    const uncapped = await call('GET', url);
    expect(uncapped.json<{ hypotheses: unknown[] }[]>()[0].hypotheses).toHaveLength(5);
  });
});
