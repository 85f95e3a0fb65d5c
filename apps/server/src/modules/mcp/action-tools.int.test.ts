import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfigItem } from '../../../test/harness/factories.js';
import { startFullApp, type FullApp } from '../../../test/harness/full-app.js';
import { mcpClientConfigs } from '../../../../web/src/features/tokens/lib/mcp-configs.js';
import { createTestPerson, createTestToken } from '../auth/test-fixtures/auth-test-app.js';
import { playbookToolName } from './action-tools.js';
import { httpTransport } from './test-fixtures/http-transport.js';

/**
 * The acting tools (issue 29) through the real MCP HTTP transport against the whole app: run a
 * health check, one tool per playbook the caller may run, get_playbook_run; viewers refused. And
 * every Setup MCP dialog configuration (apps/web tokens/lib/mcp-configs.ts) connects.
 */

const run = promisify(execFile);
let full: FullApp;
let base: string;
let peer: Server;
let peerPort: number;
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};
const suffix = Date.now().toString(36);

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'opsdeck-action-test', version: '1' });
  await client.connect(httpTransport(`${base}/mcp`, token));
  return client;
}

async function withClient<T>(token: string, body: (client: Client) => Promise<T>): Promise<T> {
  const client = await connect(token);
  try {
    return await body(client);
  } finally {
    await client.close();
  }
}

const textOf = (result: unknown) =>
  ((result as { content?: { type: string; text: string }[] }).content ?? [])[0]?.text ?? '';

beforeAll(async () => {
  full = await startFullApp('mcp-actions-admin');
  await full.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(full.app.server.address() as AddressInfo).port}`;
  // A real peer for the TCP check.
  peer = createServer((_request, response) => response.end('ok'));
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
  peerPort = (peer.address() as AddressInfo).port;

  const applied = await full.send('POST', '/api/canaries', {
    name: `mcp-actions-${suffix}`,
    namespace: 'default',
    spec: { schedule: '@every 1h', tcp: [{ name: `mcp-tcp-${suffix}`, endpoint: `127.0.0.1:${peerPort}` }] },
  });
  expect(applied.statusCode, applied.body).toBe(201);
  const { rows: checks } = await full.db.pool.query<{ id: string }>(
    'SELECT id FROM checks WHERE name = $1 AND deleted_at IS NULL',
    [`mcp-tcp-${suffix}`],
  );
  ids.check = checks[0].id;

  const { rows: playbooks } = await full.db.pool.query<{ id: string }>(
    `INSERT INTO playbooks (name, namespace, title, description, spec) VALUES ($1, 'default', 'Echo a target', 'Says hello', $2)
     RETURNING id`,
    [
      `echo-${suffix}`,
      {
        title: 'Echo a target',
        parameters: [
          { name: 'target', label: 'Target', required: true },
          { name: 'loud', type: 'checkbox' },
          {
            name: 'mode',
            type: 'list',
            properties: {
              options: [
                { label: 'Fast', value: 'fast' },
                { label: 'Slow', value: 'slow' },
              ],
            },
          },
        ],
        actions: [{ name: 'say', exec: { script: 'echo {{.params.target}}' } }],
      },
    ],
  );
  ids.playbook = playbooks[0].id;
  // A playbook that runs on pods: describe_catalog offers its tool for the pod below.
  await full.db.pool.query(
    `INSERT INTO playbooks (name, namespace, title, spec) VALUES ($1, 'default', 'Restart a pod', $2)`,
    [
      `restart-${suffix}`,
      {
        configs: [{ types: ['Kubernetes::Pod'] }],
        actions: [{ name: 'restart', exec: { script: 'echo {{.config.name}}' } }],
      },
    ],
  );

  const editor = await createTestPerson(full.db.pool, { roles: ['editor'] });
  const viewer = await createTestPerson(full.db.pool, { roles: ['viewer'] });
  tokens.editor = await createTestToken(full.db.pool, editor.id);
  tokens.editorMcpOnly = await createTestToken(full.db.pool, editor.id, [{ object: 'mcp', action: '*' }]);
  tokens.viewer = await createTestToken(full.db.pool, viewer.id);
  const nobody = await createTestPerson(full.db.pool, { roles: [] });
  tokens.nobody = await createTestToken(full.db.pool, nobody.id);

  const item = await createConfigItem(full.db.pool, {
    name: `pod-${suffix}`,
    config: { spec: { replicas: 3, image: 'nginx:1.27' } },
    labels: { team: 'payments' },
  });
  ids.config = item.id as string;
  const { rows: runs } = await full.db.pool.query<{ id: string }>(
    `INSERT INTO playbook_runs (playbook_id, status) VALUES ($1, 'completed') RETURNING id`,
    [ids.playbook],
  );
  ids.run = runs[0].id;
  const { rows: artifacts } = await full.db.pool.query<{ id: string }>(
    `INSERT INTO artifacts (playbook_run_id, path, filename, content_type, size)
     VALUES ($1, 'out/report.txt', 'report.txt', 'text/plain', 11), ($1, 'out/image.png', 'image.png', 'image/png', 4)
     RETURNING id`,
    [ids.run],
  );
  ids.textArtifact = artifacts[0].id;
  ids.binaryArtifact = artifacts[1].id;
  await full.db.pool.query(
    `INSERT INTO artifact_contents (artifact_id, content) VALUES ($1, convert_to('all is well', 'UTF8')), ($2, '\\x89504e47')`,
    [ids.textArtifact, ids.binaryArtifact],
  );
}, 120_000);

afterAll(async () => {
  peer?.close();
  await full?.close();
});

const toolName = () => playbookToolName('default', `echo-${suffix}`);

describe('run_health_check', () => {
  it('runs the check for an editor and records the result', async () => {
    await withClient(tokens.editor, async (client) => {
      const { tools } = await client.listTools();
      const tool = tools.find((entry) => entry.name === 'run_health_check');
      expect(tool?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      const result = await client.callTool({ name: 'run_health_check', arguments: { id: ids.check } });
      expect(result.isError, textOf(result)).toBe(false);
      expect(result.structuredContent).toMatchObject({
        check_id: ids.check,
        total: 1,
        success: 1,
        failed: 0,
      });
    });
    const { rows } = await full.db.pool.query('SELECT status FROM check_statuses WHERE check_id = $1', [
      ids.check,
    ]);
    expect(rows).toEqual([{ status: true }]);
  });

  it('refuses a viewer and names an unknown check', async () => {
    await withClient(tokens.viewer, async (client) => {
      const refused = await client.callTool({ name: 'run_health_check', arguments: { id: ids.check } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toBe('Cannot run the health check: You are not allowed to run checks');
    });
    await withClient(tokens.editor, async (client) => {
      const missing = await client.callTool({
        name: 'run_health_check',
        arguments: { id: '00000000-0000-4000-8000-000000000000' },
      });
      expect(missing.isError).toBe(true);
      expect(textOf(missing)).toContain('00000000-0000-4000-8000-000000000000');
    });
    const { rows } = await full.db.pool.query(
      'SELECT count(*)::int AS n FROM check_statuses WHERE check_id = $1',
      [ids.check],
    );
    expect(rows[0].n).toBe(1);
  });
});

describe('playbook tools', () => {
  it('offers one tool per playbook with its parameters as the input schema', async () => {
    await withClient(tokens.editor, async (client) => {
      const { tools } = await client.listTools();
      const tool = tools.find((entry) => entry.name === toolName());
      expect(tool).toBeDefined();
      expect(tool?.title).toBe('Run playbook Echo a target');
      expect(tool?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      const params = (
        tool?.inputSchema.properties as Record<
          string,
          { properties: Record<string, unknown>; required?: string[] }
        >
      ).params;
      expect(Object.keys(params.properties)).toEqual(['target', 'loud', 'mode']);
      expect(params.required).toEqual(['target']);
      expect(params.properties.loud).toMatchObject({ type: 'boolean' });
      expect(params.properties.mode).toMatchObject({ enum: ['fast', 'slow'] });
    });
  });

  it('runs the playbook through the playbooks service and reports the run with get_playbook_run', async () => {
    await withClient(tokens.editor, async (client) => {
      const result = await client.callTool({
        name: toolName(),
        arguments: { params: { target: 'world', mode: 'fast' } },
      });
      expect(result.isError, textOf(result)).toBe(false);
      const started = result.structuredContent as { run_id: string; status: string };
      expect(started.run_id).toMatch(/^[0-9a-f-]{36}$/);
      const { rows } = await full.db.pool.query(
        'SELECT playbook_id, parameters, status FROM playbook_runs WHERE id = $1',
        [started.run_id],
      );
      expect(rows[0]).toMatchObject({
        playbook_id: ids.playbook,
        parameters: { target: 'world', mode: 'fast', loud: false },
      });
      expect(started.status).toBe(rows[0].status);

      const status = await client.callTool({
        name: 'get_playbook_run',
        arguments: { run_id: started.run_id },
      });
      expect(status.isError, textOf(status)).toBe(false);
      expect(status.structuredContent).toMatchObject({
        run: { id: started.run_id, status: rows[0].status, playbook: { name: `echo-${suffix}` } },
      });
    });
  });

  it('names a missing or wrong parameter', async () => {
    await withClient(tokens.editor, async (client) => {
      await expect(client.callTool({ name: toolName(), arguments: { params: {} } })).rejects.toThrow(
        'params.target: target is required',
      );
      // The playbooks service's own checks answer as a tool error naming the field.
      const unknownResource = await client.callTool({
        name: toolName(),
        arguments: { params: { target: '' } },
      });
      expect(unknownResource.isError).toBe(true);
      expect(textOf(unknownResource)).toBe(
        `Cannot run echo-${suffix}: params.target: This field is required`,
      );
      await expect(
        client.callTool({ name: toolName(), arguments: { params: { target: 'x', mode: 'sideways' } } }),
      ).rejects.toThrow(/mode must be one of fast, slow/);
    });
  });

  it('gives viewers, and tokens without the playbook:run scope, no playbook tools', async () => {
    for (const token of [tokens.viewer, tokens.editorMcpOnly]) {
      await withClient(token, async (client) => {
        const { tools } = await client.listTools();
        expect(tools.some((tool) => tool.name.startsWith('playbook_') && tool.name === toolName())).toBe(
          false,
        );
        await expect(
          client.callTool({ name: toolName(), arguments: { params: { target: 'x' } } }),
        ).rejects.toThrow(/Unknown tool/);
      });
    }
    const { rows } = await full.db.pool.query(
      'SELECT count(*)::int AS n FROM playbook_runs WHERE playbook_id = $1 AND id <> $2',
      [ids.playbook, ids.run],
    );
    expect(rows[0].n).toBe(1);
  });
});

describe('describe_catalog', () => {
  it('offers, as available_tools, the playbook tools the caller may run on the item', async () => {
    const restart = playbookToolName('default', `restart-${suffix}`);
    const describe = async (token: string) =>
      withClient(token, async (client) => {
        const tool = (await client.listTools()).tools.find((entry) => entry.name === 'describe_catalog');
        expect(tool?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
        const answer = await client.callTool({ name: 'describe_catalog', arguments: { id: ids.config } });
        expect(answer.isError, JSON.stringify(answer.content)).toBe(false);
        return answer.structuredContent as { item: { id: string }; available_tools: string[] };
      });
    const editor = await describe(tokens.editor);
    expect(editor.item.id).toBe(ids.config);
    // the pod playbook fits (its config selector), the echo playbook names no resource
    expect(editor.available_tools).toEqual([restart]);
    await withClient(tokens.editor, async (client) => {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain(restart);
    });
    // a viewer may not run playbooks; an mcp:*-only token has no playbook:run scope
    expect((await describe(tokens.viewer)).available_tools).toEqual([]);
    expect((await describe(tokens.editorMcpOnly)).available_tools).toEqual([]);
  });
});

describe('evaluate_template', () => {
  it('evaluates CEL and Go templates over a catalog item the caller reads', async () => {
    await withClient(tokens.viewer, async (client) => {
      const cel = await client.callTool({
        name: 'evaluate_template',
        arguments: { expr: 'config.config.spec.replicas * 2', config_id: ids.config },
      });
      expect(cel.isError, textOf(cel)).toBe(false);
      expect(cel.structuredContent).toEqual({ language: 'cel', result: 6 });
      const template = await client.callTool({
        name: 'evaluate_template',
        arguments: {
          template: '{{ .config.name }} runs {{ .config.config.spec.image }} for {{ .team }}',
          config_id: ids.config,
          variables: { team: 'payments' },
        },
      });
      expect(template.structuredContent).toEqual({
        language: 'template',
        result: `pod-${suffix} runs nginx:1.27 for payments`,
      });
    });
  });

  it('says what is wrong: both or neither language, a bad expression, an item the caller cannot read', async () => {
    await withClient(tokens.viewer, async (client) => {
      await expect(
        client.callTool({ name: 'evaluate_template', arguments: { expr: '1', template: 'x' } }),
      ).rejects.toThrow('give exactly one of expr and template');
      const bad = await client.callTool({ name: 'evaluate_template', arguments: { expr: 'config.(' } });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toContain('config.(');
    });
    await withClient(tokens.nobody, async (client) => {
      const hidden = await client.callTool({
        name: 'evaluate_template',
        arguments: { expr: 'config.name', config_id: ids.config },
      });
      expect(hidden.isError).toBe(true);
    });
  });
});

describe('artifacts', () => {
  it("lists a run's artifacts and reads a text one; a binary one is described", async () => {
    await withClient(tokens.viewer, async (client) => {
      const list = await client.callTool({ name: 'list_artifacts', arguments: { run_id: ids.run } });
      expect(list.isError, textOf(list)).toBe(false);
      const names = (list.structuredContent as { artifacts: { filename: string }[] }).artifacts.map(
        (artifact) => artifact.filename,
      );
      expect(names.sort()).toEqual(['image.png', 'report.txt']);
      const text = await client.callTool({ name: 'get_artifact', arguments: { id: ids.textArtifact } });
      expect(text.isError, textOf(text)).toBe(false);
      expect(text.structuredContent).toMatchObject({
        artifact: { filename: 'report.txt' },
        content: 'all is well',
        truncated: false,
      });
      const binary = await client.callTool({ name: 'get_artifact', arguments: { id: ids.binaryArtifact } });
      expect(binary.structuredContent).toMatchObject({
        content: null,
        note: 'The content is image/png (4 bytes), not text',
      });
    });
  });

  it('refuses a caller who may not read runs', async () => {
    await withClient(tokens.nobody, async (client) => {
      const refused = await client.callTool({ name: 'get_artifact', arguments: { id: ids.textArtifact } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).not.toContain('all is well');
    });
  });
});

describe('the Setup MCP dialog configurations', () => {
  /** The endpoint and Authorization header each client would use, read from its snippet. */
  function endpointOf(client: string, text: string): { url: string; authorization: string } {
    switch (client) {
      case 'Claude Desktop': {
        const server = JSON.parse(text).mcpServers.opsdeck as { args: string[]; env: Record<string, string> };
        const header = server.args[server.args.indexOf('--header') + 1];
        expect(header).toBe('Authorization:${AUTH_HEADER}');
        return { url: server.args[2], authorization: server.env.AUTH_HEADER };
      }
      case 'Claude Code': {
        const match = /--transport http opsdeck '([^']+)' --header 'Authorization: ([^']+)'/.exec(text);
        expect(match, text).not.toBeNull();
        return { url: match![1], authorization: match![2] };
      }
      case 'VS Code Copilot': {
        const server = JSON.parse(text).servers.opsdeck;
        expect(server.type).toBe('http');
        return { url: server.url, authorization: server.headers.Authorization };
      }
      case 'Cline': {
        const server = JSON.parse(text).mcpServers.opsdeck;
        expect(server.type).toBe('streamableHttp');
        return { url: server.url, authorization: server.headers.Authorization };
      }
      case 'Continue.dev': {
        const server = (
          parseYaml(text) as {
            mcpServers: {
              type: string;
              url: string;
              requestOptions: { headers: { Authorization: string } };
            }[];
          }
        ).mcpServers[0];
        expect(server.type).toBe('streamable-http');
        return { url: server.url, authorization: server.requestOptions.headers.Authorization };
      }
      case 'Zed Editor': {
        const server = JSON.parse(text).context_servers.opsdeck;
        return { url: server.url, authorization: server.headers.Authorization };
      }
      default:
        throw new Error(`no reader for ${client}`);
    }
  }

  it('each client configuration reaches the endpoint with its token and lists the tools', async () => {
    const configs = mcpClientConfigs(base, tokens.editorMcpOnly);
    expect(configs.map((config) => config.client)).toEqual([
      'Claude Desktop',
      'Claude Code',
      'VS Code Copilot',
      'Cline',
      'Continue.dev',
      'Zed Editor',
      'Direct HTTP',
    ]);
    for (const config of configs.filter((entry) => entry.client !== 'Direct HTTP')) {
      const { url, authorization } = endpointOf(config.client, config.text);
      expect(url, config.client).toBe(`${base}/mcp`);
      expect(authorization, config.client).toBe(`Bearer ${tokens.editorMcpOnly}`);
      const client = new Client({ name: config.client, version: '1' });
      await client.connect(httpTransport(url, authorization.replace(/^Bearer /, '')));
      try {
        expect(client.getServerVersion()?.name, config.client).toBe('opsdeck');
        expect((await client.listTools()).tools.length, config.client).toBeGreaterThan(10);
      } finally {
        await client.close();
      }
    }
  });

  it('the Direct HTTP curl command initializes with protocol 2024-11-05', async () => {
    const direct = mcpClientConfigs(base, tokens.editorMcpOnly).find(
      (entry) => entry.client === 'Direct HTTP',
    )!;
    const { stdout } = await run('sh', ['-c', `${direct.text} --silent --show-error`]);
    expect(JSON.parse(stdout)).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { protocolVersion: '2024-11-05', serverInfo: { name: 'opsdeck' } },
    });
  });
});
