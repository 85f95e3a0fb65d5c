import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiFetch, readCookie, setUnauthorizedHandler } from './api-client';

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

  it('reads one cookie out of many', () => {
    expect(readCookie('b', 'a=1; b=two%20words; c=3')).toBe('two words');
    expect(readCookie('d', 'a=1')).toBeUndefined();
  });
});
