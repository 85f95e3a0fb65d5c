import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../../auth';
import { AccessProvider } from '../../../lib/permissions';
import { hostedUsersMessage, UsersPage } from './users-page';

const currentUser = vi.hoisted(() => ({ hostedIdentityProvider: undefined as string | undefined }));

vi.mock('../../auth', () => ({
  useCurrentUser: (): CurrentUser => ({
    status: 'signed-in',
    user: { id: 'u1', name: 'Ann', email: 'ann@example.com' },
    roles: ['admin'],
    permissions: [],
    ...(currentUser.hostedIdentityProvider
      ? { hostedIdentityProvider: currentUser.hostedIdentityProvider }
      : {}),
  }),
}));

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('[]', { status: 200, headers: { 'Content-Type': 'application/json' } })),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage(hostedIdentityProvider?: string) {
  currentUser.hostedIdentityProvider = hostedIdentityProvider;
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <AccessProvider value={{ status: 'signed-in', roles: ['admin'], permissions: [] }}>
        <MemoryRouter>
          <UsersPage />
        </MemoryRouter>
      </AccessProvider>
    </QueryClientProvider>,
  );
}

describe('UsersPage', () => {
  it('offers Invite User to an admin when people are managed here', async () => {
    renderPage();
    expect(await screen.findByRole('button', { name: 'Invite User' })).toBeTruthy();
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('under a hosted identity provider says where people are managed, and offers no invitation', async () => {
    renderPage('Acme SSO');
    expect((await screen.findByRole('note')).textContent).toBe(hostedUsersMessage('Acme SSO'));
    expect(hostedUsersMessage('Acme SSO')).toMatch(
      /^People sign in through Acme SSO: invite, rename and remove them there/,
    );
    expect(screen.queryByRole('button', { name: 'Invite User' })).toBeNull();
  });
});
