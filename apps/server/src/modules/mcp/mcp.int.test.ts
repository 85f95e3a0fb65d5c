import { dataApiAllowlist } from '../../modules.js';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCheck,
  createCheckStatus,
  createConfigItem,
  createIncident,
} from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { HttpError, registerErrorHandling } from '../../platform/http/errors.js';
import { OPSDECK_VERSION } from '../../platform/version.js';
import { authPlugin } from '../auth/index.js';
import { createTestPerson, createTestToken, testAuthConfig } from '../auth/test-fixtures/auth-test-app.js';
import { MCP_TOOLS, mcpRoutes, MCP_SCOPE_REQUIRED_MESSAGE } from './index.js';
import { httpTransport } from './test-fixtures/http-transport.js';

let db: TestDatabase;
let app: FastifyInstance;
const tokens: Record<string, string> = {};
const tag = randomBytes(3).toString('hex');

type Body = Record<string, unknown> & {
  result?: Record<string, unknown> & { content?: { type: string; text: string }[]; isError?: boolean };
  error?: { code: number; message: string; data?: { field?: string } };
};

async function rpc(
  payload: unknown,
  options: { token?: string; path?: string; raw?: string; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: options.path ?? '/mcp',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(options.token !== undefined ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    payload: options.raw ?? JSON.stringify(payload),
  });
}

async function call(token: string, name: string, args: Record<string, unknown> = {}): Promise<Body> {
  const response = await rpc(
    { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } },
    { token },
  );
  expect(response.statusCode).toBe(200);
  return response.json<Body>();
}

/** The structured result of a successful tool call. */
async function callOk<T = Record<string, unknown>>(
  token: string,
  name: string,
  args: Record<string, unknown> = {},
) {
  const body = await call(token, name, args);
  expect(body.error).toBeUndefined();
  expect(body.result?.isError, body.result?.content?.[0]?.text).toBe(false);
  const text = body.result?.content?.[0]?.text ?? '';
  const structured = body.result?.structuredContent as T;
  expect(JSON.parse(text)).toEqual(structured);
  return structured;
}

beforeAll(async () => {
  db = await createTestDatabase();
  app = Fastify({ logger: false });
  registerErrorHandling(app);
  // The app's own JSON parser (app.ts): the MCP routes must answer bad JSON with -32700 anyway.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(new HttpError(400, 'The request body is not valid JSON', 'body'), undefined);
    }
  });
  await app.register(authPlugin, { pool: db.pool, config: testAuthConfig() });
  await app.register(mcpRoutes, { pool: db.pool, allowlist: dataApiAllowlist });
  app.post('/api/other', async (request) => ({ body: request.body }));
  await app.ready();

  const viewer = await createTestPerson(db.pool, { roles: ['viewer'] });
  const nobody = await createTestPerson(db.pool, { roles: [] });
  tokens.mcp = await createTestToken(db.pool, viewer.id, [{ object: 'mcp', action: '*' }]);
  tokens.unscoped = await createTestToken(db.pool, viewer.id);
  tokens.catalogOnly = await createTestToken(db.pool, viewer.id, [{ object: 'catalog', action: 'read' }]);
  tokens.noRole = await createTestToken(db.pool, nobody.id, [{ object: 'mcp', action: '*' }]);
});

afterAll(async () => {
  await app?.close();
  await db?.close();
});

describe('MCP lifecycle', () => {
  it('negotiates 2024-11-05 and describes the server', async () => {
    const response = await rpc(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2024-11-05',
          capabilities: {},
          clientInfo: { name: 'curl', version: '1' },
        },
      },
      { token: tokens.mcp },
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/json');
    const body = response.json<Body>();
    expect(body).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: {
        protocolVersion: '2024-11-05',
        capabilities: { tools: {}, resources: {}, prompts: {} },
        serverInfo: { name: 'opsdeck', version: OPSDECK_VERSION },
      },
    });
  });

  it('keeps a newer known version and answers an unknown one with its latest', async () => {
    const known = await rpc(
      { jsonrpc: '2.0', id: 'a', method: 'initialize', params: { protocolVersion: '2025-06-18' } },
      { token: tokens.mcp },
    );
    expect(known.json<Body>().result?.protocolVersion).toBe('2025-06-18');
    const unknown = await rpc(
      { jsonrpc: '2.0', id: 'b', method: 'initialize', params: { protocolVersion: '1999-01-01' } },
      { token: tokens.mcp },
    );
    expect(unknown.json<Body>().result?.protocolVersion).toBe('2025-11-25');
  });

  it('refuses initialize without a protocol version (-32602 naming the field)', async () => {
    const response = await rpc(
      { jsonrpc: '2.0', id: 2, method: 'initialize', params: {} },
      { token: tokens.mcp },
    );
    const body = response.json<Body>();
    expect(body.id).toBe(2);
    expect(body.error).toMatchObject({ code: -32602, data: { field: 'params.protocolVersion' } });
  });

  it('acknowledges notifications/initialized with 202 and no body', async () => {
    const response = await rpc(
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { token: tokens.mcp },
    );
    expect(response.statusCode).toBe(202);
    expect(response.body).toBe('');
  });

  it('answers ping and refuses unknown methods with -32601', async () => {
    const ping = await rpc({ jsonrpc: '2.0', id: 3, method: 'ping' }, { token: tokens.mcp });
    expect(ping.json()).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
    const unknown = await rpc(
      { jsonrpc: '2.0', id: 4, method: 'sampling/createMessage' },
      { token: tokens.mcp },
    );
    expect(unknown.json<Body>().error).toMatchObject({
      code: -32601,
      message: 'Method not found: sampling/createMessage',
    });
  });

  it('answers on /api/mcp too', async () => {
    const response = await rpc(
      { jsonrpc: '2.0', id: 5, method: 'ping' },
      { token: tokens.mcp, path: '/api/mcp' },
    );
    expect(response.json()).toEqual({ jsonrpc: '2.0', id: 5, result: {} });
  });
});

describe('JSON-RPC errors', () => {
  it('answers bad JSON with -32700 and a null id', async () => {
    const response = await rpc(undefined, { token: tokens.mcp, raw: '{"jsonrpc": "2.0", "id": 1,' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: the body is not valid JSON' },
    });
    const empty = await rpc(undefined, { token: tokens.mcp, raw: '' });
    expect(empty.json<Body>().error?.code).toBe(-32700);
  });

  it('leaves the rest of the app with its own JSON parser', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/other',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.unscoped}` },
      payload: '{bad',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'The request body is not valid JSON', field: 'body' });
  });

  it('refuses malformed messages with 400 (the SDK transport: -32700; an empty batch: -32600)', async () => {
    const noVersion = await rpc({ id: 1, method: 'ping' }, { token: tokens.mcp });
    expect(noVersion.statusCode).toBe(400);
    expect(noVersion.json<Body>()).toMatchObject({
      id: null,
      error: { code: -32700, message: 'Parse error: Invalid JSON-RPC message' },
    });
    const badParams = await rpc(
      { jsonrpc: '2.0', id: 2, method: 'ping', params: [1] },
      { token: tokens.mcp },
    );
    expect(badParams.statusCode).toBe(400);
    expect(badParams.json<Body>().error?.code).toBe(-32700);
    const badId = await rpc({ jsonrpc: '2.0', id: { x: 1 }, method: 'ping' }, { token: tokens.mcp });
    expect(badId.json<Body>()).toMatchObject({ id: null, error: { code: -32700 } });
    const emptyBatch = await rpc([], { token: tokens.mcp });
    expect(emptyBatch.statusCode).toBe(400);
    expect(emptyBatch.json<Body>().error).toEqual({
      code: -32600,
      message: 'Invalid request: the batch is empty',
    });
  });

  it('answers a batch with one response per request, skipping notifications', async () => {
    const response = await rpc(
      [
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'nope' },
      ],
      { token: tokens.mcp },
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found: nope' } },
    ]);
    // The SDK refuses a batch with a malformed member as a whole.
    const mixed = await rpc([{ jsonrpc: '2.0', id: 1, method: 'ping' }, 42], { token: tokens.mcp });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json<Body>().error?.code).toBe(-32700);
  });

  it('refuses an unsupported MCP-Protocol-Version header', async () => {
    const response = await rpc(
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { token: tokens.mcp, headers: { 'mcp-protocol-version': '2000-01-01' } },
    );
    expect(response.statusCode).toBe(400);
    expect(response.json<Body>().error?.message).toContain('Unsupported protocol version: 2000-01-01');
    const supported = await rpc(
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { token: tokens.mcp, headers: { 'mcp-protocol-version': '2025-06-18' } },
    );
    expect(supported.statusCode).toBe(200);
  });

  it('serves clients that send no Accept header or another content type (the SDK would answer 406/415)', async () => {
    for (const headers of [
      { 'content-type': 'application/json' },
      { 'content-type': 'text/plain', accept: 'application/json' },
      { 'content-type': 'application/json', accept: 'text/event-stream' },
    ]) {
      const response = await app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { ...headers, authorization: `Bearer ${tokens.mcp}` },
        payload: JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'ping' }),
      });
      expect(response.statusCode, JSON.stringify(headers)).toBe(200);
      expect(response.headers['content-type']).toContain('application/json');
      expect(response.json()).toEqual({ jsonrpc: '2.0', id: 11, result: {} });
    }
  });

  it('answers GET and DELETE with 405 and a clear message', async () => {
    const get = await app.inject({
      method: 'GET',
      url: '/mcp',
      headers: { authorization: `Bearer ${tokens.mcp}` },
    });
    expect(get.statusCode).toBe(405);
    expect(get.headers.allow).toBe('POST');
    expect(get.json()).toEqual({
      error: 'This MCP endpoint does not offer a server-sent event stream: send JSON-RPC messages with POST',
    });
    const del = await app.inject({
      method: 'DELETE',
      url: '/mcp',
      headers: { authorization: `Bearer ${tokens.mcp}` },
    });
    expect(del.statusCode).toBe(405);
  });
});

describe('who may use /mcp', () => {
  it('needs a caller', async () => {
    const response = await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer realm="opsdeck"');
  });

  it('refuses a token without the mcp:* scope', async () => {
    const response = await rpc(
      { jsonrpc: '2.0', id: 9, method: 'initialize', params: { protocolVersion: '2024-11-05' } },
      {
        token: tokens.catalogOnly,
      },
    );
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      jsonrpc: '2.0',
      id: 9,
      error: { code: -32001, message: MCP_SCOPE_REQUIRED_MESSAGE },
    });
  });

  it('accepts an unscoped token, and a token sent as Basic token:<token>', async () => {
    const unscoped = await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, { token: tokens.unscoped });
    expect(unscoped.statusCode).toBe(200);
    const basic = await rpc(
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { headers: { authorization: `Basic ${Buffer.from(`token:${tokens.mcp}`).toString('base64')}` } },
    );
    expect(basic.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });
});

describe('tools', () => {
  let healthyCheck: { id: string };
  let failingCheck: { id: string };
  let pod: { id: string };
  let incident: { id: string };

  beforeAll(async () => {
    healthyCheck = await createCheck(db.pool, {
      name: `${tag}-api-latency`,
      type: 'http',
      status: 'healthy',
    });
    failingCheck = await createCheck(db.pool, { name: `${tag}-db_ping`, type: 'tcp', status: 'unhealthy' });
    await createCheck(db.pool, { name: `${tag}-gone`, status: 'unhealthy', deleted_at: new Date() });
    const now = Date.now();
    await createCheckStatus(db.pool, failingCheck.id, {
      time: new Date(now - 3000),
      status: true,
      duration: 10,
    });
    await createCheckStatus(db.pool, failingCheck.id, {
      time: new Date(now - 2000),
      status: false,
      message: 'refused',
    });
    await createCheckStatus(db.pool, failingCheck.id, {
      time: new Date(now - 1000),
      status: false,
      message: 'timeout',
    });
    pod = await createConfigItem(db.pool, {
      name: `${tag}-web-7f9`,
      type: 'Kubernetes::Pod',
      health: 'unhealthy',
      status: 'CrashLoopBackOff',
      config: { spec: { containers: [{ name: 'web' }] } },
    });
    await createConfigItem(db.pool, { name: `${tag}-node-1`, type: 'Kubernetes::Node', health: 'healthy' });
    await db.pool.query(
      `INSERT INTO config_changes (config_id, change_type, summary) VALUES ($1, 'diff', 'image changed')`,
      [pod.id],
    );
    incident = await createIncident(db.pool, { title: `${tag} Checkout down`, severity: 'high' });
    const author = await createTestPerson(db.pool, { roles: ['responder'] });
    await db.pool.query(
      `INSERT INTO comments (incident_id, comment, created_by) VALUES ($1, 'Rolling back', $2)`,
      [incident.id, author.id],
    );
    await createIncident(db.pool, { title: `${tag} Slow search`, severity: 'low', status: 'closed' });
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO hypotheses (incident_id, title) VALUES ($1, 'Bad deploy') RETURNING id`,
      [incident.id],
    );
    await db.pool.query(
      `INSERT INTO evidences (hypothesis_id, type, description, check_id) VALUES ($1, 'check', 'db ping fails', $2)`,
      [rows[0]?.id, failingCheck.id],
    );
  });

  it('lists the tools with JSON Schemas of their arguments', async () => {
    const response = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { token: tokens.mcp });
    const tools = (response.json<Body>().result?.tools ?? []) as {
      name: string;
      inputSchema: { type: string; properties: Record<string, unknown>; required?: string[] };
      annotations: { readOnlyHint: boolean };
    }[];
    expect(tools.map((tool) => tool.name)).toEqual([
      'list_health_checks',
      'get_check_status',
      'search_catalog',
      'get_config_item',
      'list_incidents',
      'get_incident',
      'list_catalog_types',
      'search_catalog_changes',
      'get_related_configs',
      'list_catalog_insights',
      'search_health_checks',
      'list_all_checks',
      'list_connections',
      'playbooks_list_all',
      'playbook_recent_runs',
      'playbook_failed_runs',
      'get_playbook_run_details',
      'get_playbook_run',
      'list_notifications',
      'get_notifications_for_resource',
      'get_notification_detail',
      'list_artifacts',
      'evaluate_template',
      // View tools (view-tools.ts).
      'list_all_views',
      'read_view',
      // Through the app's routes (action-tools.ts); a viewer has no playbook tools.
      'run_health_check',
      'get_artifact',
      'describe_catalog',
    ]);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.annotations.readOnlyHint).toBe(tool.name !== 'run_health_check');
    }
    const status = tools.find((tool) => tool.name === 'get_check_status');
    expect(status?.inputSchema.required).toEqual(['id']);
    expect(Object.keys(status?.inputSchema.properties ?? {})).toEqual(['id', 'results', 'limit']);
  });

  it('list_health_checks filters by status and name and leaves deleted checks out', async () => {
    const unhealthy = await callOk<{ total: number; checks: { id: string; status: string }[] }>(
      tokens.mcp,
      'list_health_checks',
      { status: 'unhealthy', name: tag },
    );
    expect(unhealthy.checks.map((check) => check.id)).toEqual([failingCheck.id]);
    expect(unhealthy.total).toBe(1);
    // '_' is a literal, not a LIKE wildcard
    const literal = await callOk<{ checks: { id: string }[] }>(tokens.mcp, 'list_health_checks', {
      name: `${tag}-db_p`,
    });
    expect(literal.checks.map((check) => check.id)).toEqual([failingCheck.id]);
    const none = await callOk<{ checks: unknown[] }>(tokens.mcp, 'list_health_checks', {
      name: `${tag}-d_%`,
    });
    expect(none.checks).toEqual([]);
    const all = await callOk<{ checks: { id: string }[] }>(tokens.mcp, 'list_health_checks', { name: tag });
    expect(all.checks.map((check) => check.id)).toEqual([healthyCheck.id, failingCheck.id]);
    const http = await callOk<{ checks: { id: string }[] }>(tokens.mcp, 'list_health_checks', {
      name: tag,
      type: 'HTTP',
    });
    expect(http.checks.map((check) => check.id)).toEqual([healthyCheck.id]);
  });

  it('get_check_status shows the latest result and recent counts', async () => {
    const result = await callOk<{
      check: { name: string; canary: { name: string } };
      latest: { status: boolean; message: string };
      recent: { count: number; passed: number; failed: number };
      results: unknown[];
    }>(tokens.mcp, 'get_check_status', { id: failingCheck.id, results: 2 });
    expect(result.check.name).toBe(`${tag}-db_ping`);
    expect(result.check.canary.name).toMatch(/^canary-/);
    expect(result.latest).toMatchObject({ status: false, message: 'timeout' });
    expect(result.recent).toEqual({ count: 2, passed: 0, failed: 2 });
    const missing = await call(tokens.mcp, 'get_check_status', {
      id: '00000000-0000-4000-8000-000000000000',
    });
    expect(missing.result).toEqual({
      content: [{ type: 'text', text: 'No health check has the id 00000000-0000-4000-8000-000000000000' }],
      isError: true,
    });
  });

  it('search_catalog and get_config_item read the catalog', async () => {
    const pods = await callOk<{ items: { id: string }[] }>(tokens.mcp, 'search_catalog', {
      name: tag,
      type: 'kubernetes::pod',
    });
    expect(pods.items.map((item) => item.id)).toEqual([pod.id]);
    const unhealthy = await callOk<{ items: { id: string }[] }>(tokens.mcp, 'search_catalog', {
      name: tag,
      health: 'unhealthy',
    });
    expect(unhealthy.items.map((item) => item.id)).toEqual([pod.id]);
    const detail = await callOk<{
      item: { id: string; config: unknown; status: string };
      changes: { summary: string }[];
    }>(tokens.mcp, 'get_config_item', { id: pod.id });
    expect(detail.item.config).toEqual({ spec: { containers: [{ name: 'web' }] } });
    expect(detail.item.status).toBe('CrashLoopBackOff');
    expect(detail.changes.map((change) => change.summary)).toEqual(['image changed']);
    const lean = await callOk<{ item: Record<string, unknown> }>(tokens.mcp, 'get_config_item', {
      id: pod.id,
      include_config: false,
    });
    expect(lean.item).not.toHaveProperty('config');
  });

  it('list_incidents and get_incident read incidents with hypotheses and evidence', async () => {
    const open = await callOk<{ incidents: { id: string; severity: string }[] }>(
      tokens.mcp,
      'list_incidents',
      {
        title: tag,
        status: 'open',
      },
    );
    expect(open.incidents.map((row) => row.id)).toEqual([incident.id]);
    const detail = await callOk<{
      incident: { title: string; hypotheses_count: number };
      hypotheses: { title: string; evidences: { description: string }[] }[];
      comments: { comment: string; author: { name: string } }[];
    }>(tokens.mcp, 'get_incident', { id: incident.id });
    expect(detail.incident.title).toBe(`${tag} Checkout down`);
    expect(detail.hypotheses).toHaveLength(1);
    expect(detail.hypotheses[0]?.evidences.map((evidence) => evidence.description)).toEqual([
      'db ping fails',
    ]);
  });

  it('answers bad arguments and unknown tools with -32602 naming the field', async () => {
    const zero = await call(tokens.mcp, 'list_health_checks', { limit: 0 });
    expect(zero.error).toMatchObject({
      code: -32602,
      message: 'limit: limit must be at least 1',
      data: { field: 'params.arguments.limit' },
    });
    const extra = await call(tokens.mcp, 'list_health_checks', { colour: 'red' });
    expect(extra.error).toMatchObject({ code: -32602, data: { field: 'params.arguments.colour' } });
    const badId = await call(tokens.mcp, 'get_incident', { id: 'nope' });
    expect(badId.error).toMatchObject({ code: -32602, message: 'id: incident id must be a UUID' });
    const status = await call(tokens.mcp, 'list_health_checks', { status: 'red' });
    expect(status.error?.data?.field).toBe('params.arguments.status');
    const unknown = await call(tokens.mcp, 'drop_tables');
    expect(unknown.error).toMatchObject({ code: -32602, data: { field: 'params.name' } });
    expect(unknown.error?.message).toContain('Unknown tool: drop_tables');
  });

  it("runs with the caller's rights: a person without a role reads nothing", async () => {
    const refused = await call(tokens.noRole, 'list_health_checks');
    expect(refused.result).toEqual({
      content: [{ type: 'text', text: 'You are not allowed to read canaries' }],
      isError: true,
    });
    const incidents = await call(tokens.noRole, 'get_incident', { id: incident.id });
    expect(incidents.result?.isError).toBe(true);
  });

  it("serves the SDK's own client over HTTP", async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const client = new Client({ name: 'opsdeck-test', version: '1' });
    const transport = httpTransport(`http://127.0.0.1:${port}/api/mcp`, tokens.mcp);
    try {
      await client.connect(transport);
      expect(client.getServerVersion()).toMatchObject({ name: 'opsdeck', version: OPSDECK_VERSION });
      expect(client.getServerCapabilities()).toEqual({ tools: {}, resources: {}, prompts: {} });
      const { tools } = await client.listTools();
      // The read tools, the two view tools (no view exists, so no view_* tool), and the three
      // tools through the app's routes (run_health_check, get_artifact, describe_catalog): a
      // viewer may run no playbook.
      expect(tools).toHaveLength(MCP_TOOLS.length + 5);
      const result = await client.callTool({ name: 'list_health_checks', arguments: { name: tag } });
      expect(result.isError).toBe(false);
      expect(result.structuredContent).toMatchObject({ total: 2 });
    } finally {
      await client.close();
    }
  });

  it('follows feature flags', async () => {
    await db.pool.query(`INSERT INTO properties (name, value) VALUES ('incidents.disable', 'true')`);
    try {
      const refused = await call(tokens.mcp, 'list_incidents');
      expect(refused.result).toEqual({
        content: [{ type: 'text', text: 'The incidents feature is disabled' }],
        isError: true,
      });
    } finally {
      await db.pool.query(`DELETE FROM properties WHERE name = 'incidents.disable'`);
    }
  });
});
