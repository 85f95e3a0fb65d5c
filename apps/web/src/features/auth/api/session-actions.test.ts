import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../test/fetch-mock';
import { redirectToLogin, signOut } from './session-actions';
import type * as Navigation from '../lib/navigation';

const assigned: string[] = [];
vi.mock('../lib/navigation', async (importOriginal) => {
  const actual = await importOriginal<typeof Navigation>();
  return { ...actual, assignLocation: (url: string) => void assigned.push(url) };
});

beforeEach(() => {
  assigned.length = 0;
});
afterEach(() => vi.unstubAllGlobals());

describe('signOut', () => {
  it('ends the session with the logout token and lands on login with return_to', async () => {
    const { calls } = mockFetch((call) =>
      call.url.endsWith('/logout/browser')
        ? { status: 200, body: { logout_token: 't/1', logout_url: 'x' } }
        : call.url.startsWith('/api/auth/self-service/logout?token=')
          ? { status: 204 }
          : undefined,
    );
    await signOut('/health?tab=a&b=1');
    expect(calls.map((call) => call.url)).toEqual([
      '/api/auth/self-service/logout/browser',
      '/api/auth/self-service/logout?token=t%2F1',
    ]);
    expect(assigned).toEqual(['/login?return_to=%2Fhealth%3Ftab%3Da%26b%3D1']);
  });

  it('still lands on login when the session is already gone', async () => {
    mockFetch(() => ({ status: 401, body: { error: { id: 'session_inactive' } } }));
    await signOut('/x');
    expect(assigned).toEqual(['/login?return_to=%2Fx']);
  });
});

describe('redirectToLogin', () => {
  it('keeps the current path and query, and does nothing on a sign-in screen', () => {
    window.history.replaceState(null, '', '/catalog?q=1');
    redirectToLogin();
    window.history.replaceState(null, '', '/login?return_to=%2F');
    redirectToLogin();
    expect(assigned).toEqual(['/login?return_to=%2Fcatalog%3Fq%3D1']);
  });
});
