import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheck, createCheckStatus, createConfigItem } from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { dataApiAllowlist } from '../../modules.js';
import { registerErrorHandling } from '../../platform/http/errors.js';
import { authPlugin } from '../auth/index.js';
import { createTestPerson, createTestToken, testAuthConfig } from '../auth/test-fixtures/auth-test-app.js';
import { mcpRoutes } from './index.js';
import { httpTransport } from './test-fixtures/http-transport.js';

let db: TestDatabase;
let app: FastifyInstance;
let client: Client;
let viewerClient: Client;
const ids: Record<string, string> = {};

async function connect(token: string): Promise<Client> {
  const { port } = app.server.address() as AddressInfo;
  const connected = new Client({ name: 'opsdeck-test', version: '1' });
  await connected.connect(httpTransport(`http://127.0.0.1:${port}/mcp`, token));
  return connected;
}

async function callOk(name: string, args: Record<string, unknown> = {}, as: Client = client) {
  const result = await as.callTool({ name, arguments: args });
  expect(result.isError, JSON.stringify(result.content)).toBe(false);
  return result.structuredContent as Record<string, unknown>;
}

beforeAll(async () => {
  db = await createTestDatabase();
  app = Fastify({ logger: false });
  registerErrorHandling(app);
  await app.register(authPlugin, { pool: db.pool, config: testAuthConfig() });
  await app.register(mcpRoutes, { pool: db.pool, allowlist: dataApiAllowlist });
  await app.listen({ port: 0, host: '127.0.0.1' });

  const editor = await createTestPerson(db.pool, { roles: ['editor'] });
  const viewer = await createTestPerson(db.pool, { roles: ['viewer'] });
  client = await connect(await createTestToken(db.pool, editor.id, [{ object: 'mcp', action: '*' }]));
  viewerClient = await connect(await createTestToken(db.pool, viewer.id, [{ object: 'mcp', action: '*' }]));

  const deployment = await createConfigItem(db.pool, {
    name: 'checkout',
    type: 'Kubernetes::Deployment',
    health: 'unhealthy',
  });
  const replicaSet = await createConfigItem(db.pool, {
    name: 'checkout-5d9',
    type: 'Kubernetes::ReplicaSet',
  });
  ids.deployment = deployment.id;
  ids.replicaSet = replicaSet.id;
  await db.pool.query(
    `INSERT INTO config_relationships (config_id, related_id, relation) VALUES ($1, $2, 'DeploymentReplicaSet')`,
    [deployment.id, replicaSet.id],
  );
  await db.pool.query(
    `INSERT INTO config_changes (config_id, change_type, severity, summary, created_at)
     VALUES ($1, 'diff', 'high', 'image changed to checkout:2.0', now() - interval '1 hour'),
            ($1, 'Pulled', 'info', 'pulled checkout:2.0', now() - interval '3 days')`,
    [deployment.id],
  );
  await db.pool.query(
    `INSERT INTO config_analysis (config_id, analyzer, analysis_type, severity, status, summary)
     VALUES ($1, 'trivy', 'security', 'critical', 'open', 'CVE-2026-0001 in openssl'),
            ($1, 'cost', 'cost', 'low', 'closed', 'oversized')`,
    [deployment.id],
  );
  const check = await createCheck(db.pool, {
    name: 'checkout-api',
    type: 'http',
    status: 'unhealthy',
    labels: { team: 'payments' },
  });
  ids.check = check.id;
  await createCheck(db.pool, {
    name: 'search-api',
    type: 'dns',
    status: 'healthy',
    labels: { team: 'search' },
  });
  await createCheckStatus(db.pool, check.id, { status: false, message: 'connection refused' });
  const connection = await db.pool.query<{ id: string }>(
    `INSERT INTO connections (name, namespace, type, url, password) VALUES ('orders-db', 'payments', 'postgres', 'postgres://db/orders', 'enc:v1:not-shown') RETURNING id`,
  );
  ids.connection = connection.rows[0].id;
  const playbook = await db.pool.query<{ id: string }>(
    `INSERT INTO playbooks (name, namespace, title, description, spec) VALUES ('restart', 'default', 'Restart deployment', 'Restarts it', '{"category":"Kubernetes","actions":[{"name":"restart","exec":{"script":"echo"}}]}') RETURNING id`,
  );
  ids.playbook = playbook.rows[0].id;
  const runs = await db.pool.query<{ id: string; status: string }>(
    `INSERT INTO playbook_runs (playbook_id, status, error, config_id, created_at)
     VALUES ($1, 'completed', NULL, $2, now() - interval '1 hour'), ($1, 'failed', 'exit status 1', $2, now())
     RETURNING id, status`,
    [ids.playbook, deployment.id],
  );
  ids.failedRun = runs.rows.find((run) => run.status === 'failed')!.id;
  await db.pool.query(
    `INSERT INTO playbook_run_actions (playbook_run_id, name, status, error, result, start_time)
     VALUES ($1, 'restart', 'failed', 'exit status 1', '{"stdout":"","stderr":"no such deployment"}', now())`,
    [ids.failedRun],
  );
  const notification = await db.pool.query<{ id: string }>(
    `INSERT INTO notifications (name, namespace, events, title) VALUES ('checks-to-slack', 'default', '{check.failed}', 'Check {{.check.name}} failed') RETURNING id`,
  );
  await db.pool.query(
    `INSERT INTO notification_send_history (notification_id, status, source_event, resource_id, resource_type, error)
     VALUES ($1, 'failed', 'check.failed', $2, 'check', 'webhook answered 500')`,
    [notification.rows[0].id, check.id],
  );
});

afterAll(async () => {
  await client?.close();
  await viewerClient?.close();
  await app?.close();
  await db?.close();
});

describe('catalog tools', () => {
  it('lists types, describes an item, its changes, relations and open insights', async () => {
    const types = await callOk('list_catalog_types');
    expect(types.types).toEqual(['Kubernetes::Deployment', 'Kubernetes::ReplicaSet']);
    const described = await callOk('describe_catalog', { id: ids.deployment });
    expect(described.item).toMatchObject({ name: 'checkout', health: 'unhealthy' });

    const changes = await callOk('search_catalog_changes', { config_id: ids.deployment });
    expect((changes.changes as { summary: string }[]).map((change) => change.summary)).toEqual([
      'image changed to checkout:2.0',
      'pulled checkout:2.0',
    ]);
    const recent = await callOk('search_catalog_changes', {
      since: new Date(Date.now() - 86_400_000).toISOString(),
      severity: 'high',
    });
    expect(recent.total).toBe(1);

    const related = await callOk('get_related_configs', { id: ids.replicaSet });
    expect(related.related).toEqual([
      expect.objectContaining({ name: 'checkout', relation: 'DeploymentReplicaSet', direction: 'incoming' }),
    ]);
    const insights = await callOk('list_catalog_insights', { config_id: ids.deployment });
    expect((insights.insights as { summary: string }[]).map((row) => row.summary)).toEqual([
      'CVE-2026-0001 in openssl',
    ]);
  });

  it("searches with the ecosystem's query grammar (search_catalog, search_catalog_changes) and selects columns", async () => {
    const names = async (args: Record<string, unknown>) =>
      ((await callOk('search_catalog', args)).items as { name: string }[]).map((item) => item.name);
    expect(await names({ query: 'health!=healthy type=Kubernetes::* agent=all' })).toEqual(['checkout']);
    expect(await names({ query: 'type=kubernetes::replicaset checkout' })).toEqual(['checkout-5d9']);
    expect(await names({ query: 'name=checkout* created_at>now-1h' })).toEqual(['checkout', 'checkout-5d9']);
    expect(await names({ query: 'created_at<now-1d' })).toEqual([]);
    expect(await names({ query: 'type=Kubernetes::* limit=1' })).toEqual(['checkout']);
    const selected = await callOk('search_catalog', {
      query: `id=${ids.deployment}`,
      select: ['id', 'health'],
    });
    expect(selected.items).toEqual([{ id: ids.deployment, health: 'unhealthy' }]);
    const unknownField = await client.callTool({
      name: 'search_catalog',
      arguments: { query: 'colour=red' },
    });
    expect(unknownField).toMatchObject({ isError: true });
    expect(JSON.stringify(unknownField.content)).toContain('query: unknown field \\"colour\\"');
    const badTime = await client.callTool({
      name: 'search_catalog',
      arguments: { query: 'created_at>yesterday' },
    });
    expect(JSON.stringify(badTime.content)).toContain('created_at must be a date');

    const summaries = async (query: string) =>
      ((await callOk('search_catalog_changes', { query })).changes as { summary: string }[]).map(
        (change) => change.summary,
      );
    expect(await summaries(`config_id=${ids.deployment}`)).toEqual([
      'image changed to checkout:2.0',
      'pulled checkout:2.0',
    ]);
    expect(await summaries('type=Kubernetes::Deployment severity=high')).toEqual([
      'image changed to checkout:2.0',
    ]);
    expect(await summaries('type=Kubernetes::ReplicaSet')).toEqual([]);
    expect(await summaries('created_at>now-1d')).toEqual(['image changed to checkout:2.0']);
    expect(await summaries('pulled')).toEqual(['pulled checkout:2.0']);
    const badId = await client.callTool({
      name: 'search_catalog_changes',
      arguments: { query: 'config_id=nope' },
    });
    expect(JSON.stringify(badId.content)).toContain('config_id must be a UUID');
  });

  it('names the wrong argument', async () => {
    const result = await client
      .callTool({ name: 'search_catalog_changes', arguments: { since: 'yesterday' } })
      .catch((error: Error) => error);
    expect(String(result)).toContain('since must be an ISO');
  });
});

describe('health tools', () => {
  it('searches checks with a field query and lists them all', async () => {
    const found = await callOk('search_health_checks', { query: 'status=unhealthy label.team=payments' });
    expect((found.checks as { name: string }[]).map((check) => check.name)).toEqual(['checkout-api']);
    const bare = await callOk('search_health_checks', { query: 'search' });
    expect((bare.checks as { name: string }[]).map((check) => check.name)).toEqual(['search-api']);
    const unknownField = await client.callTool({
      name: 'search_health_checks',
      arguments: { query: 'colour=red' },
    });
    expect(unknownField.isError).toBe(true);
    const all = await callOk('list_all_checks');
    expect(all.total).toBe(2);
  });
});

describe('connection, playbook and notification tools', () => {
  it('lists connections without credentials, with their reference', async () => {
    const listed = await callOk('list_connections');
    expect(listed.connections).toEqual([
      expect.objectContaining({
        name: 'orders-db',
        type: 'postgres',
        reference: 'connection://payments/orders-db',
      }),
    ]);
    expect(JSON.stringify(listed)).not.toContain('enc:v1');
    // A viewer may not read connections (role matrix): the tool says so.
    const refused = await viewerClient.callTool({ name: 'list_connections', arguments: {} });
    expect(refused.isError).toBe(true);
  });

  it('lists playbooks, recent and failed runs and a run with its actions', async () => {
    const playbooks = await callOk('playbooks_list_all');
    expect(playbooks.playbooks).toEqual([
      expect.objectContaining({ name: 'restart', category: 'Kubernetes', tool: 'playbook_default_restart' }),
    ]);
    expect((await callOk('playbook_recent_runs', { playbook_id: ids.playbook })).runs).toHaveLength(2);
    const failed = await callOk('playbook_failed_runs');
    expect(failed.runs).toEqual([expect.objectContaining({ id: ids.failedRun, error: 'exit status 1' })]);
    const details = await callOk('get_playbook_run_details', { run_id: ids.failedRun });
    expect(details.actions).toEqual([
      expect.objectContaining({
        name: 'restart',
        status: 'failed',
        result: { stdout: '', stderr: 'no such deployment' },
      }),
    ]);
    const slim = await callOk('get_playbook_run_details', { run_id: ids.failedRun, withResult: false });
    expect((slim.actions as Record<string, unknown>[])[0]).not.toHaveProperty('result');
  });

  it('lists notification rules and what was sent about a resource', async () => {
    expect((await callOk('list_notifications')).notifications).toEqual([
      expect.objectContaining({ name: 'checks-to-slack', events: ['check.failed'] }),
    ]);
    const sent = await callOk('get_notifications_for_resource', { resource_id: ids.check });
    expect(sent.sent).toEqual([
      expect.objectContaining({
        status: 'failed',
        error: 'webhook answered 500',
        notification: expect.objectContaining({ name: 'checks-to-slack' }),
      }),
    ]);
    // the ecosystem's filters: since/before (now-<n><unit> or a date), status, select
    const sendId = (sent.sent as { id: string }[])[0].id;
    const filtered = async (args: Record<string, unknown>) =>
      (
        (await callOk('get_notifications_for_resource', { resource_id: ids.check, ...args }))
          .sent as unknown[]
      ).length;
    expect(await filtered({ since: 'now-1h' })).toBe(1);
    expect(await filtered({ before: 'now-1h' })).toBe(0);
    expect(await filtered({ since: '2000-01-01', status: 'failed' })).toBe(1);
    expect(await filtered({ status: 'sent' })).toBe(0);
    const selected = await callOk('get_notifications_for_resource', {
      resource_id: ids.check,
      select: ['id', 'status'],
    });
    expect(selected.sent).toEqual([{ id: sendId, status: 'failed' }]);
    const badSince = await client.callTool({
      name: 'get_notifications_for_resource',
      arguments: { resource_id: ids.check, since: 'last week' },
    });
    expect(badSince).toMatchObject({ isError: true });
    expect(JSON.stringify(badSince.content)).toContain('since must be a date');

    const detail = await callOk('get_notification_detail', { send_id: sendId });
    expect(detail.notification).toMatchObject({
      id: sendId,
      status: 'failed',
      source_event: 'check.failed',
      resource_id: ids.check,
      error: 'webhook answered 500',
      notification: { name: 'checks-to-slack', title: 'Check {{.check.name}} failed' },
    });
    const missing = await client.callTool({
      name: 'get_notification_detail',
      arguments: { send_id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(missing).toMatchObject({ isError: true });

    // get_check_status takes the ecosystem's limit as well as results
    const status = await callOk('get_check_status', { id: ids.check, limit: 1 });
    expect(status.recent).toEqual({ count: 1, passed: 0, failed: 1 });
  });
});

describe('resources and prompts', () => {
  it('reads config items, playbooks and connections by URI', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      'config_item://{id}',
      'playbook://{idOrName}',
      'connection://{namespace}/{name}',
      'view://{namespace}/{name}',
    ]);
    const item = await client.readResource({ uri: `config_item://${ids.deployment}` });
    expect(JSON.parse((item.contents[0] as { text: string }).text).item.name).toBe('checkout');
    const playbook = await client.readResource({ uri: 'playbook://default/restart' });
    expect(JSON.parse((playbook.contents[0] as { text: string }).text).id).toBe(ids.playbook);
    const connection = await client.readResource({ uri: 'connection://payments/orders-db' });
    expect((connection.contents[0] as { text: string }).text).not.toContain('enc:v1');
    await expect(client.readResource({ uri: 'connection://payments/missing' })).rejects.toThrow(
      /No connection is payments\/missing/,
    );
  });

  it('offers prompts that name the tools', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual([
      'unhealthy_catalog_items',
      'troubleshoot_resource',
      'troubleshoot_kubernetes_resource',
      'failing_health_checks',
    ]);
    const prompt = await client.getPrompt({
      name: 'troubleshoot_resource',
      arguments: { id: ids.deployment },
    });
    const text = (prompt.messages[0].content as { text: string }).text;
    expect(text).toContain(ids.deployment);
    expect(text).toContain('search_catalog_changes');
    await expect(client.getPrompt({ name: 'troubleshoot_resource', arguments: {} })).rejects.toThrow(
      /needs the argument id/,
    );
  });

  it("answers the ecosystem's prompts, whose queries the tools run as written", async () => {
    // by the ecosystem's name (its title) and by ours
    for (const name of ['Unhealthy catalog items', 'unhealthy_catalog_items']) {
      const unhealthy = await client.getPrompt({ name });
      const text = (unhealthy.messages[0].content as { text: string }).text;
      expect(text).toContain('search_catalog');
      const query = /query: (.+?)\. /.exec(text)?.[1];
      expect(query).toBe('health!=healthy agent=all');
      const found = await callOk('search_catalog', { query });
      expect((found.items as { name: string }[]).map((item) => item.name)).toEqual(['checkout']);
    }
    const kube = await client.getPrompt({ name: 'troubleshoot_kubernetes_resource' });
    const steps = (kube.messages[0].content as { text: string }).text;
    const query = /call search_catalog with the query: (.+)/.exec(steps)?.[1];
    expect(query).toBe('health!=healthy type=Kubernetes::* agent=all');
    const found = await callOk('search_catalog', { query });
    expect((found.items as { id: string }[]).map((item) => item.id)).toEqual([ids.deployment]);
    const changes = await callOk('search_catalog_changes', { query: `config_id=${ids.deployment}` });
    expect(changes.total).toBe(2);
    expect(steps).toContain('describe_catalog');
    expect(steps).toContain('get_notifications_for_resource');
    const given = await client.getPrompt({
      name: 'troubleshoot_kubernetes_resource',
      arguments: { query: 'type=Kubernetes::ReplicaSet' },
    });
    expect((given.messages[0].content as { text: string }).text).toContain(
      'call search_catalog with the query: type=Kubernetes::ReplicaSet\n',
    );
    await expect(client.getPrompt({ name: 'nothing' })).rejects.toThrow(/Unknown prompt: nothing/);
  });
});
