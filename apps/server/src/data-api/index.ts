/**
 * The PostgREST-compatible data API at `/api/db` (register with `{ prefix: '/api/db' }`).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { DataApiAction, DataApiAllowlist } from './allowlist.js';
import { createSchemaCatalog, type SchemaCatalog } from './catalog.js';
import {
  DataApiEngine,
  type DataApiAuthorization,
  type EngineResponse,
  type RowChecker,
  type RowTransformer,
} from './engine.js';
import { ApiError } from './errors.js';
import { createReadPool } from './executor.js';

export {
  createDataApiAllowlist,
  HIDDEN_EVERYWHERE,
  mergeAllowlistInputs,
  READ,
  READ_DELETE,
  READ_UPDATE,
  READ_UPDATE_DELETE,
  type ReadSource,
  type DataApiAction,
  type DataApiAllowlist,
  type DataApiAllowlistInput,
  type FunctionPolicyInput,
  type RelationAction,
  type RelationPolicyInput,
} from './allowlist.js';
export { createSchemaCatalog, type SchemaCatalog } from './catalog.js';
export { createReadPool } from './executor.js';
export {
  DataApiEngine,
  type DataApiAuthorization,
  type EngineRequest,
  type EngineResponse,
  type RowCheckContext,
  type RowChecker,
  type RowIssue,
  type RowTransformer,
} from './engine.js';
export type { RowFilter } from './row-filters.js';

export interface DataApiTarget {
  relation: string;
  kind: 'table' | 'view' | 'function';
}

export interface DataApiOptions {
  pool: pg.Pool;
  /** Per relation: actions, hidden columns, writable columns, allowFilterlessWrite. */
  allowlist: DataApiAllowlist;
  /** One hook decides every (relation, action) a request touches, before any SQL runs. */
  authorize: (
    request: FastifyRequest,
    target: DataApiTarget,
    action: DataApiAction,
  ) => Promise<DataApiAuthorization>;
  /** Default 10000 rows per response. */
  maxRows?: number;
  /** Largest request body in bytes (bulk writes); default 10 MiB. */
  bodyLimit?: number;
  /** Default 15000 ms. */
  statementTimeoutMs?: number;
  /** Share a catalog to call `invalidate()` after migrations; created from `pool` when absent. */
  catalog?: SchemaCatalog;
  /** Default 'public'. */
  schema?: string;
  /** Called with the errors answered 5xx that are not the request's fault, for logging. */
  onInternalError?: (error: unknown, request: FastifyRequest) => void;
  /**
   * The person a write acts for: set as `opsdeck.person_id` (transaction-local) before the write,
   * so triggers can record who made a change (incident histories).
   */
  actingPerson?: (request: FastifyRequest) => string | undefined;
  /**
   * Pool for reads, whose sessions must be read-only and carry the statement timeout. Default:
   * derived from `pool` (same connection settings, half its `max`) and closed with the app;
   * `null` runs reads in READ ONLY transactions on `pool` instead (two more round trips).
   */
  readPool?: pg.Pool | null;
  /**
   * Checks each row a write sets (validation the database cannot do, such as resource specs
   * whose expressions must parse); a refused field answers 400 `23514` with `field: <path>`,
   * or 403 `42501` for an issue with `status: 403`. The context's `caller` is the request.
   */
  checkRow?: RowChecker;
  /** Rewrites each checked row before it is written (secrets sealed at rest). */
  transformRow?: RowTransformer;
  /** Rewrites each answer's body before it is sent (secrets masked). */
  transformResponseBody?: (body: string, request: FastifyRequest) => string;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'PUT'] as const;

export async function dataApiRoutes(app: FastifyInstance, opts: DataApiOptions): Promise<void> {
  const catalog = opts.catalog ?? createSchemaCatalog(opts.pool, { schema: opts.schema ?? 'public' });
  const statementTimeoutMs = opts.statementTimeoutMs ?? 15_000;
  let readPool = opts.readPool;
  if (readPool === undefined) {
    const derived = createReadPool(opts.pool, statementTimeoutMs);
    app.addHook('onClose', async () => {
      await derived.end();
    });
    readPool = derived;
  }
  const engine = new DataApiEngine({
    pool: opts.pool,
    readPool,
    catalog,
    allowlist: opts.allowlist,
    maxRows: opts.maxRows ?? 10_000,
    statementTimeoutMs,
    checkRow: opts.checkRow,
    transformRow: opts.transformRow,
  });

  // Bodies stay raw text: the engine answers bad JSON with PostgREST's PGRST102, and checks
  // the content type itself (415 PGRST107).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  const bodyLimit = opts.bodyLimit ?? 10 * 1024 * 1024;
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'data API request failed');
    const apiError =
      error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? new ApiError(
            413,
            'PGRST102',
            `Request body is larger than the limit of ${bodyLimit.toLocaleString('en')} bytes`,
          )
        : status < 500
          ? new ApiError(status, 'PGRST100', error.message)
          : new ApiError(500, 'PGRSTX00', 'Internal server error');
    return reply
      .status(apiError.status)
      .header('content-type', 'application/json; charset=utf-8')
      .send(JSON.stringify(apiError.toBody()));
  });

  const prefixes = new Map<string, string>();
  const prefixOf = (request: FastifyRequest): string => {
    const route = request.routeOptions.url ?? '';
    let prefix = prefixes.get(route);
    if (prefix === undefined) {
      prefix = route.replace(/\/(rpc\/)?:(relation|fn)$/, '');
      prefixes.set(route, prefix);
    }
    return prefix;
  };

  const handler = (kind: 'relation' | 'function') => async (request: FastifyRequest, reply: FastifyReply) => {
    const params = request.params as Record<string, string | undefined>;
    const name = (kind === 'function' ? params.fn : params.relation) ?? '';
    const url = request.raw.url ?? '';
    const q = url.indexOf('?');
    const prefix = prefixOf(request);
    const response = await engine.handle(
      {
        method: request.method,
        target: { kind, name },
        rawQuery: q < 0 ? '' : url.slice(q + 1),
        headers: {
          accept: headerText(request.headers.accept),
          prefer: request.headers.prefer,
          range: headerText(request.headers.range),
          contentType: headerText(request.headers['content-type']),
        },
        body: typeof request.body === 'string' ? request.body : undefined,
        basePath: prefix,
        actingPersonId: opts.actingPerson?.(request),
        checkContext: request,
      },
      (target, action) => opts.authorize(request, target, action),
      (error) => {
        if (opts.onInternalError) opts.onInternalError(error, request);
        else request.log.error({ err: error }, 'data API request failed');
      },
    );
    if (response.headers.location) response.headers.location = `${prefix}${response.headers.location}`;
    if (opts.transformResponseBody && typeof response.body === 'string')
      return send(reply, { ...response, body: opts.transformResponseBody(response.body, request) });
    return send(reply, response);
  };

  app.route({
    method: [...METHODS],
    url: '/rpc/:fn',
    handler: handler('function'),
    exposeHeadRoute: false,
    bodyLimit,
  });
  app.route({
    method: [...METHODS],
    url: '/:relation',
    handler: handler('relation'),
    exposeHeadRoute: false,
    bodyLimit,
  });
  app.route({
    method: [...METHODS],
    url: '/*',
    exposeHeadRoute: false,
    bodyLimit,
    handler: async (_request, reply) =>
      send(reply, {
        status: 404,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify(new ApiError(404, 'PGRST125', 'Invalid path specified in request URL').toBody()),
      }),
  });
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function send(reply: FastifyReply, response: EngineResponse): FastifyReply {
  reply.status(response.status);
  for (const [name, value] of Object.entries(response.headers)) reply.header(name, value);
  if (response.body === null) return reply.send();
  return reply.send(response.body);
}
