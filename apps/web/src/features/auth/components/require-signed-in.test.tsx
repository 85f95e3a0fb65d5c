import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCurrentUser } from '../api/whoami';
import { mockFetch } from '../test/fetch-mock';
import { RequireSignedIn } from './require-signed-in';
import type * as Navigation from '../lib/navigation';

const assigned: string[] = [];
vi.mock('../lib/navigation', async (importOriginal) => {
  const actual = await importOriginal<typeof Navigation>();
  return { ...actual, assignLocation: (url: string) => void assigned.push(url) };
});

function Who() {
  const current = useCurrentUser();
  return (
    <p>{`${current.status} ${current.user?.email ?? '-'} ${current.roles.join(',')} ${current.permissions.length}`}</p>
  );
}

function renderWithClient(children: React.ReactNode) {
  render(<QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>);
}

beforeEach(() => {
  assigned.length = 0;
  window.history.replaceState(null, '', '/health?tab=x');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('useCurrentUser and RequireSignedIn', () => {
  it('reads whoami into the signed-in user and renders the children', async () => {
    mockFetch(() => ({
      status: 200,
      body: {
        message: 'ok',
        payload: {
          user: { id: 'p1', name: 'Ada', email: 'ada@example.com', avatar: null },
          roles: ['admin'],
          permissions: [{ subject: 'admin', object: 'canaries', action: 'read', deny: false }],
          hostname: 'opsdeck-1',
          database: 'opsdeck',
        },
      },
    }));
    renderWithClient(
      <RequireSignedIn>
        <Who />
      </RequireSignedIn>,
    );
    expect(screen.getByRole('status', { name: 'Loading' })).toBeTruthy();
    expect(await screen.findByText('signed-in ada@example.com admin 1')).toBeTruthy();
  });

  it('treats a 401 as signed out and sends the user to login with the current path and query', async () => {
    mockFetch(() => ({ status: 401, body: { error: 'Unauthorized' } }));
    renderWithClient(
      <>
        <Who />
        <RequireSignedIn>
          <p>secret</p>
        </RequireSignedIn>
      </>,
    );
    expect(await screen.findByText('signed-out - 0')).toBeTruthy();
    await waitFor(() => expect(assigned).toEqual(['/login?return_to=%2Fhealth%3Ftab%3Dx']));
    expect(screen.queryByText('secret')).toBeNull();
  });
});
