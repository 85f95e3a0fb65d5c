import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiResponseError } from '../../../lib/api-client';
import { createToken, tokensQueryOptions } from './tokens';

const row = {
  id: 't1',
  name: 'ci',
  scope: [{ subject: '', object: 'catalog', action: 'read' }],
  created_at: '2026-11-20T10:00:00.000Z',
  expires_at: null,
  person: { id: 'p1', name: 'Ann Admin', email: 'ann@example.com', avatar: null },
  created_by: null,
};

function answer(body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(body), { status: 200 })),
  );
}

const fetchTokens = () => new QueryClient().fetchQuery({ ...tokensQueryOptions(), retry: false });

afterEach(() => vi.unstubAllGlobals());

describe('the token API parses answers with the contracts', () => {
  it('reads a list that fits, dropping keys the contract does not name', async () => {
    answer({ payload: [{ ...row, value: 'hash' }] });
    const tokens = await fetchTokens();
    expect(tokens).toEqual([row]);
  });

  it('rejects a drifted list with an ApiResponseError naming the field', async () => {
    answer({ payload: [row, { ...row, id: 't2', created_at: 1732096800 }] });
    const error = await fetchTokens().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiResponseError);
    expect((error as ApiResponseError).issues[0]?.path).toBe('payload[1].created_at');
    expect((error as Error).message).toMatch(
      /^Unexpected response from \/api\/auth\/tokens: payload\[1\]\.created_at: /,
    );
  });

  it('rejects a scope the contract does not know', async () => {
    answer({ payload: [{ ...row, scope: [{ subject: '', object: 'everything', action: 'read' }] }] });
    const error = await fetchTokens().catch((caught: unknown) => caught);
    expect((error as ApiResponseError).issues[0]?.path).toBe('payload[0].scope[0].object');
  });

  it('a created token without its string is an error naming payload.token, not an empty token', async () => {
    answer({ payload: {} });
    await expect(createToken({ name: 'x', expiry: 'never', scope: [] })).rejects.toThrow(
      /create_token: payload\.token: /,
    );
  });
});
