import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
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
import { createDataReader, ToolError } from './data-reader.js';
import {
  classifyMessage,
  errorResponse,
  idOf,
  invalidParams,
  resultResponse,
  RPC_ERRORS,
  RpcError,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from './json-rpc.js';
import { describeTool, MCP_TOOLS } from './tools.js';

/** MCP revisions this server speaks, newest first. */
export const MCP_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export const LATEST_PROTOCOL_VERSION = MCP_PROTOCOL_VERSIONS[0];

export const MCP_SERVER_NAME = 'opsdeck';

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
  'Opsdeck is an operations console. Use list_health_checks and get_check_status for health checks, ' +
  'search_catalog and get_config_item for catalog (configuration) items, list_incidents and get_incident ' +
  'for incidents. Every tool only reads, with the rights of the token owner.';

const TOOLS_BY_NAME = new Map(MCP_TOOLS.map((tool) => [tool.name, tool]));

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function fieldOf(issue: z.core.$ZodIssue | undefined, prefix: string): string {
  const path = issue?.path.map(String).join('.') ?? '';
  return path ? `${prefix}.${path}` : prefix;
}

interface CallContext {
  auth: AuthContext;
  request: FastifyRequest;
}

/**
 * MCP over "Streamable HTTP" with plain JSON answers: POST carries one JSON-RPC message (or a
 * batch); requests get a JSON answer, notifications and responses 202 without a body. GET
 * (server-sent events) and DELETE (sessions) are not offered: 405. The server keeps no session.
 */
export async function mcpRoutes(app: FastifyInstance, options: McpRoutesOptions): Promise<void> {
  const { pool } = options;
  const paths = options.paths ?? ['/mcp', '/api/mcp'];
  const engine = new DataApiEngine({
    pool,
    readPool: null,
    catalog: options.catalog ?? createSchemaCatalog(pool),
    allowlist: options.allowlist,
    maxRows: options.maxRows ?? 1000,
    statementTimeoutMs: options.statementTimeoutMs ?? 15_000,
  });

  // The body stays raw text so bad JSON is answered with JSON-RPC's -32700, not the app's 400.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  const methods: Record<string, (params: Record<string, unknown>, context: CallContext) => Promise<unknown>> =
    {
      async initialize(params) {
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
        const protocolVersion = (MCP_PROTOCOL_VERSIONS as readonly string[]).includes(requested)
          ? requested
          : LATEST_PROTOCOL_VERSION;
        return {
          protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: MCP_SERVER_NAME, title: 'Opsdeck', version: OPSDECK_VERSION },
          instructions: INSTRUCTIONS,
        };
      },
      async ping() {
        return {};
      },
      async 'tools/list'(params) {
        if (params.cursor !== undefined && typeof params.cursor !== 'string') {
          throw invalidParams('cursor must be a string', 'params.cursor');
        }
        // One page holds every tool: a cursor can only come from another server.
        if (typeof params.cursor === 'string' && params.cursor !== '') {
          throw invalidParams('Unknown cursor: tools/list has a single page', 'params.cursor');
        }
        return { tools: MCP_TOOLS.map(describeTool) };
      },
      async 'tools/call'(params, context) {
        const name = params.name;
        if (typeof name !== 'string' || name === '') throw invalidParams('name is required', 'params.name');
        const tool = TOOLS_BY_NAME.get(name);
        if (!tool) {
          throw invalidParams(
            `Unknown tool: ${name}. Tools: ${MCP_TOOLS.map((known) => known.name).join(', ')}`,
            'params.name',
          );
        }
        const rawArguments = params.arguments ?? {};
        if (!isRecord(rawArguments)) throw invalidParams('arguments must be an object', 'params.arguments');
        const parsed = tool.schema.safeParse(rawArguments);
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
        const read = createDataReader({
          engine,
          pool,
          auth: context.auth,
          onInternalError: (error) =>
            context.request.log.error({ err: error, tool: tool.name }, 'MCP tool failed'),
        });
        try {
          const result = await tool.run(parsed.data, read);
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
      },
    };

  async function answer(request: JsonRpcRequest, context: CallContext): Promise<JsonRpcResponse> {
    const handler = Object.hasOwn(methods, request.method) ? methods[request.method] : undefined;
    if (!handler) {
      return errorResponse(request.id, {
        code: RPC_ERRORS.METHOD_NOT_FOUND,
        message: `Method not found: ${request.method}`,
      });
    }
    try {
      return resultResponse(request.id, await handler(request.params ?? {}, context));
    } catch (error) {
      if (error instanceof RpcError) {
        return errorResponse(request.id, {
          code: error.code,
          message: error.message,
          ...(error.data !== undefined ? { data: error.data } : {}),
        });
      }
      context.request.log.error({ err: error, method: request.method }, 'MCP request failed');
      return errorResponse(request.id, { code: RPC_ERRORS.INTERNAL_ERROR, message: 'Internal error' });
    }
  }

  async function handlePost(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const text = typeof request.body === 'string' ? request.body : '';
    // Within the depth, size and NUL limits of every API body (a deeper text is a parse error).
    const result = parseJsonWithinLimits(text);
    const parsed = result.ok;
    const body: unknown = result.ok ? result.value : undefined;
    const limitProblem = result.ok ? undefined : result.problem;

    const auth = request.auth;
    if (!auth)
      // MCP clients read the challenge to learn they must send a bearer token (RFC 6750).
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer realm="opsdeck"')
        .send(errorResponse(null, { code: RPC_ERRORS.FORBIDDEN, message: 'Unauthorized' }));
    if (!hasTokenScope(auth, 'mcp')) {
      return reply.status(403).send(
        errorResponse(parsed ? idOf(body) : null, {
          code: RPC_ERRORS.FORBIDDEN,
          message: MCP_SCOPE_REQUIRED_MESSAGE,
        }),
      );
    }

    if (!parsed) {
      return reply.status(400).send(
        errorResponse(null, {
          code: RPC_ERRORS.PARSE_ERROR,
          message:
            text.trim() === ''
              ? 'Parse error: the request body is empty'
              : limitProblem
                ? `Parse error: ${limitProblem.message}`
                : 'Parse error: the body is not valid JSON',
        }),
      );
    }

    const versionHeader = request.headers['mcp-protocol-version'];
    if (
      typeof versionHeader === 'string' &&
      !(MCP_PROTOCOL_VERSIONS as readonly string[]).includes(versionHeader)
    ) {
      return reply.status(400).send(
        errorResponse(idOf(body), {
          code: RPC_ERRORS.INVALID_REQUEST,
          message: `Unsupported MCP-Protocol-Version ${versionHeader}; supported: ${MCP_PROTOCOL_VERSIONS.join(', ')}`,
        }),
      );
    }

    const batch = Array.isArray(body);
    const messages: unknown[] = batch ? (body as unknown[]) : [body];
    if (batch && messages.length === 0) {
      return reply.status(400).send(
        errorResponse(null, {
          code: RPC_ERRORS.INVALID_REQUEST,
          message: 'Invalid request: the batch is empty',
        }),
      );
    }

    const context: CallContext = { auth, request };
    const responses: JsonRpcResponse[] = [];
    for (const message of messages) {
      const classified = classifyMessage(message);
      if (classified.kind === 'invalid') {
        responses.push(
          errorResponse(classified.id, {
            code: RPC_ERRORS.INVALID_REQUEST,
            message: `Invalid request: ${classified.message}`,
          }),
        );
      } else if (classified.kind === 'request') {
        responses.push(await answer(classified.message, context));
      }
      // Notifications (notifications/initialized, cancelled, ...) and responses need no answer.
    }

    if (responses.length === 0) return reply.status(202).send();
    reply.header('content-type', 'application/json; charset=utf-8');
    if (!batch) {
      const single = responses[0] as JsonRpcResponse;
      const invalid = 'error' in single && single.error.code === RPC_ERRORS.INVALID_REQUEST;
      return reply.status(invalid ? 400 : 200).send(single);
    }
    return reply.status(200).send(responses);
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
