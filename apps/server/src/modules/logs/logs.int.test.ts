import { promises as fs } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { logSourcesResponseSchema, logsResponseSchema } from '@opsdeck/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { registerErrorHandling } from '../../platform/http/errors.js';
import { authPlugin } from '../auth/index.js';
import {
  bearer,
  createTestPerson,
  createTestToken,
  testAuthConfig,
} from '../auth/test-fixtures/auth-test-app.js';
import { ownLogRing, tapOwnLog } from './backends/opsdeck.js';
import { POSTGRES_NO_LOG_FILE } from './backends/postgres.js';
import { loggingBackendSpecIssues } from './logging-backend-kind.js';
import { logsRoutes } from './routes.js';

let db: TestDatabase;
let app: FastifyInstance;
let dir: string;
let peer: Server;
let peerUrl: string;
const peerRequests: { url: string; body: string }[] = [];
const tokens: Record<string, string> = {};

const base = Date.parse('2026-03-01T12:00:00Z');
const at = (offsetMinutes: number) => new Date(base + offsetMinutes * 60_000).toISOString();

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A local HTTP peer speaking Loki's query_range and OpenSearch's _search. */
function startPeer(): Promise<void> {
  peer = createServer((request, response) => {
    void readBody(request).then((body) => {
      peerRequests.push({ url: request.url ?? '', body });
      const url = new URL(request.url ?? '/', 'http://peer');
      response.setHeader('content-type', 'application/json');
      if (url.pathname === '/loki/api/v1/query_range') {
        if (url.searchParams.get('query')?.includes('broken')) {
          response.statusCode = 400;
          response.end('parse error at line 1');
          return;
        }
        const ns = (iso: string) => `${BigInt(Date.parse(iso)) * 1_000_000n}`;
        if (url.searchParams.get('query')?.startsWith('sum by (level, detected_level) (count_over_time(')) {
          // The line counts per bucket end (seconds), as a matrix: far more lines than one page.
          const seconds = (iso: string) => Date.parse(iso) / 1000;
          response.end(
            JSON.stringify({
              status: 'success',
              data: {
                resultType: 'matrix',
                result: [
                  { metric: { level: 'error' }, values: [[seconds(at(6)), '1']] },
                  {
                    metric: { level: 'info' },
                    values: [
                      [seconds(at(2)), '1'],
                      [seconds(at(10)), '250'],
                    ],
                  },
                ],
              },
            }),
          );
          return;
        }
        response.end(
          JSON.stringify({
            status: 'success',
            data: {
              resultType: 'streams',
              result: [
                { stream: { app: 'web', level: 'error' }, values: [[ns(at(5)), 'upstream timed out']] },
                {
                  stream: { app: 'web', level: 'info' },
                  values: [
                    [ns(at(9)), 'GET /healthz 200'],
                    [ns(at(1)), 'started'],
                  ],
                },
              ],
            },
          }),
        );
        return;
      }
      if (url.pathname === '/app-logs/_search' && request.method === 'POST') {
        response.end(
          JSON.stringify({
            aggregations: {
              histogram: {
                buckets: [
                  { key: Date.parse(at(0)), doc_count: 30, errors: { doc_count: 0 } },
                  { key: Date.parse(at(2)), doc_count: 12, errors: { doc_count: 5 } },
                ],
              },
            },
            hits: {
              total: { value: 42, relation: 'eq' },
              hits: [
                {
                  _id: '1',
                  _source: {
                    '@timestamp': at(3),
                    message: 'payment failed',
                    level: 'ERROR',
                    service: 'billing',
                  },
                },
                {
                  _id: '2',
                  _source: {
                    '@timestamp': at(7),
                    message: 'payment retried',
                    level: 'WARN',
                    service: 'billing',
                  },
                },
              ],
            },
          }),
        );
        return;
      }
      response.statusCode = 404;
      response.end('{"error":"not found"}');
    });
  });
  return new Promise((resolve) =>
    peer.listen(0, '127.0.0.1', () => {
      peerUrl = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

async function insertBackend(name: string, spec: Record<string, unknown>) {
  await db.pool.query(`INSERT INTO logging_backends (name, spec) VALUES ($1, $2::jsonb)`, [
    name,
    JSON.stringify(spec),
  ]);
}

beforeAll(async () => {
  db = await createTestDatabase();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'opsdeck-logs-'));
  // File backends read only below LOG_FILE_ROOTS (default /var/log): this test's folder too.
  process.env.LOG_FILE_ROOTS = `/var/log:${dir}`;
  await fs.mkdir(path.join(dir, 'web'));
  await fs.writeFile(
    path.join(dir, 'web', 'app.log'),
    [
      JSON.stringify({ time: Date.parse(at(-120)), level: 30, msg: 'too old', req: 'a' }),
      JSON.stringify({ time: Date.parse(at(10)), level: 30, msg: 'request served', route: '/orders' }),
      JSON.stringify({
        time: Date.parse(at(20)),
        level: 50,
        msg: 'request failed: database timeout',
        route: '/orders',
      }),
      JSON.stringify({ time: Date.parse(at(30)), level: 40, msg: 'slow request', route: '/cart' }),
      JSON.stringify({
        time: Date.parse(at(40)),
        level: 50,
        msg: 'request failed: out of stock',
        route: '/cart',
      }),
    ].join('\n') + '\n',
  );
  await fs.writeFile(
    path.join(dir, 'web', 'worker.log'),
    `${at(15)} ERROR [jobs] invoice run failed\n  at step 3\n${at(25)} INFO [jobs] invoice run done\n`,
  );
  await startPeer();
  await insertBackend('web-files', { file: { path: path.join(dir, 'web', 'app*.log'), format: 'json' } });
  await insertBackend('worker-file', {
    file: {
      path: path.join(dir, '**', 'worker.log'),
      format: 'regex',
      pattern: '^(?<timestamp>\\S+) (?<level>\\w+) \\[(?<queue>\\w+)\\] (?<message>.*)$',
    },
  });
  await insertBackend('missing-file', { file: { path: path.join(dir, 'nothing-*.log') } });
  await insertBackend('opsdeck', { opsdeck: {} });
  // A file outside LOG_FILE_ROOTS is never read: the checkout's package.json.
  await insertBackend('outside-roots', { file: { path: path.resolve('package.json') } });
  await insertBackend('postgres', { postgres: {} });
  await insertBackend('loki', {
    loki: { url: peerUrl, labels: { app: 'web' } },
    routes: [{ type: 'Service' }],
  });
  await insertBackend('loki-down', { loki: { url: 'http://127.0.0.1:9', labels: { app: 'web' } } });
  await insertBackend('search', { opensearch: { url: peerUrl, index: 'app-logs' } });
  await insertBackend('empty', { routes: [] });

  app = Fastify({ logger: false });
  registerErrorHandling(app);
  await app.register(authPlugin, { pool: db.pool, config: testAuthConfig() });
  await app.register(logsRoutes, { pool: db.pool, resolveConnection: () => Promise.resolve(undefined) });
  await app.ready();
  for (const role of ['editor', 'viewer', 'guest'] as const) {
    const person = await createTestPerson(db.pool, { roles: [role] });
    tokens[role] = await createTestToken(db.pool, person.id);
  }
});

afterAll(async () => {
  delete process.env.LOG_FILE_ROOTS;
  await app?.close();
  await db?.close();
  await new Promise((resolve) => peer?.close(resolve));
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

async function logs(body: Record<string, unknown>, role = 'viewer') {
  return app.inject({ method: 'POST', url: '/api/logs', payload: body, headers: bearer(tokens[role]) });
}

const range = { start: at(0), end: at(60) };

describe('POST /api/logs from files on this machine', () => {
  it('reads JSON lines through a glob, in range, newest first, with level and labels', async () => {
    const response = await logs({ name: 'web-files', ...range });
    expect(response.statusCode).toBe(200);
    const body = logsResponseSchema.parse(response.json());
    expect(body.total).toBe(4);
    expect(body.results.map((line) => line.message)).toEqual([
      'request failed: out of stock',
      'slow request',
      'request failed: database timeout',
      'request served',
    ]);
    expect(body.results[0]).toEqual({
      timestamp: at(40),
      message: 'request failed: out of stock',
      level: 'error',
      labels: { route: '/cart', file: 'app.log' },
    });
  });

  it('filters by the query (words, key=value, level=, -exclusions) and counts all while returning limit', async () => {
    const failed = logsResponseSchema.parse(
      (await logs({ name: 'web-files', query: 'failed', ...range })).json(),
    );
    expect(failed.results.map((line) => line.message)).toEqual([
      'request failed: out of stock',
      'request failed: database timeout',
    ]);
    const orders = logsResponseSchema.parse(
      (await logs({ name: 'web-files', query: 'route=/orders -served', ...range })).json(),
    );
    expect(orders.results.map((line) => line.message)).toEqual(['request failed: database timeout']);
    const warn = logsResponseSchema.parse(
      (await logs({ name: 'web-files', query: 'level=warn', ...range })).json(),
    );
    expect(warn.results.map((line) => line.message)).toEqual(['slow request']);
    const limited = logsResponseSchema.parse((await logs({ name: 'web-files', limit: 1, ...range })).json());
    expect(limited).toMatchObject({ total: 4, results: [{ message: 'request failed: out of stock' }] });
    const narrow = logsResponseSchema.parse(
      (await logs({ name: 'web-files', start: at(15), end: at(35) })).json(),
    );
    expect(narrow.results.map((line) => line.message)).toEqual([
      'slow request',
      'request failed: database timeout',
    ]);
  });

  it('counts every matching line of the range in the histogram, not only the page returned', async () => {
    // 1,200 lines over the hour (one every 3 s), every fourth an error; a page of 100.
    const lines = Array.from({ length: 1200 }, (_, index) =>
      JSON.stringify({
        time: Date.parse(at(0)) + index * 3000,
        level: index % 4 === 0 ? 50 : 30,
        msg: `busy line ${index}`,
      }),
    );
    await fs.writeFile(path.join(dir, 'web', 'busy.log'), `${lines.join('\n')}\n`);
    await insertBackend('busy-file', { file: { path: path.join(dir, 'web', 'busy.log'), format: 'json' } });
    const response = await logs({ name: 'busy-file', ...range, limit: 100, buckets: 6 });
    expect(response.statusCode).toBe(200);
    const body = logsResponseSchema.parse(response.json());
    expect(body.total).toBe(1200);
    expect(body.results).toHaveLength(100);
    expect(body.histogram).toEqual(
      [0, 10, 20, 30, 40, 50].map((minutes) => ({ start: at(minutes), count: 200, errors: 50 })),
    );
    // The query narrows the histogram too: only the errors, all of them.
    const errors = logsResponseSchema.parse(
      (await logs({ name: 'busy-file', query: 'level=error', ...range, limit: 10, buckets: 3 })).json(),
    );
    expect(errors.total).toBe(300);
    expect(errors.histogram.map((bucket) => [bucket.count, bucket.errors])).toEqual([
      [100, 100],
      [100, 100],
      [100, 100],
    ]);
    const bad = await logs({ name: 'busy-file', ...range, buckets: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'buckets must be 1 or more' });
  });

  it('parses a regex with named groups, joining continuation lines', async () => {
    const body = logsResponseSchema.parse((await logs({ name: 'worker-file', ...range })).json());
    expect(body.results).toEqual([
      {
        timestamp: at(25),
        level: 'info',
        message: 'invoice run done',
        labels: { queue: 'jobs', file: 'worker.log' },
      },
      {
        timestamp: at(15),
        level: 'error',
        message: 'invoice run failed\n  at step 3',
        labels: { queue: 'jobs', file: 'worker.log' },
      },
    ]);
  });

  it('finds the backend of a component from its log selector, and of a config item from routes', async () => {
    const { rows: components } = await db.pool.query<{ id: string }>(
      `INSERT INTO components (name, type, log_selectors) VALUES ('api', 'Service', $1::jsonb) RETURNING id`,
      [JSON.stringify([{ name: 'web-files', labels: { route: '/cart' } }])],
    );
    const byComponent = logsResponseSchema.parse((await logs({ id: components[0].id, ...range })).json());
    expect(byComponent.results.map((line) => line.message)).toEqual([
      'request failed: out of stock',
      'slow request',
    ]);
    const { rows: configs } = await db.pool.query<{ id: string }>(
      `INSERT INTO config_items (name, type, config_class) VALUES ('web', 'Service', 'Service') RETURNING id`,
    );
    const byRoute = await logs({ id: configs[0].id, ...range });
    expect(byRoute.statusCode).toBe(200);
    expect(logsResponseSchema.parse(byRoute.json()).results[0].message).toBe('GET /healthz 200');
  });
});

describe('POST /api/logs from remote backends against a local HTTP peer', () => {
  it('asks Loki query_range with a selector from labels and a line filter, in nanoseconds, backward', async () => {
    peerRequests.length = 0;
    const body = logsResponseSchema.parse(
      (await logs({ name: 'loki', query: 'timed', ...range, limit: 50 })).json(),
    );
    const asked = peerRequests.map((entry) => new URL(entry.url, 'http://peer'));
    const url = asked.find((entry) => entry.searchParams.get('direction') === 'backward')!;
    expect(url.pathname).toBe('/loki/api/v1/query_range');
    expect(url.searchParams.get('query')).toBe('{app="web"} |= "timed"');
    expect(url.searchParams.get('start')).toBe(`${BigInt(Date.parse(range.start)) * 1_000_000n}`);
    expect(url.searchParams.get('limit')).toBe('50');
    expect(body.results.map((line) => [line.message, line.level])).toEqual([
      ['GET /healthz 200', 'info'],
      ['upstream timed out', 'error'],
      ['started', 'info'],
    ]);
    // The histogram and the total come from a metric query counting every matching line of the
    // range (30 buckets of 2 minutes; a point at a bucket's end counts that bucket).
    const count = asked.find((entry) => entry.searchParams.get('direction') === null)!;
    expect(count.pathname).toBe('/loki/api/v1/query_range');
    expect(count.searchParams.get('query')).toBe(
      'sum by (level, detected_level) (count_over_time({app="web"} |= "timed" [120000ms]))',
    );
    expect(count.searchParams.get('step')).toBe('120');
    expect(count.searchParams.get('start')).toBe(`${BigInt(Date.parse(at(2))) * 1_000_000n}`);
    expect(count.searchParams.get('end')).toBe(`${BigInt(Date.parse(at(60))) * 1_000_000n}`);
    expect(body.total).toBe(252);
    expect(body.histogram).toHaveLength(30);
    expect(body.histogram[0]).toEqual({ start: at(0), count: 1, errors: 0 });
    expect(body.histogram[2]).toEqual({ start: at(4), count: 1, errors: 1 });
    expect(body.histogram[4]).toEqual({ start: at(8), count: 250, errors: 0 });
    expect(body.histogram.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(252);
    peerRequests.length = 0;
    await logs({ name: 'loki', query: '{app="api"} |= "x"', ...range });
    expect(
      peerRequests.map((entry) => new URL(entry.url, 'http://peer').searchParams.get('query')),
    ).toContain('{app="api"} |= "x"');
  });

  it('says what Loki answered when it refuses, and that it did not answer when it is down', async () => {
    const refused = await logs({ name: 'loki', query: '{app="broken"}', ...range });
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toMatchObject({
      error: 'Loki answered HTTP 400: parse error at line 1',
      field: 'name',
    });
    const down = await logs({ name: 'loki-down', ...range });
    expect(down.statusCode).toBe(502);
    expect(down.json<{ error: string }>().error).toMatch(/^Loki at http:\/\/127\.0\.0\.1:9 did not answer/);
  });

  it('posts an OpenSearch _search with the range, sort and query_string, and reads hits.total', async () => {
    peerRequests.length = 0;
    const body = logsResponseSchema.parse(
      (await logs({ name: 'search', query: 'payment', ...range, limit: 2 })).json(),
    );
    const sent = JSON.parse(peerRequests[0].body) as Record<string, unknown>;
    expect(peerRequests[0].url).toBe('/app-logs/_search');
    expect(sent).toEqual({
      size: 2,
      track_total_hits: true,
      sort: [{ '@timestamp': { order: 'desc' } }],
      query: {
        bool: {
          filter: [{ range: { '@timestamp': { gte: range.start, lte: range.end } } }],
          must: [{ query_string: { query: 'payment' } }],
        },
      },
      aggs: {
        histogram: {
          date_histogram: {
            field: '@timestamp',
            fixed_interval: '120000ms',
            offset: `${Date.parse(range.start) % 120_000}ms`,
            min_doc_count: 0,
            extended_bounds: { min: Date.parse(range.start), max: Date.parse(range.end) - 1 },
          },
          aggs: {
            errors: {
              filter: {
                terms: { level: ['error', 'ERROR', 'Error', 'err', 'ERR', 'fatal', 'FATAL', 'Fatal'] },
              },
            },
          },
        },
      },
    });
    expect(body).toMatchObject({
      total: 42,
      results: [
        { timestamp: at(7), message: 'payment retried', level: 'warn', labels: { service: 'billing' } },
        { timestamp: at(3), message: 'payment failed', level: 'error', labels: { service: 'billing' } },
      ],
    });
    // The date_histogram's buckets count every hit of the range, not the 2 returned.
    expect(body.histogram).toHaveLength(30);
    expect(body.histogram.slice(0, 3)).toEqual([
      { start: at(0), count: 30, errors: 0 },
      { start: at(2), count: 12, errors: 5 },
      { start: at(4), count: 0, errors: 0 },
    ]);
  });
});

describe("Opsdeck's and PostgreSQL's own logs", () => {
  it("keeps the server's log lines in a ring and searches them", async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (chunk: string) => lines.push(chunk) });
    tapOwnLog(logger);
    logger.child({ component: 'logs-test' }).warn({ token: 'never' }, 'ring marker %s', 'xyz');
    const body = logsResponseSchema.parse((await logs({ name: 'opsdeck', query: 'marker' })).json());
    expect(lines.length).toBe(1);
    expect(body.results[0]).toMatchObject({ message: 'ring marker xyz', level: 'warn' });
    expect(body.results[0].labels.component).toBe('logs-test');
    expect(ownLogRing.snapshot().length).toBeGreaterThan(0);
  });

  it('reads PostgreSQL log when it writes one, and says why not when it does not', async () => {
    const { rows } = await db.pool.query<{ file: string | null }>(`SELECT pg_current_logfile() AS file`);
    const response = await logs({ name: 'postgres' });
    if (rows[0].file === null) {
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({ error: POSTGRES_NO_LOG_FILE, field: 'name' });
    } else {
      expect(response.statusCode).toBe(200);
      logsResponseSchema.parse(response.json());
    }
  });
});

describe('bad input and access', () => {
  it('answers 4xx naming the field', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{}, 400, 'name'],
      [{ name: 'web-files', limit: 0 }, 400, 'limit'],
      [{ name: 'web-files', limit: 5001 }, 400, 'limit'],
      [{ name: 'web-files', start: 'yesterday' }, 400, 'start'],
      [{ name: 'web-files', start: at(10), end: at(0) }, 400, 'start'],
      [{ id: 'not-a-uuid' }, 400, 'id'],
      [{ name: 'nope' }, 404, 'name'],
      [{ id: '00000000-0000-0000-0000-00000000abcd' }, 404, 'id'],
      [{ name: 'missing-file' }, 404, 'name'],
      [{ name: 'empty' }, 422, 'name'],
      [{ name: 'outside-roots' }, 422, 'name'],
    ];
    for (const [body, status, field] of cases) {
      const response = await logs(body);
      expect({ body, status: response.statusCode, field: response.json<{ field?: string }>().field }).toEqual(
        {
          body,
          status,
          field,
        },
      );
    }
  });

  it('lets every role that reads logs search them, refuses without a caller, and obeys logs.disable', async () => {
    for (const role of ['editor', 'viewer', 'guest'])
      expect((await logs({ name: 'web-files' }, role)).statusCode).toBe(200);
    expect(
      (await app.inject({ method: 'POST', url: '/api/logs', payload: { name: 'web-files' } })).statusCode,
    ).toBe(401);
    await db.pool.query(`INSERT INTO properties (name, value) VALUES ('logs.disable', 'true')`);
    const refused = await logs({ name: 'web-files' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'The logs feature is disabled' });
    await db.pool.query(`DELETE FROM properties WHERE name = 'logs.disable'`);
  });

  it('follows token scopes: logs:read reads logs, catalog:read does not', async () => {
    const admin = await createTestPerson(db.pool, { roles: ['admin'] });
    const logsToken = await createTestToken(db.pool, admin.id, [{ object: 'logs', action: 'read' }]);
    const catalogToken = await createTestToken(db.pool, admin.id, [{ object: 'catalog', action: 'read' }]);
    const post = (token: string) =>
      app.inject({
        method: 'POST',
        url: '/api/logs',
        payload: { name: 'web-files' },
        headers: bearer(token),
      });
    expect((await post(logsToken)).statusCode).toBe(200);
    expect((await post(catalogToken)).statusCode).toBe(403);
  });

  it('refuses specs that name no backend, two backends, a bad regex or credentials in clear', () => {
    expect(loggingBackendSpecIssues({})).toEqual([
      { path: 'spec', message: 'name one backend: file, opsdeck, postgres, loki or opensearch' },
    ]);
    expect(loggingBackendSpecIssues({ file: { path: '/x' }, opsdeck: {} })[0].message).toBe(
      'name one backend, not file and opsdeck',
    );
    expect(loggingBackendSpecIssues({ file: { path: '/x', format: 'regex', pattern: '(' } })[0].path).toBe(
      'spec.file.pattern',
    );
    expect(loggingBackendSpecIssues({ loki: { url: 'http://l', password: 'p' } })[0].path).toBe(
      'spec.loki.password',
    );
    expect(loggingBackendSpecIssues({ loki: { url: 'http://l' } })).toEqual([]);
  });
});

describe('GET /api/logs/sources', () => {
  it('offers every backend, components with log selectors and resources the routes reach', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/logs/sources',
      headers: bearer(tokens.viewer),
    });
    expect(response.statusCode).toBe(200);
    const body = logSourcesResponseSchema.parse(response.json());
    expect(body.backends.map((backend) => [backend.name, backend.type])).toContainEqual(['loki', 'loki']);
    expect(body.backends.find((backend) => backend.name === 'empty')?.type).toBeNull();
    expect(body.components.map((source) => [source.name, source.backend])).toContainEqual([
      'api',
      'web-files',
    ]);
    expect(body.configs.map((source) => [source.name, source.backend])).toContainEqual(['web', 'loki']);
  });
});
