/** Error of a non-2xx API answer, with the server's JSON body when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

function messageOf(body: unknown, status: number): string {
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    if (typeof record.error === 'string') return record.error;
    if (typeof record.message === 'string') return record.message;
    // identity flow errors: {error: {id, code, status, message}}
    if (record.error && typeof record.error === 'object') {
      const nested = record.error as Record<string, unknown>;
      if (typeof nested.message === 'string') return nested.message;
    }
  }
  if (typeof body === 'string' && body) return body;
  return `HTTP ${status}`;
}

/** Readable cookie the server sets for the double-submit CSRF check of cookie sessions. */
export const CSRF_COOKIE = 'opsdeck_csrf';
export const CSRF_HEADER = 'X-CSRF-Token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function readCookie(
  name: string,
  cookies: string = globalThis.document?.cookie ?? '',
): string | undefined {
  for (const part of cookies.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) {
      const value = rest.join('=');
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    }
  }
  return undefined;
}

type UnauthorizedHandler = (error: ApiError) => void;
let unauthorizedHandler: UnauthorizedHandler | undefined;

/**
 * Lets the app decide what a 401 means (normally: go to the login screen). The transport only
 * reports it; returns a function that removes the handler again.
 */
export function setUnauthorizedHandler(handler: UnauthorizedHandler | undefined): () => void {
  unauthorizedHandler = handler;
  return () => {
    if (unauthorizedHandler === handler) unauthorizedHandler = undefined;
  };
}

/**
 * A 2xx answer whose body does not have the shape its schema says: the server and the web app
 * disagree about the API (a contract in `@opsdeck/contracts` drifted from what the server sends).
 */
export class ApiResponseError extends Error {
  constructor(
    /** The request path, with its query. */
    readonly path: string,
    /** Where in the body the first differences are (`checks_summary[3].status`) and what they are. */
    readonly issues: readonly { path: string; message: string }[],
    /** How many differences there are in all. */
    readonly issueCount: number,
    readonly body: unknown,
  ) {
    const [first] = issues;
    const more = issueCount > 1 ? ` (and ${issueCount - 1} more)` : '';
    super(
      `Unexpected response from ${path}: ${first?.path || '(body)'}: ${first?.message ?? 'invalid'}${more}`,
    );
    this.name = 'ApiResponseError';
  }
}

/** How many differences an ApiResponseError keeps. */
const MAX_REPORTED_ISSUES = 20;

/** What apiFetch needs of a response schema; every zod schema of `@opsdeck/contracts` is one. */
export interface ResponseSchema<T> {
  safeParse(
    data: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/** How long a request may take before apiFetch gives up on it, unless the call says otherwise. */
export const DEFAULT_API_TIMEOUT_MS = 60_000;

/** The toast text of a timeout (spec core §8). */
export const REQUEST_TIMEOUT_TEXT = 'Request timed out. Please try again.';

/**
 * A request that got no complete answer in time. A `DOMException` named `TimeoutError` (what
 * `AbortSignal.timeout` raises), so the app's request-error handling shows the timeout toast; its
 * message names the request, and its `body` carries the toast text for the generic error toast.
 */
export class ApiTimeoutError extends DOMException {
  readonly body: { error: string };
  constructor(
    readonly method: string,
    readonly path: string,
    readonly timeoutMs: number,
  ) {
    super(`${method} ${path} did not answer within ${formatSeconds(timeoutMs)}`, 'TimeoutError');
    this.body = { error: REQUEST_TIMEOUT_TEXT };
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * A signal that aborts when the caller's does, or after `timeoutMs`; `timedOut()` tells which.
 * `release` clears the timer once the answer is read.
 */
function timeoutSignal(outer: AbortSignal | null | undefined, timeoutMs: number) {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) controller.abort(outer.reason);
  else outer?.addEventListener('abort', onAbort, { once: true });
  const timer =
    timeoutMs > 0
      ? setTimeout(() => {
          timedOut = true;
          controller.abort(new DOMException('timed out', 'TimeoutError'));
        }, timeoutMs)
      : undefined;
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    release() {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
}

export interface ApiFetchOptions<T = unknown> {
  /**
   * Milliseconds before the request is given up with ApiTimeoutError (the caller's own
   * `init.signal` still aborts it earlier). 0 waits without limit. Default DEFAULT_API_TIMEOUT_MS.
   */
  timeoutMs?: number;
  /** Do not report a 401 to the unauthorized handler: the caller handles "nobody" itself. */
  ignoreUnauthorized?: boolean;
  /**
   * Parses a 2xx body with this schema and resolves to what it returns (unknown keys dropped);
   * a body that does not fit rejects with ApiResponseError. Default: the body is returned as is.
   */
  schema?: ResponseSchema<T>;
}

/** `checks_summary[3].latency.p95` for the path [checks_summary, 3, latency, p95]. */
function formatIssuePath(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

/** Pure transport: JSON in, JSON out, errors as ApiError. No toasts or redirects here. */
export async function apiFetch<T>(
  path: string,
  init: RequestInit = {},
  options: ApiFetchOptions<T> = {},
): Promise<T> {
  const method = (init.method ?? 'GET').toUpperCase();
  const csrf = SAFE_METHODS.has(method) ? undefined : readCookie(CSRF_COOKIE);
  const timeoutMs = options.timeoutMs ?? DEFAULT_API_TIMEOUT_MS;
  const limit = timeoutSignal(init.signal, timeoutMs);
  let response: Response;
  let text: string;
  try {
    response = await fetch(path, {
      credentials: 'same-origin',
      ...init,
      signal: limit.signal,
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        ...(csrf ? { [CSRF_HEADER]: csrf } : {}),
        ...init.headers,
      },
    });
    // The body is part of the answer: a server that stalls while sending it times out too.
    text = await response.text();
  } catch (error) {
    if (limit.timedOut()) throw new ApiTimeoutError(method, path, timeoutMs);
    throw error;
  } finally {
    limit.release();
  }
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  if (!response.ok) {
    const error = new ApiError(response.status, messageOf(body, response.status), body);
    if (response.status === 401 && !options.ignoreUnauthorized) unauthorizedHandler?.(error);
    throw error;
  }
  if (!options.schema) return body as T;
  return parseResponse(path, body, options.schema);
}

/** The body parsed with its response schema, or ApiResponseError naming the first fields that drifted. */
export function parseResponse<T>(path: string, body: unknown, schema: ResponseSchema<T>): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const { issues } = parsed.error;
  throw new ApiResponseError(
    path,
    // A list whose every row drifted has issues by the thousand: the first ones say enough.
    issues
      .slice(0, MAX_REPORTED_ISSUES)
      .map((issue) => ({ path: formatIssuePath(issue.path), message: issue.message })),
    issues.length,
    body,
  );
}
