import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkSummaryResponseSchema } from '@opsdeck/contracts';
import { connectivityMessage, TIMEOUT_MESSAGE } from '../app/request-errors';
import { toastErrorMessage } from '../components/toasts/toasts';
import {
  ApiError,
  apiFetch,
  ApiResponseError,
  ApiTimeoutError,
  DEFAULT_API_TIMEOUT_MS,
  readCookie,
  setUnauthorizedHandler,
} from './api-client';

function stubFetch(status: number, body: unknown) {
  const spy = vi.fn(
    async (_input: RequestInfo | URL, _init?: RequestInit) =>
      new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', spy);
  return spy;
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.cookie = 'opsdeck_csrf=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
});

describe('apiFetch', () => {
  it('sends the CSRF cookie as X-CSRF-Token on state-changing requests only', async () => {
    document.cookie = 'opsdeck_csrf=token%2Fvalue; path=/';
    const spy = stubFetch(200, { ok: true });
    await apiFetch('/api/x', { method: 'POST', body: '{}' });
    await apiFetch('/api/x');
    const [, post] = spy.mock.calls[0] ?? [];
    const [, get] = spy.mock.calls[1] ?? [];
    expect((post?.headers as Record<string, string>)['X-CSRF-Token']).toBe('token/value');
    expect((get?.headers as Record<string, string>)['X-CSRF-Token']).toBeUndefined();
  });

  it('reports a 401 to the registered handler unless the caller handles it', async () => {
    stubFetch(401, { error: 'Unauthorized' });
    const handler = vi.fn();
    const remove = setUnauthorizedHandler(handler);
    await expect(apiFetch('/api/x')).rejects.toBeInstanceOf(ApiError);
    expect(handler).toHaveBeenCalledTimes(1);
    await expect(apiFetch('/api/x', {}, { ignoreUnauthorized: true })).rejects.toMatchObject({ status: 401 });
    expect(handler).toHaveBeenCalledTimes(1);
    remove();
    await expect(apiFetch('/api/x')).rejects.toMatchObject({ message: 'Unauthorized' });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('takes the message of an identity flow error', async () => {
    stubFetch(410, { error: { id: 'self_service_flow_expired', status: 410, message: 'expired!' } });
    await expect(apiFetch('/api/x', {}, { ignoreUnauthorized: true })).rejects.toMatchObject({
      status: 410,
      message: 'expired!',
    });
  });

  it('parses a body with its schema, dropping keys the schema does not name', async () => {
    const check = {
      id: 'c1',
      name: 'home',
      description: null,
      endpoint: null,
      canary_name: 'web',
      canary_id: 'k1',
      canary_namespace: 'default',
      owner: null,
      severity: null,
      created_at: '2026-11-27T09:00:00.000Z',
      updated_at: null,
      type: 'http',
      icon: null,
      namespace: null,
      labels: {},
      agent_id: '00000000-0000-0000-0000-000000000000',
      status: 'unhealthy',
      uptime: { passed: 1, failed: 2 },
      latency: { p95: 12 },
      last_runtime: '2026-11-27T10:00:00.000Z',
      last_transition_time: null,
      deleted_at: null,
    };
    stubFetch(200, { duration: 1, runnerName: 'host', checks_summary: [{ ...check, extra: true }] });
    const body = await apiFetch('/api/canary/api/summary', {}, { schema: checkSummaryResponseSchema });
    expect(body.checks_summary).toEqual([check]);
  });

  it('rejects a body that drifted from its schema with an error naming the request and the field', async () => {
    stubFetch(200, {
      duration: 1,
      runnerName: 'host',
      checks_summary: [{ id: 'c1', name: 'home', status: 'ok' }],
    });
    const error = await apiFetch(
      '/api/canary/api/summary?start=1h',
      {},
      { schema: checkSummaryResponseSchema },
    ).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ApiResponseError);
    const drifted = error as ApiResponseError;
    expect(drifted.path).toBe('/api/canary/api/summary?start=1h');
    expect(drifted.message).toMatch(
      /^Unexpected response from \/api\/canary\/api\/summary\?start=1h: checks_summary\[0\]\.\w+: .+ \(and \d+ more\)$/,
    );
    expect(drifted.issues.map((issue) => issue.path)).toContain('checks_summary[0].status');
  });

  it('keeps the first 20 differences of a list that drifted row by row, and counts them all', async () => {
    stubFetch(200, { duration: 1, runnerName: 'host', checks_summary: [{}, {}, {}, {}, {}] });
    const error: unknown = await apiFetch('/api/x', {}, { schema: checkSummaryResponseSchema }).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    if (!(error instanceof ApiResponseError))
      throw new Error(`expected an ApiResponseError, got ${String(error)}`);
    expect(error.issues).toHaveLength(20);
    expect(error.issueCount).toBe(5 * 22);
    expect(error.message).toContain('(and 109 more)');
  });

  it('reads one cookie out of many', () => {
    expect(readCookie('b', 'a=1; b=two%20words; c=3')).toBe('two words');
    expect(readCookie('d', 'a=1')).toBeUndefined();
  });
});

describe('apiFetch timeout', () => {
  // fetch as browsers implement it, for a server that answers at once, stalls half way through
  // its body, or never answers: aborting the request's signal rejects the pending answer or body
  // read with the signal's reason.
  const origin = 'http://api.test';
  function stubServer() {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string, init?: RequestInit) => {
        const signal = init?.signal;
        const aborted = () =>
          new Promise<never>((_, reject) => {
            if (signal?.aborted) reject(signal.reason as Error);
            signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
          });
        if (input.endsWith('/fast')) return new Response('{"ok":true}', { status: 200 });
        if (input.endsWith('/stall-body')) {
          const body = new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"partial":'));
              void aborted().catch((reason: unknown) => controller.error(reason));
            },
          });
          return new Response(body, { status: 200 });
        }
        return aborted();
      }),
    );
  }

  it('gives up on a server that never answers, naming the request, with the spec toast text', async () => {
    stubServer();
    const error = await apiFetch(`${origin}/never`, {}, { timeoutMs: 200 }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect(error).toBeInstanceOf(DOMException);
    expect(error).toMatchObject({
      name: 'TimeoutError',
      message: `GET ${origin}/never did not answer within 0.2 s`,
      timeoutMs: 200,
    });
    // What the app shows for it: the connectivity toast, and the same text through the generic rule.
    expect(connectivityMessage(error, false)).toBe(TIMEOUT_MESSAGE);
    expect(toastErrorMessage(error)).toBe('Request timed out. Please try again.');
  });

  it('times out a body that stops half way', async () => {
    stubServer();
    await expect(apiFetch(`${origin}/stall-body`, {}, { timeoutMs: 200 })).rejects.toMatchObject({
      name: 'TimeoutError',
      message: `GET ${origin}/stall-body did not answer within 0.2 s`,
    });
  });

  it("answers within the limit as usual, and the caller's own abort is not a timeout", async () => {
    stubServer();
    await expect(apiFetch(`${origin}/fast`, {}, { timeoutMs: 5_000 })).resolves.toEqual({ ok: true });
    const controller = new AbortController();
    const pending = apiFetch(`${origin}/never`, { signal: controller.signal }, { timeoutMs: 5_000 });
    controller.abort();
    const error = await pending.catch((caught: unknown) => caught);
    expect(error).not.toBeInstanceOf(ApiTimeoutError);
    expect((error as Error).name).toBe('AbortError');
    expect(connectivityMessage(error, false)).toBeUndefined();
  });

  it('waits without limit when the call says 0, and defaults to a minute', async () => {
    stubServer();
    expect(DEFAULT_API_TIMEOUT_MS).toBe(60_000);
    await expect(apiFetch(`${origin}/fast`, {}, { timeoutMs: 0 })).resolves.toEqual({ ok: true });
    vi.useFakeTimers();
    try {
      const pending = apiFetch(`${origin}/never`).catch((caught: unknown) => caught);
      await vi.advanceTimersByTimeAsync(59_999);
      const early = await Promise.race([pending, Promise.resolve('pending')]);
      expect(early).toBe('pending');
      await vi.advanceTimersByTimeAsync(1);
      expect(await pending).toMatchObject({ message: `GET ${origin}/never did not answer within 60 s` });
    } finally {
      vi.useRealTimers();
    }
  });
});
