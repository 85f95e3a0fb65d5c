import { describe, expect, it } from 'vitest';
import { initializeRequest, mcpClientConfigs, mcpEndpoint } from './mcp-configs';
import { maskToken, orderedScopeKeys, scopeFromKey } from './scopes';

const TOKEN = 'opsdeck_0123_secret';

function config(client: string, base = 'https://ops.example.com') {
  const found = mcpClientConfigs(base, TOKEN).find((entry) => entry.client === client);
  if (!found) throw new Error(`no ${client}`);
  return found.text;
}

describe('MCP client configurations', () => {
  it('points every client at the backend base plus /mcp with the Bearer token', () => {
    expect(mcpEndpoint('https://ops.example.com/')).toBe('https://ops.example.com/mcp');
    for (const entry of mcpClientConfigs('https://ops.example.com', TOKEN)) {
      expect(entry.text, entry.client).toContain('https://ops.example.com/mcp');
      expect(entry.text, entry.client).toContain(`Bearer ${TOKEN}`);
    }
  });

  it('writes valid JSON for the JSON clients', () => {
    expect(JSON.parse(config('VS Code Copilot'))).toEqual({
      servers: {
        opsdeck: {
          type: 'http',
          url: 'https://ops.example.com/mcp',
          headers: { Authorization: `Bearer ${TOKEN}` },
        },
      },
    });
    expect(JSON.parse(config('Cline')).mcpServers.opsdeck.type).toBe('streamableHttp');
    expect(JSON.parse(config('Zed Editor')).context_servers.opsdeck.url).toBe('https://ops.example.com/mcp');
  });

  it('lets mcp-remote use plain http only when the server is not local', () => {
    expect(
      JSON.parse(config('Claude Desktop', 'http://ops.internal:8080')).mcpServers.opsdeck.args,
    ).toContain('--allow-http');
    expect(
      JSON.parse(config('Claude Desktop', 'http://localhost:8080')).mcpServers.opsdeck.args,
    ).not.toContain('--allow-http');
    expect(JSON.parse(config('Claude Desktop')).mcpServers.opsdeck.env).toEqual({
      AUTH_HEADER: `Bearer ${TOKEN}`,
    });
  });

  it('Direct HTTP is a curl initialize with protocol version 2024-11-05', () => {
    const curl = config('Direct HTTP');
    expect(curl.startsWith("curl -X POST 'https://ops.example.com/mcp'")).toBe(true);
    expect(curl).toContain(`-d '${initializeRequest()}'`);
    expect(JSON.parse(initializeRequest())).toMatchObject({
      jsonrpc: '2.0',
      method: 'initialize',
      params: { protocolVersion: '2024-11-05' },
    });
  });
});

describe('scopes', () => {
  it('round-trips object:action keys in form order, playbook verbs included', () => {
    expect(scopeFromKey('playbooks:playbook:run')).toEqual({
      subject: '',
      object: 'playbooks',
      action: 'playbook:run',
    });
    expect(orderedScopeKeys(['notification:read', 'mcp:*', 'catalog:delete', 'bogus:x'])).toEqual([
      'mcp:*',
      'catalog:delete',
      'notification:read',
    ]);
  });

  it('masks a token without revealing any of it', () => {
    expect(maskToken('abc')).toBe('•••');
    expect(maskToken('x'.repeat(100))).toHaveLength(48);
  });
});
