import { errorText } from './check-result.js';
import { sanitizeUrl } from './spec-fields.js';
import type { CheckContext } from './types.js';

/** Bodies of API answers larger than this are refused; a check reads summaries, not dumps. */
const MAX_API_BODY_BYTES = 16 * 1024 * 1024;

export interface ApiAnswer {
  status: number;
  body: unknown;
  text: string;
}

/** Thrown for a failed API call; the message is what the check reports. */
export class ApiCallError extends Error {
  override readonly name = 'ApiCallError';
}

/**
 * A JSON API call made by a check (Prometheus, Alertmanager): basic auth when credentials are
 * given, the check's deadline through ctx.signal, and errors worded for the check's result.
 */
export async function callJsonApi(
  url: URL,
  ctx: CheckContext,
  credentials: { username: string; password: string },
  init: { method?: string; body?: unknown } = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': 'opsdeck-health-check',
  };
  if (credentials.username !== '' || credentials.password !== '') {
    headers.authorization = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
  }
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const shown = sanitizeUrl(url.toString());
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: ctx.signal,
      redirect: 'follow',
    });
  } catch (error) {
    if (ctx.signal.aborted) throw new ApiCallError(`request to ${shown} timed out after ${ctx.timeoutMs}ms`);
    const cause = (error as { cause?: unknown }).cause;
    throw new ApiCallError(`request to ${shown} failed: ${errorText(cause ?? error)}`);
  }
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > MAX_API_BODY_BYTES) {
    await response.body?.cancel();
    throw new ApiCallError(`the answer of ${shown} is larger than ${MAX_API_BODY_BYTES} bytes`);
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    if (ctx.signal.aborted) throw new ApiCallError(`request to ${shown} timed out after ${ctx.timeoutMs}ms`);
    throw new ApiCallError(`reading the answer of ${shown} failed: ${errorText(error)}`);
  }
  let body: unknown = undefined;
  if (text.trim() !== '') {
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      body = undefined;
    }
  }
  return { status: response.status, body, text };
}

/** Joins an API path onto a base URL that may itself carry a path prefix (`/prometheus`). */
export function apiUrl(base: string, apiPath: string): URL {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${apiPath}`;
  url.username = '';
  url.password = '';
  return url;
}
