import { ActionFailure, type PlaybookActionType } from './types.js';
import { openConnection } from './connections.js';

/** Response bodies kept in the result. */
const BODY_LIMIT = 256 * 1024;

/**
 * `http`: one request (method, headers, body/templateBody, basic auth, or a connection's URL and
 * credentials). A status of 400 and above fails the action; the body is kept in the result.
 */
export const httpAction: PlaybookActionType = {
  type: 'http',
  async run(spec, context) {
    const connection = await openConnection(spec, context);
    const url = (typeof spec.url === 'string' && spec.url !== '' ? spec.url : connection?.url) ?? '';
    if (url === '') throw new ActionFailure('http: url or connection is required');
    const method = typeof spec.method === 'string' && spec.method !== '' ? spec.method.toUpperCase() : 'GET';
    const headers = new Headers();
    const list = spec.headers;
    if (Array.isArray(list)) {
      for (const header of list as { name?: unknown; value?: unknown }[]) {
        if (typeof header?.name === 'string') headers.set(header.name, String(header.value ?? ''));
      }
    } else if (list && typeof list === 'object') {
      for (const [name, value] of Object.entries(list)) headers.set(name, String(value));
    }
    const username = (spec.username as string | undefined) ?? connection?.username;
    const password = (spec.password as string | undefined) ?? connection?.password;
    if (username && !headers.has('authorization')) {
      headers.set(
        'authorization',
        `Basic ${Buffer.from(`${username}:${password ?? ''}`).toString('base64')}`,
      );
    }
    const body =
      typeof spec.templateBody === 'string'
        ? spec.templateBody
        : typeof spec.body === 'string'
          ? spec.body
          : spec.body !== undefined
            ? JSON.stringify(spec.body)
            : undefined;
    const signal = AbortSignal.any([context.signal, AbortSignal.timeout(context.timeoutMs)]);
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: method === 'GET' || method === 'HEAD' ? undefined : body,
        signal,
      });
    } catch (error) {
      const reason = signal.aborted ? String(signal.reason ?? 'aborted') : (error as Error).message;
      throw new ActionFailure(`http: ${method} ${new URL(url).origin}: ${reason}`);
    }
    const text = (await response.text()).slice(0, BODY_LIMIT);
    const responseHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => (responseHeaders[name] = value));
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const result = {
      code: response.status,
      headers: responseHeaders,
      body: text,
      ...(json === undefined ? {} : { json }),
    };
    if (response.status >= 400)
      throw new ActionFailure(`http: ${method} answered ${response.status}`, { result });
    return { result };
  },
};
