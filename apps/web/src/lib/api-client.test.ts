import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkSummaryResponseSchema } from '@opsdeck/contracts';
import { ApiError, apiFetch, ApiResponseError, readCookie, setUnauthorizedHandler } from './api-client';

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
