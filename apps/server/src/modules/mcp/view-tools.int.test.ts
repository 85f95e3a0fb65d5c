import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfigItem, createPerson } from '../../../test/harness/factories.js';
import { startFullApp, type FullApp } from '../../../test/harness/full-app.js';
import { createTokenForUser } from '../auth/index.js';
import { httpTransport } from './test-fixtures/http-transport.js';
import { viewToolName } from './view-tools.js';

/**
 * The view tools and view:// resources (issue 29) through the real MCP door (the SDK's client
 * over HTTP against the whole app): rows with variables, filters and pages, and the same refusal
 * as POST /api/view/{id} for a caller who may not read views.
 */

let full: FullApp;
let base: string;
const tokens: Record<string, string> = {};
let viewId: string;

const podsView = {
  display: { title: 'MCP pods' },
  templating: [{ key: 'cluster', label: 'Cluster', values: ['alpha', 'beta'], default: 'alpha' }],
  queries: { pods: { configs: { types: ['Kubernetes::Pod'], tagSelector: 'cluster=$(var.cluster)' } } },
  columns: [
    { name: 'name', type: 'string', primaryKey: true },
    { name: 'health', type: 'health', filter: { type: 'multiselect' } },
  ],
};

async function withClient<T>(token: string, body: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ name: 'opsdeck-view-test', version: '1' });
  await client.connect(httpTransport(`${base}/mcp`, token));
  try {
    return await body(client);
  } finally {
    await client.close();
  }
}

type ToolAnswer = {
  isError?: boolean;
  content?: { text: string }[];
  structuredContent?: Record<string, unknown>;
};

beforeAll(async () => {
  full = await startFullApp('MCP views admin');
  await full.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(full.app.server.address() as AddressInfo).port}`;
  for (const role of ['viewer', 'none'] as const) {
    const person = await createPerson(full.db.pool, { roles: role === 'none' ? [] : [role] });
    tokens[role] = await createTokenForUser(full.db.pool, { email: person.email as string, name: role });
  }
  // 12 pods in alpha (every third unhealthy), 2 in beta.
  for (let index = 0; index < 12; index++)
    await createConfigItem(full.db.pool, {
      name: `pod-${String(index).padStart(2, '0')}`,
      type: 'Kubernetes::Pod',
      health: index % 3 === 0 ? 'unhealthy' : 'healthy',
      tags: { cluster: 'alpha' },
    });
  for (const name of ['beta-1', 'beta-2'])
    await createConfigItem(full.db.pool, {
      name,
      type: 'Kubernetes::Pod',
      health: 'healthy',
      tags: { cluster: 'beta' },
    });
  const created = await full.send('POST', '/api/db/views', {
    name: 'mcp-pods',
    namespace: 'ops',
    spec: podsView,
  });
  expect(created.statusCode, created.body).toBe(201);
  viewId = (created.json() as { id: string }[])[0].id;
});

afterAll(async () => {
  await full?.close();
});

describe('view tools over MCP', () => {
  it('lists the views with their columns and variables, and offers the view:// template', async () => {
    await withClient(tokens.viewer, async (client) => {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['list_all_views', 'read_view']));
      const listed = (await client.callTool({ name: 'list_all_views', arguments: {} })) as ToolAnswer;
      expect(listed.isError).toBe(false);
      expect(listed.structuredContent?.views).toEqual([
        {
          id: viewId,
          namespace: 'ops',
          name: 'mcp-pods',
          title: 'MCP pods',
          description: null,
          resource: 'view://ops/mcp-pods',
          tool: 'view_mcp-pods_ops',
          columns: [
            { name: 'name', type: 'string', filterable: false },
            { name: 'health', type: 'health', filterable: true },
          ],
          variables: [{ key: 'cluster', label: 'Cluster', values: ['alpha', 'beta'], default: 'alpha' }],
        },
      ]);
      const templates = (await client.listResourceTemplates()).resourceTemplates.map(
        (entry) => entry.uriTemplate,
      );
      expect(templates).toContain('view://{namespace}/{name}');
      const resource = await client.readResource({ uri: 'view://ops/mcp-pods' });
      const definition = JSON.parse((resource.contents[0] as { text: string }).text) as Record<
        string,
        unknown
      >;
      expect(definition).toMatchObject({ id: viewId, name: 'mcp-pods', namespace: 'ops', title: 'MCP pods' });
      expect(definition.spec).toMatchObject({ columns: podsView.columns });
    });
  });

  it('reads rows of a variable value with filters and pages, newest first by the first column', async () => {
    await withClient(tokens.viewer, async (client) => {
      const read = async (args: Record<string, unknown>) =>
        (await client.callTool({
          name: 'read_view',
          arguments: { namespace: 'ops', name: 'mcp-pods', ...args },
        })) as ToolAnswer;
      const first = await read({ limit: 5 });
      expect(first.isError).toBe(false);
      expect(first.structuredContent).toMatchObject({ total: 12, page: 1, limit: 5 });
      expect(first.structuredContent?.rows).toEqual(
        ['pod-11', 'pod-10', 'pod-09', 'pod-08', 'pod-07'].map((name) => ({
          name,
          health: name === 'pod-09' ? 'unhealthy' : 'healthy',
        })),
      );
      const third = await read({ limit: 5, page: 3, select: ['name'] });
      expect(third.structuredContent?.rows).toEqual([{ name: 'pod-01' }, { name: 'pod-00' }]);
      const unhealthy = await read({ filter: { health: 'unhealthy' }, select: ['name'] });
      expect(unhealthy.structuredContent).toMatchObject({
        total: 4,
        rows: [{ name: 'pod-09' }, { name: 'pod-06' }, { name: 'pod-03' }, { name: 'pod-00' }],
      });
      const wildcard = await read({ filter: { name: 'POD-1*' }, select: ['name'] });
      expect(wildcard.structuredContent?.rows).toEqual([{ name: 'pod-11' }, { name: 'pod-10' }]);
      const beta = await read({ variables: { cluster: 'beta' }, withPanels: true });
      expect(beta.structuredContent).toMatchObject({
        total: 2,
        variables: [{ key: 'cluster', value: 'beta' }],
        rows: [
          { name: 'beta-2', health: 'healthy' },
          { name: 'beta-1', health: 'healthy' },
        ],
        panels: [],
      });
      const badColumn = await read({ filter: { owner: 'x' } });
      expect(badColumn.isError).toBe(true);
      expect(badColumn.content?.[0].text).toBe('ops/mcp-pods has no column owner (columns: name, health)');
      const missing = await read({ name: 'nothing' });
      expect(missing).toMatchObject({ isError: true, content: [{ text: 'No view is ops/nothing' }] });
      await expect(
        client.callTool({ name: 'read_view', arguments: { namespace: 'ops', name: 'mcp-pods', page: 0 } }),
      ).rejects.toThrow(/page must be at least 1/);
    });
  });

  it('names a view tool as the ecosystem does: view_<name>_<namespace>, lower case, 64 characters at most', () => {
    expect(viewToolName('ops', 'mcp-pods')).toBe('view_mcp-pods_ops');
    expect(viewToolName('Team A', 'My Pods.v2')).toBe('view_my-pods-v2_team-a');
    expect(viewToolName('ops', 'x'.repeat(80))).toBe(`view_${'x'.repeat(59)}`);
  });

  it('offers one tool per view: its variables, columns and filters as the input schema, its rows as the answer', async () => {
    await withClient(tokens.viewer, async (client) => {
      const tool = (await client.listTools()).tools.find((entry) => entry.name === 'view_mcp-pods_ops');
      expect(tool).toBeDefined();
      expect(tool?.annotations).toMatchObject({ readOnlyHint: true });
      expect(tool?.description).toContain('[ops/mcp-pods]');
      const properties = tool?.inputSchema.properties as Record<string, Record<string, unknown>>;
      expect(Object.keys(properties).sort()).toEqual(
        ['cluster', 'filter', 'limit', 'page', 'select', 'withPanels', 'withRows'].sort(),
      );
      expect(properties.cluster).toMatchObject({ type: 'string', enum: ['alpha', 'beta'] });
      expect(properties.select).toMatchObject({ type: 'array', items: { enum: ['name', 'health'] } });
      expect(Object.keys(properties.filter.properties as object)).toEqual(['name', 'health']);
      expect(properties.limit).toMatchObject({ default: 50, maximum: 500 });
      expect(tool?.inputSchema.additionalProperties).toBe(false);

      const call = async (args: Record<string, unknown>) =>
        (await client.callTool({ name: 'view_mcp-pods_ops', arguments: args })) as ToolAnswer;
      const beta = await call({ cluster: 'beta', select: ['name'] });
      expect(beta.isError).toBe(false);
      expect(beta.structuredContent).toMatchObject({
        view: { id: viewId, namespace: 'ops', name: 'mcp-pods' },
        variables: [{ key: 'cluster', value: 'beta' }],
        total: 2,
        rows: [{ name: 'beta-2' }, { name: 'beta-1' }],
      });
      expect(beta.structuredContent?.panels).toBeUndefined();
      // the variable's default (alpha), a filter on the filterable column, the second page
      const unhealthy = await call({ filter: { health: 'unhealthy' }, select: ['name'], limit: 3, page: 2 });
      expect(unhealthy.structuredContent).toMatchObject({
        total: 4,
        page: 2,
        limit: 3,
        rows: [{ name: 'pod-00' }],
      });
      const noRows = await call({ withRows: false, withPanels: true });
      expect(noRows.structuredContent).toMatchObject({ panels: [] });
      expect(noRows.structuredContent?.rows).toBeUndefined();

      await expect(call({ select: ['owner'] })).rejects.toThrow(
        /select must list columns of ops\/mcp-pods: name, health/,
      );
      await expect(call({ cluster: 'gamma' })).rejects.toThrow(/cluster must be one of alpha, beta/);
      await expect(call({ filter: { owner: 'x' } })).rejects.toThrow(/Unknown argument owner/);
      await expect(call({ namespace: 'ops' })).rejects.toThrow(
        /Unknown argument namespace for view_mcp-pods_ops/,
      );
      await expect(client.callTool({ name: 'view_nothing_ops', arguments: {} })).rejects.toThrow(
        /Unknown tool: view_nothing_ops/,
      );
    });
  });

  it('refuses a caller who may not read views, as POST /api/view/{id} does: an MCP error, no rows', async () => {
    const http = await full.app.inject({
      method: 'POST',
      url: `/api/view/${viewId}`,
      headers: { authorization: `Bearer ${tokens.none}`, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(http.statusCode).toBe(403);
    await withClient(tokens.none, async (client) => {
      const listed = (await client.callTool({ name: 'list_all_views', arguments: {} })) as ToolAnswer;
      expect(listed).toMatchObject({
        isError: true,
        content: [{ text: 'You are not allowed to read views' }],
      });
      expect(listed.structuredContent).toBeUndefined();
      const read = (await client.callTool({
        name: 'read_view',
        arguments: { namespace: 'ops', name: 'mcp-pods' },
      })) as ToolAnswer;
      expect(read).toMatchObject({ isError: true, content: [{ text: 'You are not allowed to read views' }] });
      expect(read.structuredContent).toBeUndefined();
      await expect(client.readResource({ uri: 'view://ops/mcp-pods' })).rejects.toThrow(
        /You are not allowed to read views/,
      );
      // no view tools are listed, and calling one by its name is the same refusal
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names.filter((name) => name.startsWith('view_'))).toEqual([]);
      const byName = (await client.callTool({ name: 'view_mcp-pods_ops', arguments: {} })) as ToolAnswer;
      expect(byName).toMatchObject({
        isError: true,
        content: [{ text: 'You are not allowed to read views' }],
      });
      expect(byName.structuredContent).toBeUndefined();
    });
  });
});
