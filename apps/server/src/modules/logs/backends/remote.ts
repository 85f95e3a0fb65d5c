import { LogBackendError, type LogBackendContext } from './types.js';

/** How long a remote backend may take to answer one search. */
export const REMOTE_TIMEOUT_MS = 15_000;

export interface RemoteTarget {
  url: string;
  headers: Record<string, string>;
}

/** The backend's address and credentials: its own `url`, or a Connection's url and login. */
export async function remoteTarget(
  spec: Record<string, unknown>,
  key: string,
  context: LogBackendContext,
): Promise<RemoteTarget> {
  const headers: Record<string, string> = {};
  let url = typeof spec.url === 'string' ? spec.url : undefined;
  if (typeof spec.connection === 'string' && spec.connection.trim() !== '') {
    const connection = await context.resolveConnection(spec.connection);
    if (!connection) throw new LogBackendError(`${key}.connection ${spec.connection} was not found`, 422);
    url = url ?? connection.url;
    if (connection.username !== undefined || connection.password !== undefined)
      headers.authorization = `Basic ${Buffer.from(`${connection.username ?? ''}:${connection.password ?? ''}`).toString('base64')}`;
  }
  if (!url) throw new LogBackendError(`${key}.url (or a connection with a url) is required`, 422);
  return { url: url.replace(/\/+$/, ''), headers };
}

/** One HTTP call to a remote backend, with a timeout; its errors become 502s that say who failed. */
export async function remoteJson(
  what: string,
  url: string,
  init: RequestInit,
  signal?: AbortSignal,
): Promise<unknown> {
  const timeout = AbortSignal.timeout(REMOTE_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  } catch (error) {
    throw new LogBackendError(
      `${what} at ${new URL(url).origin} did not answer: ${(error as Error).message}`,
    );
  }
  const text = await response.text();
  if (!response.ok)
    throw new LogBackendError(`${what} answered HTTP ${response.status}: ${text.slice(0, 300)}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new LogBackendError(`${what} answered something that is not JSON`);
  }
}
