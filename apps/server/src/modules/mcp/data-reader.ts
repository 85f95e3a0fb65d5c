import type { FastifyRequest } from 'fastify';
import type { DataApiEngine } from '../../data-api/index.js';
import { maskSealedText } from '../../platform/secret-fields.js';
import type { Pool } from '../../platform/db/pool.js';
import { createDataApiAuthorizer, type AuthContext } from '../auth/index.js';

/** A tool failure reported to the model as a tool result with `isError: true`. */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

export interface ReadOptions {
  /** Ask for the total row count (Content-Range) as well. */
  count?: boolean;
}

export interface ReadResult<T> {
  rows: T[];
  /** Present when `count` was asked for. */
  total?: number;
}

/** Reads one relation through the data API engine with PostgREST parameters, as the caller. */
export type DataReader = <T = Record<string, unknown>>(
  relation: string,
  params: ReadonlyArray<readonly [string, string]>,
  options?: ReadOptions,
) => Promise<ReadResult<T>>;

/**
 * The rights MCP tools act with: the person's roles and permissions. A token reaching /mcp has
 * passed the `mcp:*` scope check (or has no scopes), and every tool only reads; the token's
 * other scopes (objects of the REST API) do not narrow what the tools may read.
 */
export function actingContext(auth: AuthContext): AuthContext {
  const acting: AuthContext = { ...auth };
  delete acting.token;
  return acting;
}

/** PostgREST's LIKE escaping for a literal piece of text (`*` stays the wildcard). */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

function rawQuery(params: ReadonlyArray<readonly [string, string]>): string {
  return params.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join('&');
}

function totalFrom(contentRange: string | undefined): number | undefined {
  const total = contentRange?.split('/')[1];
  if (!total || total === '*') return undefined;
  const parsed = Number(total);
  return Number.isFinite(parsed) ? parsed : undefined;
}

function messageOf(body: string | null): string | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A reader bound to one caller: every relation a read touches (embeds included) is authorized
 * exactly as a /api/db read is (roles, permission rows, the area's feature flag, and the row
 * restrictions that selector, tag and agent permissions compile into the SQL, so a Deny hides its
 * rows here too); writes are refused.
 */
export function createDataReader(options: {
  engine: DataApiEngine;
  pool: Pool;
  auth: AuthContext;
  /** The /mcp request: the permission and feature lookups are cached per request. */
  request: FastifyRequest;
  onInternalError(error: unknown): void;
}): DataReader {
  const { engine, pool } = options;
  const authorizeDataApi = createDataApiAuthorizer({ pool });
  // The data API gate reads the caller from the request; MCP tools act with the acting context.
  const acting = Object.assign(Object.create(options.request) as FastifyRequest, {
    auth: actingContext(options.auth),
  });
  return async <T>(
    relation: string,
    params: ReadonlyArray<readonly [string, string]>,
    readOptions: ReadOptions = {},
  ): Promise<ReadResult<T>> => {
    const response = await engine.handle(
      {
        method: 'GET',
        target: { kind: 'relation', name: relation },
        rawQuery: rawQuery(params),
        headers: { accept: 'application/json', ...(readOptions.count ? { prefer: 'count=exact' } : {}) },
        body: undefined,
        basePath: '/api/db',
      },
      async (target, action) => {
        if (action !== 'read' && action !== 'execute') {
          return { allow: false, status: 403, message: 'MCP tools only read' };
        }
        return authorizeDataApi(acting, target, action);
      },
      options.onInternalError,
    );
    if (response.status >= 500) throw new ToolError('Internal server error while reading data');
    if (response.status < 200 || response.status >= 300) {
      throw new ToolError(messageOf(response.body) ?? `Reading ${relation} failed (HTTP ${response.status})`);
    }
    // Sealed secrets read as the mask, as they do through /api/db.
    const rows = response.body ? (JSON.parse(maskSealedText(response.body)) as T[]) : [];
    const total = readOptions.count ? totalFrom(response.headers['content-range']) : undefined;
    return { rows, ...(total !== undefined ? { total } : {}) };
  };
}
