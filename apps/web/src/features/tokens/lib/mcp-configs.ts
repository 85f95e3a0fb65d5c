/**
 * Client configurations for the MCP endpoint (settings §2.8): the backend base address plus /mcp,
 * authenticated with the new token as a Bearer header.
 */

/** The protocol version the Direct HTTP example initializes with (settings §2.8). */
export const MCP_CURL_PROTOCOL_VERSION = '2024-11-05';

/** The name MCP clients list the server under. */
export const MCP_SERVER_KEY = 'opsdeck';

export const MCP_CLIENTS = [
  'Claude Desktop',
  'Claude Code',
  'VS Code Copilot',
  'Cline',
  'Continue.dev',
  'Zed Editor',
  'Direct HTTP',
] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];

export interface McpClientConfig {
  client: McpClient;
  /** Where the snippet goes. */
  hint: string;
  language: 'json' | 'yaml' | 'shell';
  text: string;
}

/** `{origin}/mcp` without a doubled slash. */
export function mcpEndpoint(base: string): string {
  return `${base.replace(/\/+$/, '')}/mcp`;
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

function isLocalHttp(url: URL): boolean {
  return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

/** Single-quotes a value for a POSIX shell. */
function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The JSON-RPC initialize request of the Direct HTTP example. */
export function initializeRequest(): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: MCP_CURL_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'curl', version: '1.0.0' },
    },
  });
}

/** Every client's configuration for this endpoint and token. */
export function mcpClientConfigs(base: string, token: string): McpClientConfig[] {
  const endpoint = mcpEndpoint(base);
  const authorization = `Bearer ${token}`;
  let parsed: URL | undefined;
  try {
    parsed = new URL(endpoint);
  } catch {
    parsed = undefined;
  }
  // mcp-remote refuses plain http except on localhost unless told otherwise.
  const allowHttp = parsed !== undefined && parsed.protocol === 'http:' && !isLocalHttp(parsed);

  return [
    {
      client: 'Claude Desktop',
      hint: 'Add to claude_desktop_config.json (Settings → Developer → Edit Config), then restart Claude Desktop. Needs Node.js for mcp-remote.',
      language: 'json',
      text: json({
        mcpServers: {
          [MCP_SERVER_KEY]: {
            command: 'npx',
            args: [
              '-y',
              'mcp-remote',
              endpoint,
              '--header',
              'Authorization:${AUTH_HEADER}',
              ...(allowHttp ? ['--allow-http'] : []),
            ],
            env: { AUTH_HEADER: authorization },
          },
        },
      }),
    },
    {
      client: 'Claude Code',
      hint: 'Run in a terminal (add --scope user to use it in every project).',
      language: 'shell',
      text: `claude mcp add --transport http ${MCP_SERVER_KEY} ${shellQuote(endpoint)} --header ${shellQuote(
        `Authorization: ${authorization}`,
      )}`,
    },
    {
      client: 'VS Code Copilot',
      hint: 'Save as .vscode/mcp.json in your workspace (or run "MCP: Open User Configuration"), then start the server from the file.',
      language: 'json',
      text: json({
        servers: {
          [MCP_SERVER_KEY]: { type: 'http', url: endpoint, headers: { Authorization: authorization } },
        },
      }),
    },
    {
      client: 'Cline',
      hint: 'Add to cline_mcp_settings.json (MCP Servers → Installed → Configure MCP Servers).',
      language: 'json',
      text: json({
        mcpServers: {
          [MCP_SERVER_KEY]: {
            type: 'streamableHttp',
            url: endpoint,
            headers: { Authorization: authorization },
            disabled: false,
          },
        },
      }),
    },
    {
      client: 'Continue.dev',
      hint: 'Save as .continue/mcpServers/opsdeck.yaml in your workspace.',
      language: 'yaml',
      text: [
        'name: Opsdeck',
        'version: 0.0.1',
        'schema: v1',
        'mcpServers:',
        `  - name: ${MCP_SERVER_KEY}`,
        '    type: streamable-http',
        `    url: ${JSON.stringify(endpoint)}`,
        '    requestOptions:',
        '      headers:',
        `        Authorization: ${JSON.stringify(authorization)}`,
        '',
      ].join('\n'),
    },
    {
      client: 'Zed Editor',
      hint: 'Add to Zed settings.json (zed: open settings).',
      language: 'json',
      text: json({
        context_servers: {
          [MCP_SERVER_KEY]: { url: endpoint, headers: { Authorization: authorization } },
        },
      }),
    },
    {
      client: 'Direct HTTP',
      hint: `Sends a JSON-RPC initialize request (protocol version ${MCP_CURL_PROTOCOL_VERSION}) to check the endpoint and the token.`,
      language: 'shell',
      text: [
        `curl -X POST ${shellQuote(endpoint)} \\`,
        `  -H 'Content-Type: application/json' \\`,
        `  -H 'Accept: application/json, text/event-stream' \\`,
        `  -H ${shellQuote(`Authorization: ${authorization}`)} \\`,
        `  -d ${shellQuote(initializeRequest())}`,
      ].join('\n'),
    },
  ];
}
