import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfigItem, createPerson } from '../../../test/harness/factories.js';
import { startFullApp, type FullApp } from '../../../test/harness/full-app.js';
import { createTokenForUser } from '../auth/index.js';
import { httpTransport } from './test-fixtures/http-transport.js';

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
    });
  });
});
