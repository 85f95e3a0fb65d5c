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

export interface ApiFetchOptions {
  /** Do not report a 401 to the unauthorized handler: the caller handles "nobody" itself. */
  ignoreUnauthorized?: boolean;
}

/** Pure transport: JSON in, JSON out, errors as ApiError. No toasts or redirects here. */
export async function apiFetch<T>(
  path: string,
  init: RequestInit = {},
  options: ApiFetchOptions = {},
): Promise<T> {
  const method = (init.method ?? 'GET').toUpperCase();
  const csrf = SAFE_METHODS.has(method) ? undefined : readCookie(CSRF_COOKIE);
  const response = await fetch(path, {
    credentials: 'same-origin',
    ...init,
    headers: {
      Accept: 'application/json',
      'Content-Type': 'application/json',
      ...(csrf ? { [CSRF_HEADER]: csrf } : {}),
      ...init.headers,
    },
  });
  const text = await response.text();
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
  return body as T;
}
