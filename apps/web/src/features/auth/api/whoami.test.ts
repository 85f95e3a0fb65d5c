import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiResponseError } from '../../../lib/api-client';
import { mockFetch } from '../test/fetch-mock';
import { fetchWhoami } from './whoami';

const payload = {
  user: { id: 'p1', name: '', email: 'ada@example.com', avatar: null },
  roles: ['editor'],
  permissions: [{ subject: 'editor', object: 'canaries', action: 'read', deny: false }],
  hostname: 'opsdeck-1',
  database: 'opsdeck',
};

afterEach(() => vi.unstubAllGlobals());

describe('fetchWhoami', () => {
  it('reads the contract shape into the current user (the name falls back to the email)', async () => {
    mockFetch(() => ({ status: 200, body: { message: 'success', payload } }));
    expect(await fetchWhoami()).toEqual({
      signedIn: true,
      user: { id: 'p1', name: 'ada@example.com', email: 'ada@example.com' },
      roles: ['editor'],
      permissions: payload.permissions,
    });
  });

  it('rejects a drifted answer with an ApiResponseError naming the field', async () => {
    mockFetch(() => ({
      status: 200,
      body: { message: 'success', payload: { ...payload, roles: ['owner'] } },
    }));
    const error = await fetchWhoami().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiResponseError);
    expect((error as ApiResponseError).issues[0]?.path).toBe('payload.roles[0]');
  });

  it('a 401 is signed out', async () => {
    mockFetch(() => ({ status: 401, body: { error: 'Unauthorized' } }));
    expect(await fetchWhoami()).toEqual({ signedIn: false, roles: [], permissions: [] });
  });
});
