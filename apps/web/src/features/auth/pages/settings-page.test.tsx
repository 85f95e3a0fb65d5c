import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authRoutes } from '../routes';
import { flowFixture, mockFetch } from '../test/fetch-mock';
import type * as Navigation from '../lib/navigation';

const assigned: string[] = [];
vi.mock('../lib/navigation', async (importOriginal) => {
  const actual = await importOriginal<typeof Navigation>();
  return { ...actual, assignLocation: (url: string) => void assigned.push(url) };
});

const settingsNodes = [
  { group: 'profile', name: 'traits.email', type: 'email', value: 'a@example.com', label: 'Email' },
  { group: 'profile', name: 'traits.name.first', type: 'text', value: 'Ada', label: 'First name' },
  { group: 'profile', name: 'method', type: 'submit', value: 'profile', label: 'Save' },
  { group: 'password', name: 'password', type: 'password', label: 'New password' },
  { group: 'password', name: 'method', type: 'submit', value: 'password', label: 'Save' },
  {
    group: 'lookup_secret',
    name: 'lookup_secret_regenerate',
    type: 'submit',
    value: true,
    label: 'Generate new backup recovery codes',
  },
  {
    group: 'totp',
    name: 'totp_secret_key',
    type: 'text',
    value: 'JBSWY3DPEHPK3PXP',
    label: 'Secret key for manual entry',
  },
  { group: 'totp', name: 'totp_code', type: 'text', label: 'Verification code' },
  { group: 'totp', name: 'method', type: 'submit', value: 'totp', label: 'Save' },
  {
    group: 'webauthn',
    name: 'webauthn_register_displayname',
    type: 'text',
    label: 'Name of the security key',
  },
  {
    group: 'webauthn',
    name: 'webauthn_register_options',
    type: 'script',
    value: '{}',
    label: 'Registration options (JSON)',
  },
  { group: 'webauthn', name: 'webauthn_register', type: 'hidden' },
  { group: 'webauthn', name: 'method', type: 'submit', value: 'webauthn', label: 'Add security key' },
];

function renderAt(url: string) {
  const router = createMemoryRouter(authRoutes, { initialEntries: [url] });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

beforeEach(() => {
  assigned.length = 0;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('/profile-settings', () => {
  it('shows the spec sections for the groups the server offers, with a Go back link', async () => {
    mockFetch(() => ({ status: 200, body: flowFixture('s1', settingsNodes, { type: 'settings' }) }));
    renderAt('/profile-settings');
    expect(await screen.findByRole('heading', { name: 'Profile Settings', level: 1 })).toBeTruthy();
    const titles = (await screen.findAllByRole('heading', { level: 2 })).map(
      (heading) => heading.textContent,
    );
    expect(titles).toEqual([
      'Profile Settings',
      'Change Password',
      'Manage 2FA Backup Recovery Codes',
      'Manage 2FA TOTP Authenticator App',
      'Manage Hardware Tokens and Biometrics',
    ]);
    expect(screen.getByRole('link', { name: 'Go back' })).toBeTruthy();
    const totp = screen.getByRole('region', { name: 'Manage 2FA TOTP Authenticator App' });
    expect(within(totp).getByText('JBSWY3DPEHPK3PXP')).toBeTruthy();
  });

  it('submits only the section that was saved and shows the answer', async () => {
    const saved = flowFixture('s1', settingsNodes, { type: 'settings' });
    saved.ui.messages = [
      { id: 'settings_saved', text: 'Your changes have been saved.', type: 'success' },
    ] as never;
    const { calls } = mockFetch((call) =>
      call.method === 'GET'
        ? { status: 200, body: flowFixture('s1', settingsNodes, { type: 'settings' }) }
        : { status: 200, body: saved },
    );
    renderAt('/profile-settings');
    const totp = await screen.findByRole('region', { name: 'Manage 2FA TOTP Authenticator App' });
    fireEvent.change(within(totp).getByLabelText('Verification code'), { target: { value: '123456' } });
    fireEvent.click(within(totp).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Your changes have been saved.')).toBeTruthy();
    expect(calls.at(-1)).toMatchObject({
      method: 'POST',
      url: '/api/auth/self-service/settings?flow=s1',
      body: { totp_code: '123456', method: 'totp', csrf_token: 'csrf-s1' },
    });
  });

  it('sends a boolean button value as the server gave it', async () => {
    const { calls } = mockFetch(() => ({
      status: 200,
      body: flowFixture('s1', settingsNodes, { type: 'settings' }),
    }));
    renderAt('/profile-settings');
    fireEvent.click(await screen.findByRole('button', { name: 'Generate new backup recovery codes' }));
    await waitFor(() =>
      expect(calls.at(-1)?.body).toEqual({ lookup_secret_regenerate: true, csrf_token: 'csrf-s1' }),
    );
  });

  it('goes to login when there is no session, and to login with refresh when asked', async () => {
    mockFetch(() => ({ status: 401, body: { error: { id: 'session_inactive', message: 'x' } } }));
    renderAt('/profile-settings');
    await waitFor(() => expect(assigned).toEqual(['/login?return_to=%2F']));
    cleanup();
    assigned.length = 0;
    mockFetch((call) =>
      call.method === 'GET'
        ? { status: 200, body: flowFixture('s1', settingsNodes, { type: 'settings' }) }
        : {
            status: 403,
            body: {
              error: { id: 'session_refresh_required', message: 'x' },
              redirect_browser_to: '/login?refresh=true&return_to=%2Fprofile-settings%3Fflow%3Ds1',
            },
          },
    );
    renderAt('/profile-settings');
    const password = await screen.findByRole('region', { name: 'Change Password' });
    fireEvent.change(within(password).getByLabelText('New password'), { target: { value: 'new-password' } });
    fireEvent.click(within(password).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(assigned).toEqual(['/login?refresh=true&return_to=%2Fprofile-settings%3Fflow%3Ds1']),
    );
  });
});
