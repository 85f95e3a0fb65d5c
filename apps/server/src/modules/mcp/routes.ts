import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  createSchemaCatalog,
  DataApiEngine,
  type DataApiAllowlist,
  type SchemaCatalog,
} from '../../data-api/index.js';
import type { Pool } from '../../platform/db/pool.js';
import { parseJsonWithinLimits } from '../../platform/http/json-limits.js';
import type { Logger } from '../../platform/logger.js';
import { OPSDECK_VERSION } from '../../platform/version.js';
import { hasTokenScope, type AuthContext } from '../auth/index.js';
import {
  describeActionTool,
  playbookTools,
  STATIC_ACTION_TOOLS,
  type ActionContext,
  type ActionToolDefinition,
} from './action-tools.js';
import { createDataReader, ToolError } from './data-reader.js';
import { MCP_TOOLS } from './area-tools.js';
import { getPrompt, PROMPTS, readResource, RESOURCE_TEMPLATES } from './resources-prompts.js';
import { describeTool, type ToolDefinition } from './tools.js';
import { createViewTools } from './view-tools.js';

/** MCP revisions this server speaks, newest first: the SDK's. */
export const MCP_PROTOCOL_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;
export { LATEST_PROTOCOL_VERSION };

export const MCP_SERVER_NAME = 'opsdeck';

/** Server-defined JSON-RPC error: the caller may not use the MCP endpoint (token scope). */
export const MCP_FORBIDDEN = -32001;

/** The refusal for a token whose scopes do not include mcp:*. */
export const MCP_SCOPE_REQUIRED_MESSAGE =
  "This token's scope does not allow MCP: create a token with the mcp:* scope (user menu, Setup MCP)";

export interface McpRoutesOptions {
  pool: Pool;
  logger?: Logger;
  /** Paths to answer on. Default ['/mcp', '/api/mcp'] (API.md: `/api/mcp`, also `/mcp`). */
  paths?: readonly string[];
  /** Share the data API's catalog; one is created from `pool` when absent. */
  catalog?: SchemaCatalog;
  /** The data API's allowlist (hidden columns stay hidden): the app's, merged from every module. */
  allowlist: DataApiAllowlist;
  /** Rows a tool may read per relation. Default 1000. */
  maxRows?: number;
  /** Default 15000 ms. */
  statementTimeoutMs?: number;
}

const INSTRUCTIONS =
  'Opsdeck is an operations console. Health checks: search_health_checks, list_health_checks, get_check_status. ' +
  'Catalog (configuration) items: list_catalog_types, search_catalog, describe_catalog, search_catalog_changes, ' +
  'get_related_configs, list_catalog_insights. Incidents: list_incidents, get_incident. Playbooks: ' +
  'playbooks_list_all, playbook_recent_runs, playbook_failed_runs, get_playbook_run_details. Notifications: ' +
  'list_notifications, get_notifications_for_resource, get_notification_detail. Connections: list_connections. Artifacts: list_artifacts, ' +
  'get_artifact. Views: list_all_views, read_view (rows with filters and pages), and one tool per view named ' +
  'view_<name>_<namespace> whose input is its variables, columns and filters. Expressions: evaluate_template (CEL or Go template over a resource). These only read, with ' +
  'the rights of the token owner. Acting tools (marked destructive): run_health_check runs a check now; each ' +
  'playbook the caller may run is a tool named playbook_<namespace>_<name> whose input is its parameters, ' +
  'returning the run id to follow with get_playbook_run. Acting needs a role that may act (viewers may not) ' +
  'and, for a scoped token, the scope of that action (playbooks playbook:run, canaries update).';

const CAPABILITIES = { tools: {}, resources: {}, prompts: {} };

/**
 * A JSON-RPC error a handler throws: the SDK answers with its `code`, `message` (as is, unlike
 * McpError's "MCP error -32602: ..." wording) and `data`.
 */
class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/** -32602 naming the parameter that is wrong. */
function invalidParams(message: string, field: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, message, { field });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function fieldOf(issue: z.core.$ZodIssue | undefined, prefix: string): string {
  const path = issue?.path.map(String).join('.') ?? '';
  return path ? `${prefix}.${path}` : prefix;
}

/*
 * The SDK parses a request with the schema its handler was registered with, and answers a
 * mismatch as an internal error (-32603). These two take any params and check them here, so a
 * client error is -32602 naming the field (and `initialize` stays as lenient as MCP clients are:
 * capabilities and clientInfo may be left out).
 */
const InitializeRequest = z.object({
  method: z.literal('initialize'),
  params: z.record(z.string(), z.unknown()).optional(),
});
const ListToolsRequest = z.object({
  method: z.literal('tools/list'),
  params: z.record(z.string(), z.unknown()).optional(),
});

/** Answers are always plain JSON (`enableJsonResponse`), so the Accept check only refuses old clients. */
const TRANSPORT_ACCEPT = 'application/json, text/event-stream';

/**
 * MCP over "Streamable HTTP" through the SDK (`@modelcontextprotocol/sdk`): its transport, in
 * stateless mode with plain JSON answers, frames the JSON-RPC messages (batches, notifications,
 * 202s, the MCP-Protocol-Version header) and its `Server` answers initialize, ping and unknown
 * methods; this module adds the caller checks, the body limits and the tools. GET (server-sent
 * events) and DELETE (sessions) are not offered: 405.
 */
export async function mcpRoutes(app: FastifyInstance, options: McpRoutesOptions): Promise<void> {
  const { pool } = options;
  const viewTools = createViewTools({ pool, logger: options.logger });
  const readTools: readonly ToolDefinition[] = [...MCP_TOOLS, ...viewTools.tools];
  const toolsByName = new Map(readTools.map((tool) => [tool.name, tool]));
  const paths = options.paths ?? ['/mcp', '/api/mcp'];
  const engine = new DataApiEngine({
    pool,
    readPool: null,
    catalog: options.catalog ?? createSchemaCatalog(pool),
    allowlist: options.allowlist,
    maxRows: options.maxRows ?? 1000,
    statementTimeoutMs: options.statementTimeoutMs ?? 15_000,
  });

  /** The caller's reads through the data API engine. */
  const reader = (auth: AuthContext, request: FastifyRequest, what: string) =>
    createDataReader({
      engine,
      pool,
      auth,
      request,
      onInternalError: (error) => request.log.error({ err: error, tool: what }, 'MCP tool failed'),
    });

  /**
   * Acting tools call the app's own routes with the caller's credentials (the same headers this
   * request carried), so those routes authorize them as any other client.
   */
  const actionContext = (
    auth: AuthContext,
    request: FastifyRequest,
    read: ActionContext['read'],
  ): ActionContext => ({
    read,
    auth,
    async call(method, url, body) {
      const headers: Record<string, string> = { accept: 'application/json' };
      for (const name of ['authorization', 'cookie', 'x-csrf-token', 'user-agent']) {
        const value = request.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await app.inject({
        method,
        url,
        headers,
        remoteAddress: request.ip,
        ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
      });
      const contentType = response.headers['content-type'];
      let parsed: unknown;
      try {
        parsed = response.body === '' ? undefined : JSON.parse(response.body);
      } catch {
        parsed = response.body;
      }
      return {
        status: response.statusCode,
        body: parsed,
        raw: response.rawPayload,
        contentType: typeof contentType === 'string' ? contentType : undefined,
      };
    },
  });

  // The body stays raw text so bad JSON is answered with JSON-RPC's -32700, not the app's 400.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  /** One SDK server per HTTP request (stateless), acting for that request's caller. */
  function createServer(auth: AuthContext, request: FastifyRequest): Server {
    const server = new Server(
      { name: MCP_SERVER_NAME, title: 'Opsdeck', version: OPSDECK_VERSION },
      { capabilities: CAPABILITIES, instructions: INSTRUCTIONS },
    );
    /** Our errors pass through; anything else is logged and answered without its details. */
    const guarded =
      <A extends unknown[], R>(method: string, handler: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        try {
          return await handler(...args);
        } catch (error) {
          if (error instanceof RpcError) throw error;
          request.log.error({ err: error, method }, 'MCP request failed');
          throw new RpcError(ErrorCode.InternalError, 'Internal error');
        }
      };

    server.setRequestHandler(
      InitializeRequest,
      guarded('initialize', async ({ params = {} }) => {
        const requested = params.protocolVersion;
        if (typeof requested !== 'string' || requested === '') {
          throw invalidParams('protocolVersion is required (e.g. "2024-11-05")', 'params.protocolVersion');
        }
        if (params.capabilities !== undefined && !isRecord(params.capabilities)) {
          throw invalidParams('capabilities must be an object', 'params.capabilities');
        }
        if (params.clientInfo !== undefined && !isRecord(params.clientInfo)) {
          throw invalidParams('clientInfo must be an object with name and version', 'params.clientInfo');
        }
        // The SDK's negotiation: a version it speaks is echoed, any other gets its latest.
        return {
          protocolVersion: MCP_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION,
          capabilities: CAPABILITIES,
          serverInfo: { name: MCP_SERVER_NAME, title: 'Opsdeck', version: OPSDECK_VERSION },
          instructions: INSTRUCTIONS,
        };
      }),
    );

    server.setRequestHandler(
      ListToolsRequest,
      guarded('tools/list', async ({ params = {} }) => {
        if (params.cursor !== undefined && typeof params.cursor !== 'string') {
          throw invalidParams('cursor must be a string', 'params.cursor');
        }
        // One page holds every tool: a cursor can only come from another server.
        if (typeof params.cursor === 'string' && params.cursor !== '') {
          throw invalidParams('Unknown cursor: tools/list has a single page', 'params.cursor');
        }
        const read = reader(auth, request, 'tools/list');
        // A caller who may not read playbooks or views gets none of their tools (the list
        // tools say why), not a failed tools/list.
        const acting = await orNone(playbookTools(read, auth));
        const perView = await orNone(viewTools.perView(read));
        return {
          tools: [
            ...readTools.map(describeTool),
            ...perView.map(describeTool),
            ...STATIC_ACTION_TOOLS.map(describeActionTool),
            ...acting.map(describeActionTool),
          ],
        };
      }),
    );

    // The SDK checks the request (a name, arguments an object) and the result's shape.
    server.setRequestHandler(
      CallToolRequestSchema,
      guarded('tools/call', async ({ params }): Promise<CallToolResult> => {
        let tool: ToolDefinition | ActionToolDefinition | undefined =
          toolsByName.get(params.name) ??
          STATIC_ACTION_TOOLS.find((known) => known.name === params.name) ??
          (params.name.startsWith('playbook_')
            ? (await orNone(playbookTools(reader(auth, request, params.name), auth))).find(
                (known) => known.name === params.name,
              )
            : undefined);
        if (!tool && params.name.startsWith('view_')) {
          try {
            tool = (await viewTools.perView(reader(auth, request, params.name))).find(
              (known) => known.name === params.name,
            );
          } catch (error) {
            // A caller who may not read views learns why, as from read_view.
            if (error instanceof ToolError) {
              return { content: [{ type: 'text', text: error.message }], isError: true };
            }
            throw error;
          }
        }
        if (!tool) {
          throw invalidParams(
            `Unknown tool: ${params.name}. Tools: ${[...readTools, ...STATIC_ACTION_TOOLS]
              .map((known) => known.name)
              .join(', ')}, one view_<name>_<namespace> per view you may read, and one ` +
              'playbook_<namespace>_<name> per playbook you may run',
            'params.name',
          );
        }
        const parsed = tool.schema.safeParse(params.arguments ?? {});
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          const field = fieldOf(issue, 'params.arguments');
          const message =
            issue?.code === 'unrecognized_keys'
              ? `Unknown argument ${issue.keys.join(', ')} for ${tool.name}`
              : `${field.replace(/^params\.arguments\./, '')}: ${issue?.message ?? 'invalid'}`;
          throw invalidParams(
            message,
            issue?.code === 'unrecognized_keys' ? `params.arguments.${issue.keys[0]}` : field,
          );
        }
        const read = reader(auth, request, tool.name);
        try {
          const result = (
            'destructive' in tool
              ? await tool.run(parsed.data as Record<string, unknown>, actionContext(auth, request, read))
              : await tool.run(parsed.data, read)
          ) as Record<string, unknown>;
          return {
            content: [{ type: 'text', text: JSON.stringify(result, null, 2) }],
            structuredContent: result,
            isError: false,
          };
        } catch (error) {
          if (error instanceof ToolError) {
            return { content: [{ type: 'text', text: error.message }], isError: true };
          }
          throw error;
        }
      }),
    );

    // Resources are read on demand from their templates; none is listed up front.
    server.setRequestHandler(
      ListResourcesRequestSchema,
      guarded('resources/list', async () => ({ resources: [] })),
    );
    server.setRequestHandler(
      ListResourceTemplatesRequestSchema,
      guarded('resources/templates/list', async () => ({ resourceTemplates: RESOURCE_TEMPLATES })),
    );
    server.setRequestHandler(
      ReadResourceRequestSchema,
      guarded('resources/read', async ({ params }) => {
        const read = createDataReader({
          engine,
          pool,
          auth,
          request,
          onInternalError: (error) =>
            request.log.error({ err: error, uri: params.uri }, 'MCP resource failed'),
        });
        try {
          return await readResource(params.uri, read);
        } catch (error) {
          if (error instanceof ToolError) throw invalidParams(error.message, 'params.uri');
          throw error;
        }
      }),
    );
    server.setRequestHandler(
      ListPromptsRequestSchema,
      guarded('prompts/list', async () => ({ prompts: PROMPTS })),
    );
    server.setRequestHandler(
      GetPromptRequestSchema,
      guarded('prompts/get', async ({ params }) => {
        try {
          return getPrompt(params.name, params.arguments);
        } catch (error) {
          if (error instanceof ToolError) throw invalidParams(error.message, 'params.name');
          throw error;
        }
      }),
    );

    // Any other method (the SDK's own answer would say only "Method not found").
    server.fallbackRequestHandler = async (message) => {
      throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${message.method}`);
    };
    server.onerror = (error) => request.log.debug({ err: error }, 'MCP transport');
    return server;
  }

  async function handlePost(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const text = typeof request.body === 'string' ? request.body : '';
    // Within the depth, size and NUL limits of every API body (a deeper text is a parse error).
    const result = parseJsonWithinLimits(text);
    const body: unknown = result.ok ? result.value : undefined;

    const auth = request.auth;
    if (!auth)
      // MCP clients read the challenge to learn they must send a bearer token (RFC 6750).
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer realm="opsdeck"')
        .send(rpcError(null, MCP_FORBIDDEN, 'Unauthorized'));
    if (!hasTokenScope(auth, 'mcp')) {
      const id =
        isRecord(body) && (typeof body.id === 'string' || typeof body.id === 'number') ? body.id : null;
      return reply.status(403).send(rpcError(id, MCP_FORBIDDEN, MCP_SCOPE_REQUIRED_MESSAGE));
    }

    if (!result.ok) {
      return reply
        .status(400)
        .send(
          rpcError(
            null,
            ErrorCode.ParseError,
            text.trim() === ''
              ? 'Parse error: the request body is empty'
              : result.problem
                ? `Parse error: ${result.problem.message}`
                : 'Parse error: the body is not valid JSON',
          ),
        );
    }
    // JSON-RPC 2.0 §6: an empty batch is one invalid request (the transport would answer 202).
    if (Array.isArray(body) && body.length === 0) {
      return reply
        .status(400)
        .send(rpcError(null, ErrorCode.InvalidRequest, 'Invalid request: the batch is empty'));
    }

    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    // The body is already parsed as JSON whatever its declared type, and every answer is JSON:
    // the transport's Accept (406) and Content-Type (415) checks would only refuse clients that
    // this endpoint has always served.
    headers.set('accept', TRANSPORT_ACCEPT);
    headers.set('content-type', 'application/json');
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    const server = createServer(auth, request);
    try {
      await server.connect(transport);
      const answer = await transport.handleRequest(
        new Request(new URL(request.url, 'http://opsdeck.local'), { method: 'POST', headers }),
        { parsedBody: body },
      );
      // Through Fastify's reply (not a hijacked socket), so the app's onSend hooks (security
      // headers, x-request-id) and metrics see MCP answers like any other.
      reply.status(answer.status);
      answer.headers.forEach((value, name) => {
        if (name !== 'content-length') reply.header(name, value);
      });
      const payload = await answer.text();
      return payload === '' ? reply.send() : reply.send(payload);
    } finally {
      await server.close();
    }
  }

  const notAllowed = async (request: FastifyRequest, reply: FastifyReply) =>
    reply
      .status(405)
      .header('allow', 'POST')
      .send({
        error:
          request.method === 'GET'
            ? 'This MCP endpoint does not offer a server-sent event stream: send JSON-RPC messages with POST'
            : 'This MCP endpoint keeps no sessions: send JSON-RPC messages with POST',
      });

  for (const path of paths) {
    app.post(path, handlePost);
    app.get(path, notAllowed);
    app.delete(path, notAllowed);
  }
}

/** The tools a refused read would have listed: none (a ToolError is the caller's refusal). */
async function orNone<T>(tools: Promise<T[]>): Promise<T[]> {
  try {
    return await tools;
  } catch (error) {
    if (error instanceof ToolError) return [];
    throw error;
  }
}

function rpcError(id: string | number | null, code: number, message: string) {
  return { jsonrpc: '2.0', id, error: { code, message } };
}
