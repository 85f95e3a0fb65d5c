import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../../features/auth';
import { CurrentAccessProvider } from '../current-access';
import { RouteGuard } from './route-guard';

const currentUser = vi.hoisted(() => ({ value: undefined as CurrentUser | undefined }));

vi.mock('../../features/auth', () => ({ useCurrentUser: () => currentUser.value }));

function signedIn(roles: string[]): CurrentUser {
  return {
    status: 'signed-in',
    user: { id: 'u1', name: 'Ann', email: 'ann@example.com' },
    roles,
    permissions: [],
  };
}

let properties: {
  name: string;
  value: string;
  source: string;
  type: string | null;
  description: string | null;
}[] = [];

beforeEach(() => {
  properties = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(properties), { status: 200 })),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderGuard(action: 'read' | 'write' = 'read') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <CurrentAccessProvider>
        <RouteGuard resource="database" action={action} feature="settings.job_history">
          <p>page body</p>
        </RouteGuard>
      </CurrentAccessProvider>
    </QueryClientProvider>,
  );
}

describe('RouteGuard', () => {
  it('waits for the feature flags before deciding', async () => {
    currentUser.value = signedIn(['admin']);
    renderGuard();
    expect(screen.getByRole('status', { name: 'Loading feature flags' })).toBeTruthy();
    expect(await screen.findByText('page body')).toBeTruthy();
  });

  it('shows the Unauthorized page when the user lacks the action', async () => {
    currentUser.value = signedIn(['viewer']);
    renderGuard('write');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Unauthorized - You do not have permission to access this page',
    );
    expect(screen.queryByText('page body')).toBeNull();
  });

  it('lets a viewer read', async () => {
    currentUser.value = signedIn(['viewer']);
    renderGuard('read');
    expect(await screen.findByText('page body')).toBeTruthy();
  });

  it('refuses a page whose feature is disabled', async () => {
    currentUser.value = signedIn(['admin']);
    properties = [
      { name: 'health.disable', value: 'true', source: 'db', type: 'boolean', description: null },
    ];
    renderGuard();
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.queryByText('page body')).toBeNull();
  });
});
