import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { relationRowSchemas } from '@opsdeck/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { registerErrorHandling } from '../../platform/http/errors.js';
import { authPlugin } from '../auth/index.js';
import { createTestPerson, createTestToken, testAuthConfig } from '../auth/test-fixtures/auth-test-app.js';
import {
  BUNDLED_CHART_SCHEMAS,
  chartSchemaUrlTemplate,
  createChartSchemaSource,
  DEFAULT_CHART_SCHEMA_URL,
} from './chart-schemas.js';
import { integrationsRoutes } from './routes.js';

let db: TestDatabase;
let registry: Server;
let registryUrl: string;
const requested: string[] = [];
const tokens: Record<string, string> = {};

/** A stand-in for the public registry: kubernetes has a schema, flux answers 404, aws bad JSON. */
function startRegistry(): Promise<void> {
  registry = createServer((request, response) => {
    requested.push(request.url ?? '');
    if (request.url === '/charts/kubernetes/values.schema.json') {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ type: 'object', properties: { clusterName: { type: 'string' } } }));
    } else if (request.url === '/charts/aws/values.schema.json') {
      response.end('not json');
    } else {
      response.statusCode = 404;
      response.end('missing');
    }
  });
  return new Promise((resolve) =>
    registry.listen(0, '127.0.0.1', () => {
      registryUrl = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/charts/{chart}/values.schema.json`;
      resolve();
    }),
  );
}

async function buildApp(template: string): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  registerErrorHandling(app);
  await app.register(authPlugin, { pool: db.pool, config: testAuthConfig() });
  await app.register(integrationsRoutes, { charts: createChartSchemaSource(template) });
  await app.ready();
  return app;
}

beforeAll(async () => {
  db = await createTestDatabase();
  await startRegistry();
  const editor = await createTestPerson(db.pool, { roles: ['editor'] });
  const nobody = await createTestPerson(db.pool, { roles: [] });
  tokens.editor = await createTestToken(db.pool, editor.id);
  tokens.nobody = await createTestToken(db.pool, nobody.id);
});

afterAll(async () => {
  registry?.close();
  await db?.close();
});

describe('GET /api/integrations/charts/{chart}/values-schema', () => {
  it("serves the registry's schema when it answers, and caches it", async () => {
    const app = await buildApp(registryUrl);
    const get = () =>
      app.inject({
        url: '/api/integrations/charts/kubernetes/values-schema',
        headers: { authorization: `Bearer ${tokens.editor}` },
      });
    const first = await get();
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      chart: 'kubernetes',
      source: 'registry',
      url: registryUrl.replace('{chart}', 'kubernetes'),
      schema: { type: 'object', properties: { clusterName: { type: 'string' } } },
    });
    const before = requested.length;
    expect((await get()).json()).toEqual(first.json());
    expect(requested.length).toBe(before);
    await app.close();
  });

  it('falls back to the bundled schema and says why', async () => {
    const app = await buildApp(registryUrl);
    const flux = await app.inject({
      url: '/api/integrations/charts/flux/values-schema',
      headers: { authorization: `Bearer ${tokens.editor}` },
    });
    expect(flux.json()).toMatchObject({
      source: 'bundled',
      problem: expect.stringContaining('the registry answered 404'),
      schema: BUNDLED_CHART_SCHEMAS.flux,
    });
    const aws = await app.inject({
      url: '/api/integrations/charts/aws/values-schema',
      headers: { authorization: `Bearer ${tokens.editor}` },
    });
    expect(aws.json()).toMatchObject({
      source: 'bundled',
      problem: expect.stringContaining('not answer with JSON'),
    });
    await app.close();
  });

  it('falls back when the registry is unreachable', async () => {
    const app = await buildApp('http://127.0.0.1:1/{chart}.json');
    const response = await app.inject({
      url: '/api/integrations/charts/mission-control/values-schema',
      headers: { authorization: `Bearer ${tokens.editor}` },
    });
    expect(response.json()).toMatchObject({ source: 'bundled', chart: 'mission-control' });
    await app.close();
  });

  it('names the chart when it is unknown, and refuses callers without read on integrations', async () => {
    const app = await buildApp(registryUrl);
    const unknown = await app.inject({
      url: '/api/integrations/charts/gcp/values-schema',
      headers: { authorization: `Bearer ${tokens.editor}` },
    });
    expect(unknown.statusCode).toBe(400);
    expect(JSON.stringify(unknown.json())).toContain('chart must be one of aws, azure');
    const refused = await app.inject({
      url: '/api/integrations/charts/aws/values-schema',
      headers: { authorization: `Bearer ${tokens.nobody}` },
    });
    expect(refused.statusCode).toBe(403);
    expect((await app.inject({ url: '/api/integrations/charts/aws/values-schema' })).statusCode).toBe(401);
    await app.close();
  });
});

describe('integrations_with_status', () => {
  it('has exactly the columns of its row contract, and a row of every type parses', async () => {
    const { rows: columns } = await db.pool.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'integrations_with_status'`,
    );
    const schema = relationRowSchemas.integrations_with_status;
    expect(columns.map((column) => column.column_name).sort()).toEqual(Object.keys(schema.shape).sort());

    const tag = Date.now().toString(36);
    await db.pool.query(`INSERT INTO logging_backends (name, spec) VALUES ($1, '{"loki": {}}')`, [
      `logs-${tag}`,
    ]);
    await db.pool.query(
      `INSERT INTO config_scrapers (name, spec) VALUES ($1, '{"file": [], "schedule": "@every 30m"}')`,
      [`files-${tag}`],
    );
    await db.pool.query(
      `INSERT INTO topologies (name, spec, schedule) VALUES ($1, '{"type": "Custom"}', '@hourly')`,
      [`shop-${tag}`],
    );
    const { rows } = await db.pool.query(
      `SELECT row_to_json(i) AS row FROM integrations_with_status i WHERE name LIKE '%-' || $1 ORDER BY name`,
      [tag],
    );
    const parsed = rows.map((row) => schema.parse(row.row));
    // The schedule column (0310): the scraper's from its spec, the topology's own, none for logs.
    expect(parsed.map((row) => [row.integration_type, row.name, row.schedule])).toEqual([
      ['scrapers', `files-${tag}`, '@every 30m'],
      ['logging_backends', `logs-${tag}`, null],
      ['topologies', `shop-${tag}`, '@hourly'],
    ]);
  });
});

describe('OPSDECK_CHART_SCHEMA_URL', () => {
  it('defaults to the flanksource registry and refuses a URL without {chart}', () => {
    expect(chartSchemaUrlTemplate({})).toBe(DEFAULT_CHART_SCHEMA_URL);
    expect(chartSchemaUrlTemplate({ OPSDECK_CHART_SCHEMA_URL: 'http://x/{chart}' })).toBe('http://x/{chart}');
    expect(() => chartSchemaUrlTemplate({ OPSDECK_CHART_SCHEMA_URL: 'http://x/schema.json' })).toThrow(
      'OPSDECK_CHART_SCHEMA_URL must be an http(s) URL containing {chart}',
    );
    expect(() => chartSchemaUrlTemplate({ OPSDECK_CHART_SCHEMA_URL: 'ftp://x/{chart}' })).toThrow(
      /OPSDECK_CHART_SCHEMA_URL/,
    );
  });
});
