import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../../features/auth';
import { CurrentAccessProvider } from '../current-access';
import { Sidebar } from './sidebar';
import { SIDEBAR_COLLAPSED_KEY } from './use-sidebar-collapsed';

const currentUser = vi.hoisted(() => ({
  roles: [] as string[],
  hostedIdentityProvider: undefined as string | undefined,
}));

vi.mock('../../features/auth', () => ({
  useCurrentUser: (): CurrentUser => ({
    status: 'signed-in',
    user: { id: 'u1', name: 'Ann', email: 'ann@example.com' },
    roles: currentUser.roles,
    permissions: [],
    ...(currentUser.hostedIdentityProvider
      ? { hostedIdentityProvider: currentUser.hostedIdentityProvider }
      : {}),
  }),
}));

beforeEach(() => {
  window.localStorage.clear();
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('[]', { status: 200 })),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderSidebar(roles: string[], hostedIdentityProvider?: string) {
  currentUser.roles = roles;
  currentUser.hostedIdentityProvider = hostedIdentityProvider;
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <CurrentAccessProvider>
        <MemoryRouter initialEntries={['/settings/jobs']}>
          <Sidebar />
          <p>content</p>
        </MemoryRouter>
      </CurrentAccessProvider>
    </QueryClientProvider>,
  );
}

describe('Sidebar', () => {
  it('hides Users when people come from a hosted identity provider (spec core §2)', async () => {
    renderSidebar(['admin'], 'Acme SSO');
    await screen.findByRole('link', { name: 'Jobs History' });
    expect(screen.getByRole('link', { name: 'Permissions' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Users' })).toBeNull();
  });

  it('lists the main entries in the spec order, then the Settings pages sorted by name, for an admin', async () => {
    renderSidebar(['admin']);
    await screen.findByRole('link', { name: 'Jobs History' });
    const names = screen
      .getAllByRole('link')
      .map((link) => link.textContent)
      .filter((name) => name !== 'Opsdeck');
    expect(names).toEqual([
      'Dashboard',
      'Health',
      'Incidents',
      'Catalog',
      'Logs',
      'Playbooks',
      'Applications',
      'Agents',
      'Connections',
      'Event Queue',
      'Feature Flags',
      'Health Checks',
      'Incident Rules',
      'Integrations',
      'Jobs History',
      'Log Backends',
      'Notifications',
      'Permissions',
      'Teams',
      'Tokens',
      'Topologies',
      'Users',
      'Views',
    ]);
  });

  it('adds one entry per sidebar view after the main entries, with its title or name', async () => {
    const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (!url.includes('/api/db/views_summary')) return new Response('[]', { status: 200 });
      expect(url).toContain('sidebar=eq.true');
      const row = {
        namespace: 'demo',
        icon: 'server',
        ordinal: 1,
        sidebar: true,
        created_at: '2026-01-01T00:00:00Z',
      };
      return new Response(
        JSON.stringify([
          { ...row, id: 'v1', name: 'estate', title: 'Demo Estate' },
          { ...row, id: 'v2', name: 'untitled', title: null },
        ]),
        { status: 200 },
      );
    });
    vi.stubGlobal('fetch', fetchMock);
    renderSidebar(['admin']);
    const estate = await screen.findByRole('link', { name: 'Demo Estate' });
    expect(estate.getAttribute('href')).toBe('/views/v1');
    expect(screen.getByRole('link', { name: 'untitled' }).getAttribute('href')).toBe('/views/v2');
    const names = screen.getAllByRole('link').map((link) => link.textContent);
    expect(names.indexOf('Demo Estate')).toBe(names.indexOf('Applications') + 1);
  });

  it('hides the entries a role cannot read: a commander sees no Connections, Permissions or Users', async () => {
    renderSidebar(['commander']);
    await screen.findByRole('link', { name: 'Jobs History' });
    const names = screen.getAllByRole('link').map((link) => link.textContent);
    expect(names).toContain('Teams');
    expect(names).toContain('Log Backends');
    for (const hidden of ['Connections', 'Permissions', 'Users']) expect(names).not.toContain(hidden);
  });

  it('hides Settings from a viewer', async () => {
    renderSidebar(['viewer']);
    await screen.findByRole('button', { name: 'Collapse sidebar' });
    expect(screen.queryByText('Settings')).toBeNull();
  });

  it('persists the collapse toggle as sidebarCollapsed', async () => {
    renderSidebar(['admin']);
    fireEvent.click(await screen.findByRole('button', { name: 'Collapse sidebar' }));
    expect(window.localStorage.getItem(SIDEBAR_COLLAPSED_KEY)).toBe('true');
    expect(screen.getByRole('navigation', { name: 'Sidebar' }).className).toContain('w-14');
    fireEvent.click(screen.getByRole('button', { name: 'Expand sidebar' }));
    expect(window.localStorage.getItem(SIDEBAR_COLLAPSED_KEY)).toBe('false');
    expect(screen.getByRole('navigation', { name: 'Sidebar' }).className).toContain('w-56');
  });

  it('collapses on an outside click only below 1024 px', async () => {
    renderSidebar(['admin']);
    await screen.findByRole('button', { name: 'Collapse sidebar' });
    act(() => void (window.innerWidth = 1280));
    fireEvent.mouseDown(screen.getByText('content'));
    expect(screen.getByRole('button', { name: 'Collapse sidebar' })).toBeTruthy();
    act(() => void (window.innerWidth = 900));
    fireEvent.mouseDown(screen.getByRole('navigation', { name: 'Sidebar' }));
    expect(screen.getByRole('button', { name: 'Collapse sidebar' })).toBeTruthy();
    fireEvent.mouseDown(screen.getByText('content'));
    expect(await screen.findByRole('button', { name: 'Expand sidebar' })).toBeTruthy();
  });
});
