import { vi } from 'vitest';

export interface RecordedCall {
  method: string;
  url: string;
  body: unknown;
  headers: Record<string, string>;
}

type Handler = (call: RecordedCall) => { status: number; body?: unknown } | undefined;

/** Replaces global fetch with `handler`; records each call. Unhandled calls answer 599. */
export function mockFetch(handler: Handler) {
  const calls: RecordedCall[] = [];
  const spy = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
    const call: RecordedCall = {
      method: (init.method ?? 'GET').toUpperCase(),
      url,
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      headers: Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>)),
    };
    calls.push(call);
    const answer = handler(call) ?? { status: 599, body: { error: `unexpected ${call.method} ${url}` } };
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', spy);
  return { calls, spy };
}

export function flowFixture(
  id: string,
  nodes: {
    group: string;
    name: string;
    type: string;
    value?: unknown;
    label?: string;
    messages?: { id: string; text: string; type: 'info' | 'error' | 'success' }[];
    disabled?: boolean;
  }[],
  extra: Record<string, unknown> = {},
) {
  return {
    id,
    type: 'login',
    state: null,
    issued_at: '2026-01-01T00:00:00Z',
    expires_at: '2026-01-01T01:00:00Z',
    request_url: 'http://localhost/api/auth/self-service/login/browser',
    return_to: '/',
    refresh: false,
    requested_aal: 'aal1',
    csrf_token: `csrf-${id}`,
    ui: {
      action: '',
      method: 'POST',
      nodes: [
        { group: 'default', name: 'csrf_token', type: 'hidden', value: `csrf-${id}`, messages: [] },
        ...nodes.map((node) => ({ messages: [], ...node })),
      ],
      messages: [],
    },
    ...extra,
  };
}

export const passwordNodes = [
  { group: 'default', name: 'identifier', type: 'email', label: 'Email' },
  { group: 'password', name: 'password', type: 'password', label: 'Password' },
  { group: 'password', name: 'method', type: 'submit', value: 'password', label: 'Sign in' },
];
