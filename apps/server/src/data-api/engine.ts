/**
 * The data API engine, independent of the HTTP framework: parse → plan (cached by shape) →
 * authorize every relation the plan touches → bind → execute (stage 3) → PostgREST response.
 */
import type pg from 'pg';
import {
  inspectJsonValue,
  MAX_JSON_DEPTH,
  parseJsonWithinLimits,
  type InputProblem,
  type JsonLimits,
} from '../platform/http/json-limits.js';
import type { DataApiAction, DataApiAllowlist } from './allowlist.js';
import type { Catalog, CatalogRelation, SchemaCatalog } from './catalog.js';
import { timestampParameter } from './date-math.js';
import { containmentDocuments } from './json-containment.js';
import { ApiError, fromPgError, fromUnexpectedError, invalidBody, isPgError } from './errors.js';
import { executePlan, type BoundStatement, type ExecutionResult } from './executor.js';
import { parseAccept, parsePreferences, parseQuery, parseQueryString, parseRange } from './parser.js';
import {
  finalizeTemplate,
  planRequest,
  resolveFunction,
  resolveRelation,
  type BodyShape,
  type FinalizedPlan,
  type ParamSource,
  type Plan,
  type PlanRequest,
  type RpcBinding,
} from './planner.js';
import type { AcceptedMedia, ParsedQuery, Preferences } from './query-tree.js';
import { rowFilterShape, rowFilterValues, type RowFilter } from './row-filters.js';

export type DataApiAuthorization =
  { allow: true; rowFilters?: readonly RowFilter[] } | { allow: false; status: 401 | 403; message: string };

export type TargetAuthorizer = (
  target: { relation: string; kind: 'table' | 'view' | 'function' },
  action: DataApiAction,
) => Promise<DataApiAuthorization>;

export interface EngineOptions {
  readonly pool: pg.Pool;
  /**
   * Read-only sessions with the statement timeout set at connect (see `createReadPool`): reads
   * then take one round trip. Without it, reads run in READ ONLY transactions on `pool`.
   */
  readonly readPool?: pg.Pool | null;
  readonly catalog: SchemaCatalog;
  readonly allowlist: DataApiAllowlist;
  readonly maxRows: number;
  readonly statementTimeoutMs: number;
  readonly planCacheSize?: number;
  /** Called with unexpected (5xx) errors, for logging. */
  readonly onInternalError?: (error: unknown) => void;
  /** See `DataApiOptions.checkRow`. */
  readonly checkRow?: RowChecker;
  /** See `DataApiOptions.transformRow`. */
  readonly transformRow?: RowTransformer;
}

/** Rewrites one row a write sets, after it was checked (sealing secrets, say). */
export type RowTransformer = (
  relation: string,
  row: Readonly<Record<string, unknown>>,
) => Record<string, unknown>;

/**
 * Checks one row a POST/PUT/PATCH would write (a PATCH's row holds only the columns it sets);
 * returns the refused fields. The first refuses the request with 400 `23514` before any SQL.
 */
export type RowChecker = (
  relation: string,
  row: Readonly<Record<string, unknown>>,
  context: RowCheckContext,
) => readonly RowIssue[];

/** What a row check knows of the write: its method and the caller's own context. */
export interface RowCheckContext {
  readonly method: 'POST' | 'PATCH' | 'PUT';
  /** `EngineRequest.checkContext`: the caller, as the host app knows it. */
  readonly caller: unknown;
}

/** A refused field; `status: 403` when the caller may not write it (not a bad value). */
export interface RowIssue {
  readonly path: string;
  readonly message: string;
  readonly status?: 403;
}

export type EngineMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface EngineRequest {
  readonly method: string;
  readonly target: { readonly kind: 'relation' | 'function'; readonly name: string };
  /** The query string as received (without '?'), still percent-encoded. */
  readonly rawQuery: string;
  readonly headers: {
    readonly accept?: string;
    readonly prefer?: string | readonly string[];
    readonly range?: string;
    readonly contentType?: string;
  };
  /** The raw request body; undefined when none was sent. */
  readonly body: string | undefined;
  /** Path prefix for Location headers, e.g. '/api/db'. */
  readonly basePath: string;
  /** Set as `opsdeck.person_id` for the duration of a write transaction. */
  readonly actingPersonId?: string;
  /** Handed to the `checkRow` hook (the host app's caller). */
  readonly checkContext?: unknown;
}

export interface EngineResponse {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/** Timing of the parse+plan stage of the last request (for the benchmark). */
export interface StageTimings {
  parsePlanNs: bigint;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const OBJECT_TYPE = 'application/vnd.pgrst.object+json; charset=utf-8';
const CSV_TYPE = 'text/csv; charset=utf-8';

export interface PreparedRequest {
  readonly method: EngineMethod;
  readonly media: AcceptedMedia;
  readonly prefs: Preferences;
  readonly query: ParsedQuery;
  readonly body: PreparedBody | null;
  readonly argsText: string | null;
  readonly plan: Plan;
}

interface PreparedBody {
  /** JSON text bound to the `body` parameter. */
  readonly text: string;
  readonly shape: BodyShape;
  readonly keys: readonly string[];
  readonly isEmptyPatch: boolean;
}

export class DataApiEngine {
  private readonly plans = new Map<string, Plan>();
  private plansVersion = -1;
  private planHits = 0;
  private planMisses = 0;
  private lastInvalidation = 0;
  readonly timings: StageTimings = { parsePlanNs: 0n };

  constructor(readonly options: EngineOptions) {}

  /**
   * Never throws: every failure becomes a PostgREST error response. `onInternalError` receives,
   * for logging, every 5xx: unexpected errors, and the cause of every 503/504 (the database
   * could not be reached, or no pooled connection came in time).
   */
  async handle(
    request: EngineRequest,
    authorize: TargetAuthorizer,
    onInternalError?: (error: unknown) => void,
  ): Promise<EngineResponse> {
    try {
      return await this.handleRequest(request, authorize);
    } catch (error) {
      return this.errorResponse(error, onInternalError);
    }
  }

  errorResponse(error: unknown, onInternalError?: (error: unknown) => void): EngineResponse {
    let apiError: ApiError;
    if (error instanceof ApiError) apiError = error;
    else {
      apiError = isPgError(error) ? fromPgError(error) : fromUnexpectedError(error);
      // Every 5xx (a bug, the database unreachable or out of resources) leaves a log line.
      if (apiError.status >= 500) (onInternalError ?? this.options.onInternalError)?.(error);
    }
    return {
      status: apiError.status,
      headers: { 'content-type': JSON_TYPE, ...apiError.headers },
      body: JSON.stringify(apiError.toBody()),
    };
  }

  /**
   * Stage 1 and 2 without I/O: parse the request and find (or make) its plan. `catalog` is the
   * loaded catalog (`options.catalog.get()`).
   */
  prepare(request: EngineRequest, catalog: Catalog): PreparedRequest {
    const started = process.hrtime.bigint();
    const method = checkMethod(request);
    const media = parseAccept(request.headers.accept);
    const prefs = parsePreferences(request.headers.prefer);
    if (prefs.handling === 'strict' && prefs.invalid.length > 0) {
      throw new ApiError(
        400,
        'PGRST122',
        'Invalid preferences given with handling=strict',
        `Invalid preferences: ${prefs.invalid.join(', ')}`,
      );
    }
    if (catalog.version !== this.plansVersion) {
      this.plans.clear();
      this.plansVersion = catalog.version;
    }
    const { allowlist } = this.options;
    const target = request.target;

    let rpcArgNames: ReadonlySet<string> | null = null;
    let relation: CatalogRelation | null = null;
    if (target.kind === 'relation') {
      relation = resolveRelation(catalog, allowlist, target.name);
    } else {
      const overloads = allowlist.function(target.name) ? (catalog.functions.get(target.name) ?? []) : [];
      if (overloads.length === 0) {
        throw new ApiError(
          404,
          'PGRST202',
          `Could not find the function ${catalog.schema}.${target.name} in the schema cache`,
          `Searched for the function ${catalog.schema}.${target.name}, but no matches were found in the schema cache.`,
        );
      }
      if (method !== 'POST')
        rpcArgNames = new Set(overloads.flatMap((fn) => fn.args.map((a) => a.name)).filter((n) => n !== ''));
    }

    const query = parseQuery(parseQueryString(request.rawQuery), { rpcArgNames });
    const body =
      method === 'POST' || method === 'PATCH' || method === 'PUT'
        ? this.prepareBody(request, method, relation, query)
        : null;

    let rpc: RpcBinding | null = null;
    let argsText: string | null = null;
    if (target.kind === 'function') {
      if (method === 'POST') {
        rpc = bindPostRpc(catalog, allowlist, target.name, request.body);
      } else {
        const names = [...query.rpcArgs.keys()];
        rpc = {
          fn: resolveFunction(catalog, allowlist, target.name, names, false),
          argNames: names,
          wholeBody: false,
        };
        argsText = JSON.stringify(Object.fromEntries(query.rpcArgs));
      }
    }

    const planRequestValue: PlanRequest = {
      method,
      target,
      query,
      prefs,
      media,
      body: body?.shape ?? null,
      rpc,
      maxRows: this.options.maxRows,
    };
    const key = planKey(planRequestValue, body);
    let plan = this.plans.get(key);
    if (plan) {
      // Least recently used goes first: a hit moves the shape to the end of the map's order.
      this.plans.delete(key);
      this.plans.set(key, plan);
      this.planHits++;
    } else {
      plan = planRequest(catalog, allowlist, planRequestValue);
      this.remember(key, plan);
      this.planMisses++;
    }
    this.timings.parsePlanNs = process.hrtime.bigint() - started;
    return { method, media, prefs, query, body, argsText, plan };
  }

  /**
   * The plan cache: shapes held, and how many prepare() calls found (hits) or made (misses) their
   * plan. The cache empties when the catalog's version changes (after migrations / invalidate()).
   */
  planCacheStats(): { size: number; hits: number; misses: number; catalogVersion: number } {
    return {
      size: this.plans.size,
      hits: this.planHits,
      misses: this.planMisses,
      catalogVersion: this.plansVersion,
    };
  }

  /** Everything but execution: the statement (and parameters) a request would run. For tools and benchmarks. */
  async compile(
    request: EngineRequest,
    authorize: TargetAuthorizer,
  ): Promise<{ text: string; values: unknown[] }> {
    const catalog = await this.options.catalog.get();
    const prepared = this.prepare(request, catalog);
    const bound = await this.bind(request, prepared, catalog, authorize);
    return bound.main;
  }

  private async handleRequest(request: EngineRequest, authorize: TargetAuthorizer): Promise<EngineResponse> {
    let catalog = await this.options.catalog.get();
    let prepared: PreparedRequest;
    try {
      prepared = this.prepare(request, catalog);
    } catch (error) {
      // A relation created after the catalog was loaded (a view's table `view_<ns>_<name>`, made
      // at the view's first run): reload the catalog once and plan again.
      if (!(error instanceof ApiError) || !(await this.createdSinceLoad(request, catalog, error.code)))
        throw error;
      catalog = await this.options.catalog.get();
      prepared = this.prepare(request, catalog);
    }
    const { method, media, prefs, body, plan } = prepared;
    if (method === 'PATCH' && body?.isEmptyPatch) {
      // Nothing to write, but the caller must still be allowed to write here.
      await this.authorizeTouched(plan, authorize);
      return this.emptyPatchResponse(prefs, media);
    }
    const bound = await this.bind(request, prepared, catalog, authorize);
    let result: ExecutionResult;
    try {
      result = await executePlan(
        this.options.pool,
        {
          readOnly: plan.readOnly,
          statementTimeoutMs: this.options.statementTimeoutMs,
          main: bound.main,
          plannedCount: bound.plannedCount,
          actingPersonId: request.actingPersonId,
          commitIf: (outcome) => this.commitDecision(plan, outcome, media, prefs),
        },
        this.options.readPool ?? null,
      );
    } catch (error) {
      if (isPgError(error)) this.maybeInvalidate(error.code);
      throw error;
    }
    return this.buildResponse(request, plan, result, bound.paging, media, prefs);
  }

  /** Every (relation, action) the plan touches, decided together (the hook may query the database):
   * throws the first refusal, else returns the row filters to add per relation. */
  private async authorizeTouched(
    plan: PreparedRequest['plan'],
    authorize: TargetAuthorizer,
  ): Promise<Map<string, RowFilter[]>> {
    const rowFilters = new Map<string, RowFilter[]>();
    const decisions = await Promise.all(
      plan.touched.map((touched) =>
        authorize({ relation: touched.relation, kind: touched.kind }, touched.action),
      ),
    );
    plan.touched.forEach((touched, i) => {
      const decision = decisions[i];
      if (!decision.allow) {
        if (!touched.optional) throw new ApiError(decision.status, '42501', decision.message);
        // Read only inside a roll-up the caller may see: none of its rows count.
        const list = rowFilters.get(touched.relation) ?? [];
        list.push({ kind: 'constant', value: false });
        rowFilters.set(touched.relation, list);
        return;
      }
      if (decision.rowFilters && decision.rowFilters.length > 0) {
        const list = rowFilters.get(touched.relation) ?? [];
        list.push(...decision.rowFilters);
        rowFilters.set(touched.relation, list);
      }
    });
    return rowFilters;
  }

  /** Authorization of every relation the plan touches (before any SQL runs), then the bound statements. */
  private async bind(
    request: EngineRequest,
    prepared: PreparedRequest,
    catalog: Catalog,
    authorize: TargetAuthorizer,
  ): Promise<{ main: BoundStatement; plannedCount: BoundStatement | null; paging: Paging }> {
    const { plan, query, body, method, argsText } = prepared;
    const rowFilters = await this.authorizeTouched(plan, authorize);
    const final = finalizePlan(catalog, plan, rowFilters);
    const paging = computePaging(
      query,
      method === 'GET' || method === 'HEAD' ? parseRange(request.headers.range) : null,
      this.options.maxRows,
    );
    const bindContext: BindContext = {
      values: query.values,
      body:
        body?.text ??
        (method === 'POST' && request.target.kind === 'function' ? normalizedRpcBody(request.body) : null),
      args: argsText,
      limit: paging.limit,
      offset: paging.offset,
      rowFilters,
      rowFilterValues: new Map(),
    };
    final.uses++;
    return {
      main: {
        // A shape used again runs as a named prepared statement (parsed and planned once per connection).
        ...(final.uses > 1 && plan.readOnly ? { name: final.name } : {}),
        text: final.main.text,
        values: bindParams(final.main.params, bindContext),
      },
      plannedCount: final.plannedCount
        ? { text: final.plannedCount.text, values: bindParams(final.plannedCount.params, bindContext) }
        : null,
      paging,
    };
  }

  private remember(key: string, plan: Plan): void {
    const limit = Math.max(1, this.options.planCacheSize ?? 2000);
    while (this.plans.size >= limit) {
      // Map order is recency order (hits re-insert): the first key is the least recently used.
      const oldest = this.plans.keys().next().value;
      if (oldest === undefined) break;
      this.plans.delete(oldest);
    }
    this.plans.set(key, plan);
  }

  /** Whether the relation a request names was created after the catalog was loaded (then reloads it). */
  private async createdSinceLoad(request: EngineRequest, catalog: Catalog, code: string): Promise<boolean> {
    if ((code !== '42P01' && code !== '42703') || request.target.kind !== 'relation') return false;
    const name = request.target.name;
    if (this.options.allowlist.relation(name) === null) return false;
    // The live column names (none when the relation does not exist): reload only on a difference.
    const { rows } = await this.options.pool.query<{ columns: string[] | null }>(
      `SELECT array_agg(attname::text ORDER BY attnum) AS columns FROM pg_attribute
        WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped`,
      [`${catalog.schema}.${name}`],
    );
    const live = rows[0]?.columns ?? null;
    if (live === null) return false;
    const known = catalog.relations.get(name)?.columns.map((column) => column.name) ?? null;
    if (known !== null && [...known].sort().join(',') === [...live].sort().join(',')) return false;
    this.options.catalog.invalidate();
    return true;
  }

  /** PostgreSQL says an object the cache believed in is gone: the schema changed under us. */
  private maybeInvalidate(code: string): void {
    if (code !== '42P01' && code !== '42703' && code !== '0A000') return;
    const now = Date.now();
    if (now - this.lastInvalidation < 2000) return;
    this.lastInvalidation = now;
    this.options.catalog.invalidate();
  }

  /** Writes that break the singular Accept, max-affected or a row restriction are rolled back. */
  private commitDecision(
    plan: Plan,
    outcome: { page: number; violations: number },
    media: AcceptedMedia,
    prefs: Preferences,
  ): ApiError | null {
    if (plan.kind === 'read') return null;
    if (outcome.violations > 0) {
      return new ApiError(
        403,
        '42501',
        `new row violates row-level security policy for table "${plan.target}"`,
      );
    }
    if (media.type === 'object' && outcome.page !== 1 && plan.kind !== 'rpc') {
      return singularError(outcome.page);
    }
    if (prefs.handling === 'strict' && prefs.maxAffected !== null && outcome.page > prefs.maxAffected) {
      return new ApiError(
        400,
        'PGRST124',
        'Query result exceeds max-affected preference constraint',
        `The query affects ${outcome.page} rows`,
      );
    }
    return null;
  }

  /** Rows as they would be written (only `keys`), through the `checkRow` hook. */
  private checkRows(
    relation: CatalogRelation,
    rows: readonly Record<string, unknown>[],
    keys: readonly string[],
    context: RowCheckContext,
  ): void {
    const { checkRow } = this.options;
    if (!checkRow) return;
    for (const row of rows) {
      const written = Object.fromEntries(keys.filter((key) => key in row).map((key) => [key, row[key]]));
      const issues = checkRow(relation.name, written, context);
      if (issues.length > 0) {
        const [first] = issues;
        throw new ApiError(
          first.status ?? 400,
          first.status === 403 ? '42501' : '23514',
          `${first.path}: ${first.message}`,
          `field: ${first.path}`,
          issues.length > 1
            ? `Also: ${issues
                .slice(1)
                .map((issue) => `${issue.path}: ${issue.message}`)
                .join('; ')}`
            : null,
        );
      }
    }
  }

  private transformed(relation: CatalogRelation, row: Record<string, unknown>): Record<string, unknown> {
    return this.options.transformRow ? this.options.transformRow(relation.name, row) : row;
  }

  private prepareBody(
    request: EngineRequest,
    method: 'POST' | 'PATCH' | 'PUT',
    relation: CatalogRelation | null,
    query: ParsedQuery,
  ): PreparedBody | null {
    const format = checkContentType(request.headers.contentType);
    if (!relation) {
      if (format === 'csv')
        throw unsupportedBody('text/csv', 'Function arguments are sent as application/json');
      return null; // rpc: the body holds arguments
    }
    const raw = request.body ?? '';
    if (raw.trim() === '') throw invalidBody();
    let parsed: unknown;
    if (format === 'csv') {
      if (method === 'PATCH') throw unsupportedBody('text/csv', 'PATCH takes one JSON object');
      parsed = parseCsvRows(raw);
      checkBodyValues(parsed);
    } else {
      parsed = parseBodyJson(raw);
    }
    if (method === 'PATCH') {
      if (!isPlainObject(parsed)) throw invalidBody('Empty or invalid json', 'PATCH takes one JSON object');
      const keys = query.columns ?? Object.keys(parsed);
      this.checkRows(relation, [parsed], keys, { method, caller: request.checkContext });
      const row = normalizeTimestamps(relation, this.transformed(relation, parsed), keys);
      return {
        text: JSON.stringify(row),
        shape: { columns: keys, rows: 1 },
        keys,
        isEmptyPatch: keys.length === 0,
      };
    }
    const rows: Record<string, unknown>[] = Array.isArray(parsed)
      ? parsed
      : [parsed as Record<string, unknown>];
    if (!rows.every(isPlainObject))
      throw invalidBody('Empty or invalid json', 'Insert takes a JSON object or an array of objects');
    let keys: readonly string[];
    if (query.columns) {
      keys = query.columns;
    } else {
      keys = rows.length > 0 ? Object.keys(rows[0]) : [];
      const expected = [...keys].sort().join('\u0001');
      for (const row of rows) {
        if (Object.keys(row).sort().join('\u0001') !== expected)
          throw invalidBody('All object keys must match');
      }
    }
    if (method === 'PUT') checkPutKeys(relation, query, rows);
    this.checkRows(relation, rows, keys, { method, caller: request.checkContext });
    const normalized = rows.map((row) =>
      normalizeTimestamps(relation, this.transformed(relation, row), keys),
    );
    return {
      text: JSON.stringify(normalized),
      shape: { columns: keys, rows: rows.length },
      keys,
      isEmptyPatch: false,
    };
  }

  private emptyPatchResponse(prefs: Preferences, media: AcceptedMedia): EngineResponse {
    const headers: Record<string, string> = {};
    if (prefs.applied.length > 0) headers['preference-applied'] = prefs.applied.join(', ');
    if (media.type === 'object') throw singularError(0);
    if (prefs.return === 'representation') {
      headers['content-type'] = JSON_TYPE;
      headers['content-range'] = '*/*';
      return { status: 200, headers, body: '[]' };
    }
    headers['content-range'] = '*/*';
    return { status: 204, headers, body: null };
  }

  private buildResponse(
    request: EngineRequest,
    plan: Plan,
    result: ExecutionResult,
    paging: Paging,
    media: AcceptedMedia,
    prefs: Preferences,
  ): EngineResponse {
    const headers: Record<string, string> = {};
    // Reads apply only the count preference; clients send return=representation on every call.
    const applied =
      plan.kind === 'read' || plan.kind === 'rpc'
        ? prefs.applied.filter((p) => p.startsWith('count='))
        : prefs.applied;
    if (applied.length > 0) headers['preference-applied'] = applied.join(', ');
    const total =
      prefs.count === 'planned'
        ? result.plannedTotal
        : prefs.count === 'estimated'
          ? estimatedTotal(result, this.options.maxRows)
          : prefs.count === 'exact'
            ? result.total
            : null;
    const isHead = request.method === 'HEAD';

    if (plan.kind === 'read' || (plan.kind === 'rpc' && plan.result === 'rows')) {
      const lower = paging.offset;
      const upper = lower + result.page - 1;
      if (total !== null && lower > total && !(lower === 0 && total === 0)) {
        throw new ApiError(
          416,
          'PGRST103',
          'Requested range not satisfiable',
          `An offset of ${lower} was requested, but there are only ${total} rows.`,
          null,
          {
            'content-range': `*/${total}`,
          },
        );
      }
      headers['content-range'] = contentRange(lower, upper, total);
      let status = total !== null && 1 + upper - lower < total ? 206 : 200;
      if (media.type === 'object') {
        if (result.page !== 1) throw singularError(result.page);
        status = 200;
        headers['content-type'] = OBJECT_TYPE;
        return { status, headers, body: isHead ? null : unwrapSingle(result.body) };
      }
      if (media.type === 'csv') {
        headers['content-type'] = CSV_TYPE;
        return { status, headers, body: isHead ? null : toCsv(result.body ?? '[]', plan.outputKeys) };
      }
      headers['content-type'] = JSON_TYPE;
      return { status, headers, body: isHead ? null : (result.body ?? '[]') };
    }

    if (plan.kind === 'rpc') {
      if (plan.result === 'void') return { status: 204, headers, body: null };
      headers['content-type'] = plan.result === 'single' && media.type === 'object' ? OBJECT_TYPE : JSON_TYPE;
      if (plan.result === 'single') {
        return {
          status: 200,
          headers,
          body: isHead ? null : result.page === 0 ? 'null' : unwrapSingle(result.body),
        };
      }
      return { status: 200, headers, body: isHead ? null : (result.body ?? 'null') };
    }

    // writes
    const affected = result.page;
    const countedTotal = prefs.count ? affected : null;
    if (plan.kind === 'insert' || plan.kind === 'put') {
      headers['content-range'] = `*/${countedTotal ?? '*'}`;
      if (prefs.return === 'headers-only' && result.location) {
        const values = JSON.parse(result.location) as unknown[];
        const filters = plan.locationColumns.map(
          (c, i) => `${encodeURIComponent(c)}=eq.${encodeURIComponent(String(values[i]))}`,
        );
        headers.location = `/${encodeURIComponent(plan.target)}?${filters.join('&')}`;
      }
    } else {
      headers['content-range'] = contentRange(0, affected - 1, countedTotal);
    }
    const status = plan.kind === 'insert' ? 201 : prefs.return === 'representation' ? 200 : 204;
    if (prefs.return === 'representation') {
      if (media.type === 'object') {
        headers['content-type'] = OBJECT_TYPE;
        return { status, headers, body: unwrapSingle(result.body) };
      }
      if (media.type === 'csv') {
        headers['content-type'] = CSV_TYPE;
        return { status, headers, body: toCsv(result.body ?? '[]', plan.outputKeys) };
      }
      headers['content-type'] = JSON_TYPE;
      return { status, headers, body: result.body ?? '[]' };
    }
    return { status, headers, body: null };
  }
}

// ---------------------------------------------------------------------------------------------

function checkMethod(request: EngineRequest): EngineMethod {
  const method = request.method.toUpperCase();
  if (request.target.kind === 'function') {
    if (method === 'GET' || method === 'HEAD' || method === 'POST') return method;
    throw new ApiError(405, 'PGRST101', 'Only GET, HEAD and POST are allowed for functions');
  }
  if (
    method === 'GET' ||
    method === 'HEAD' ||
    method === 'POST' ||
    method === 'PUT' ||
    method === 'PATCH' ||
    method === 'DELETE'
  )
    return method;
  throw new ApiError(405, 'PGRST117', `Unsupported HTTP method: ${method}`);
}

function checkContentType(contentType: string | undefined): 'json' | 'csv' {
  if (!contentType) return 'json';
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (
    type === 'application/json' ||
    type === 'application/vnd.pgrst.object+json' ||
    type === 'application/vnd.pgrst.object' ||
    type === ''
  )
    return 'json';
  if (type === 'text/csv') return 'csv';
  throw unsupportedBody(type, 'Send the body as application/json (or text/csv for inserts)');
}

function unsupportedBody(type: string, hint: string): ApiError {
  return new ApiError(415, 'PGRST107', `Content-Type not acceptable: ${type}`, null, hint);
}

/**
 * A CSV body (RFC 4180: quoted fields, doubled quotes, CRLF or LF): the first line names the
 * columns; an unquoted NULL is SQL NULL, every other field is text that PostgreSQL parses into the
 * column's type, as PostgREST does.
 */
export function parseCsvRows(text: string): Record<string, unknown>[] {
  const records: Array<Array<string | null>> = [];
  let record: Array<string | null> = [];
  let field = '';
  let quoted = false;
  let wasQuoted = false;
  let i = 0;
  const endField = (): void => {
    record.push(!wasQuoted && field === 'NULL' ? null : field);
    field = '';
    wasQuoted = false;
  };
  const endRecord = (): void => {
    endField();
    if (!(record.length === 1 && record[0] === '')) records.push(record);
    record = [];
  };
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === '') {
      quoted = true;
      wasQuoted = true;
      i++;
    } else if (ch === ',') {
      endField();
      i++;
    } else if (ch === '\r' || ch === '\n') {
      endRecord();
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      field += ch;
      i++;
    }
  }
  if (quoted) throw invalidBody('Invalid CSV', 'A quoted field is not closed');
  if (field !== '' || wasQuoted || record.length > 0) endRecord();
  if (records.length === 0) throw invalidBody('Invalid CSV', 'The first line must name the columns');
  const [header, ...rows] = records;
  if (header.some((name) => name === null || name === '')) {
    throw invalidBody('Invalid CSV', 'Every column of the header line needs a name');
  }
  return rows.map((values, index) => {
    if (values.length !== header.length) {
      throw invalidBody(
        'Invalid CSV',
        `Line ${index + 2} has ${values.length} fields; the header names ${header.length} columns`,
      );
    }
    return Object.fromEntries(header.map((name, j) => [name as string, values[j]]));
  });
}

/** PUT: the payload's primary-key values must be the ones the URL filters on (PGRST115). */
function checkPutKeys(
  relation: CatalogRelation,
  query: ParsedQuery,
  rows: readonly Record<string, unknown>[],
): void {
  if (rows.length !== 1) throw new ApiError(400, 'PGRST102', 'PUT payload must contain a single row');
  const row = rows[0];
  for (const condition of query.scopes.get('')?.conditions ?? []) {
    if (condition.kind !== 'filter' || condition.predicate.kind !== 'op') continue;
    const column = condition.field.column;
    if (!relation.primaryKey.includes(column)) continue;
    const expected = String(query.values[condition.predicate.value.slot]);
    const given = row[column];
    if (given === undefined || given === null || String(given) !== expected) {
      throw new ApiError(400, 'PGRST115', 'Payload values do not match URL in primary key column(s)');
    }
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const NOW_CALL = /^\s*now\(\)\s*$/i;

/** `"now()"` on a timestamp/date column means the transaction time: PostgreSQL's input is 'now'. */
function normalizeTimestamps(
  relation: CatalogRelation,
  row: Record<string, unknown>,
  keys: readonly string[],
): Record<string, unknown> {
  let copy: Record<string, unknown> | null = null;
  for (const key of keys) {
    const value = row[key];
    if (typeof value !== 'string' || !NOW_CALL.test(value)) continue;
    const column = relation.columnByName.get(key);
    if (!column || column.category !== 'datetime') continue;
    copy ??= { ...row };
    copy[key] = 'now';
  }
  return copy ?? row;
}

/** Limits of a write's body: bulk inserts may hold many more values than other API bodies. */
const BODY_LIMITS: JsonLimits = { maxDepth: MAX_JSON_DEPTH, maxValues: 1_000_000 };

function bodyLimitError(problem: InputProblem): ApiError {
  return invalidBody(problem.message, problem.field ? `field: ${problem.field}` : null);
}

/** A JSON body within the depth, value-count and NUL limits (400 PGRST102 naming the limit). */
function parseBodyJson(text: string): unknown {
  const parsed = parseJsonWithinLimits(text, BODY_LIMITS);
  if (parsed.ok) return parsed.value;
  throw parsed.problem ? bodyLimitError(parsed.problem) : invalidBody();
}

/** CSV rows are checked for NUL characters like JSON ones (JSON bodies were when parsed). */
function checkBodyValues(parsed: unknown): void {
  const problem = inspectJsonValue(parsed, BODY_LIMITS);
  if (problem) throw bodyLimitError(problem);
}

function bindPostRpc(
  catalog: Catalog,
  allowlist: DataApiAllowlist,
  name: string,
  raw: string | undefined,
): RpcBinding {
  const text = raw ?? '';
  let parsed: unknown = {};
  if (text.trim() !== '') parsed = parseBodyJson(text);
  if (isPlainObject(parsed)) {
    const names = Object.keys(parsed);
    try {
      return {
        fn: resolveFunction(catalog, allowlist, name, names, false),
        argNames: names,
        wholeBody: false,
      };
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'PGRST202') throw error;
      try {
        return { fn: resolveFunction(catalog, allowlist, name, [], true), argNames: [], wholeBody: true };
      } catch {
        throw error;
      }
    }
  }
  return { fn: resolveFunction(catalog, allowlist, name, [], true), argNames: [], wholeBody: true };
}

function normalizedRpcBody(raw: string | undefined): string {
  return raw && raw.trim() !== '' ? raw : '{}';
}

function planKey(request: PlanRequest, body: PreparedBody | null): string {
  const p = request.prefs;
  return [
    request.method,
    `${request.target.kind}:${request.target.name}`,
    `${request.media.type}${request.media.stripNulls ? '!' : ''}`,
    p.return ?? '',
    p.count ?? '',
    p.resolution ?? '',
    p.missing ?? '',
    body ? body.keys.join(',') : '',
    request.rpc
      ? `${request.rpc.fn.oid}:${request.rpc.wholeBody ? '*' : request.rpc.argNames.join(',')}`
      : '',
    request.query.shape,
  ].join('\u0002');
}

/** Row-restriction shapes (distinct scopes of users) kept per plan. */
const FINALIZED_PER_PLAN = 64;

/** Process-wide, so that engines sharing a connection never give two statements one name. */
let statementCounter = 0;

function finalizePlan(
  catalog: Catalog,
  plan: Plan,
  rowFilters: ReadonlyMap<string, readonly RowFilter[]>,
): FinalizedPlan {
  let key = '';
  for (const [relation, filters] of rowFilters) key += `${relation}:${rowFilterShape(filters)};`;
  let final = plan.finalized.get(key);
  if (final) {
    // Recency order, as for plans: the least recently used restriction shape is evicted first.
    plan.finalized.delete(key);
    plan.finalized.set(key, final);
    return final;
  }
  final = {
    main: finalizeTemplate(catalog, plan.main, rowFilters),
    plannedCount: plan.plannedCount ? finalizeTemplate(catalog, plan.plannedCount, rowFilters) : null,
    name: `dapi_${++statementCounter}`,
    uses: 0,
  };
  if (plan.finalized.size >= FINALIZED_PER_PLAN) {
    const oldest = plan.finalized.keys().next().value;
    if (oldest !== undefined) plan.finalized.delete(oldest);
  }
  plan.finalized.set(key, final);
  return final;
}

interface Paging {
  readonly limit: number;
  readonly offset: number;
}

/** limit/offset parameters intersected with the Range header, capped at maxRows. */
function computePaging(
  query: ParsedQuery,
  range: { from: number; to: number | null } | null,
  maxRows: number,
): Paging {
  const paramLower = query.offset ?? 0;
  const paramUpper = query.limit !== null ? paramLower + query.limit - 1 : Infinity;
  const headerLower = range?.from ?? 0;
  const headerUpper = range?.to ?? Infinity;
  const lower = Math.max(paramLower, headerLower);
  const upper = Math.min(paramUpper, headerUpper);
  const count = upper === Infinity ? maxRows : Math.max(0, Math.min(upper - lower + 1, maxRows));
  return { limit: count, offset: lower };
}

interface BindContext {
  readonly values: ParsedQuery['values'];
  readonly body: string | null;
  readonly args: string | null;
  readonly limit: number;
  readonly offset: number;
  readonly rowFilters: ReadonlyMap<string, readonly RowFilter[]>;
  readonly rowFilterValues: Map<string, unknown[]>;
}

function bindParams(sources: readonly ParamSource[], ctx: BindContext): unknown[] {
  const out = new Array<unknown>(sources.length);
  const now = new Date();
  for (let i = 0; i < sources.length; i++) {
    const source = sources[i];
    switch (source.kind) {
      case 'value':
        out[i] = ctx.values[source.slot];
        break;
      case 'timestamp':
        out[i] = timestampParameter(String(ctx.values[source.slot]), now);
        break;
      case 'containment': {
        const value = ctx.values[source.slot];
        const values = Array.isArray(value) ? value.map(String) : [String(value)];
        out[i] = containmentDocuments(source.path, values);
        break;
      }
      case 'const':
        out[i] = source.value;
        break;
      case 'body':
        out[i] = ctx.body ?? '{}';
        break;
      case 'args':
        out[i] = ctx.args ?? '{}';
        break;
      case 'limit':
        out[i] = ctx.limit;
        break;
      case 'offset':
        out[i] = ctx.offset;
        break;
      case 'rowFilter': {
        let values = ctx.rowFilterValues.get(source.relation);
        if (!values) {
          values = rowFilterValues(ctx.rowFilters.get(source.relation) ?? []);
          ctx.rowFilterValues.set(source.relation, values);
        }
        const value = values[source.index];
        out[i] =
          source.convert === 'json'
            ? JSON.stringify(value)
            : source.convert === 'array' && Array.isArray(value)
              ? value.map((v) => String(v))
              : value;
        break;
      }
    }
  }
  return out;
}

function contentRange(lower: number, upper: number, total: number | null): string {
  const range = total !== 0 && lower <= upper ? `${lower}-${upper}` : '*';
  return `${range}/${total ?? '*'}`;
}

function estimatedTotal(result: ExecutionResult, maxRows: number): number | null {
  if (result.total !== null && result.total <= maxRows) return result.total;
  return result.plannedTotal ?? result.total;
}

export function singularError(rows: number): ApiError {
  return new ApiError(
    406,
    'PGRST116',
    'JSON object requested, multiple (or no) rows returned',
    `The result contains ${rows} rows`,
  );
}

function unwrapSingle(body: string | null): string {
  if (!body) return 'null';
  // json_agg of one row: "[" + row + "]".
  return body.startsWith('[') && body.endsWith(']') ? body.slice(1, -1) : body;
}

function toCsv(jsonBody: string, keys: readonly string[]): string {
  const rows = JSON.parse(jsonBody) as Array<Record<string, unknown>>;
  const header = rows.length > 0 ? Object.keys(rows[0]) : [...keys];
  const cell = (value: unknown): string => {
    if (value === null || value === undefined) return '';
    const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
    return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return [header.map(cell).join(','), ...rows.map((row) => header.map((k) => cell(row[k])).join(','))].join(
    '\n',
  );
}
