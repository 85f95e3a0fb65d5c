import { cleanup, fireEvent, render, screen, waitFor, act } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authRoutes } from '../routes';
import { flowFixture, mockFetch, passwordNodes } from '../test/fetch-mock';
import type * as Navigation from '../lib/navigation';

const assigned: string[] = [];
vi.mock('../lib/navigation', async (importOriginal) => {
  const actual = await importOriginal<typeof Navigation>();
  return { ...actual, assignLocation: (url: string) => void assigned.push(url) };
});

function renderAt(url: string) {
  const router = createMemoryRouter(authRoutes, { initialEntries: [url] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
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
  vi.useRealTimers();
});

describe('/login', () => {
  it('creates a flow with return_to, renders its nodes and puts the flow id in the address', async () => {
    const { calls } = mockFetch((call) =>
      call.url.startsWith('/api/auth/self-service/login/browser')
        ? { status: 200, body: flowFixture('f1', passwordNodes) }
        : undefined,
    );
    const router = renderAt('/login?return_to=%2Fhealth%3Fa%3D1');
    expect(await screen.findByRole('heading', { name: 'Sign In to your account' })).toBeTruthy();
    expect(await screen.findByLabelText('Email')).toBeTruthy();
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('password');
    expect(screen.getByRole('link', { name: 'Reset password' }).getAttribute('href')).toBe('/recovery');
    expect(calls[0]?.url).toBe('/api/auth/self-service/login/browser?return_to=%2Fhealth%3Fa%3D1');
    await waitFor(() => expect(router.state.location.search).toBe('?return_to=%2Fhealth%3Fa%3D1&flow=f1'));
  });

  it('defaults return_to to /', async () => {
    const { calls } = mockFetch(() => ({ status: 200, body: flowFixture('f1', passwordNodes) }));
    renderAt('/login');
    await screen.findByLabelText('Email');
    expect(calls[0]?.url).toBe('/api/auth/self-service/login/browser?return_to=%2F');
  });

  it('submits the password method with the csrf token and follows redirect_browser_to', async () => {
    const { calls } = mockFetch((call) => {
      if (call.method === 'GET') return { status: 200, body: flowFixture('f1', passwordNodes) };
      if (call.url === '/api/auth/self-service/login?flow=f1')
        return { status: 200, body: { session: {}, return_to: '/x', redirect_browser_to: '/x' } };
      return undefined;
    });
    renderAt('/login?return_to=/x');
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'a@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(assigned).toEqual(['/x']));
    expect(calls.at(-1)?.body).toEqual({
      identifier: 'a@example.com',
      password: 'secret',
      method: 'password',
      csrf_token: 'csrf-f1',
    });
  });

  it('re-renders a 400 with the server messages next to the fields', async () => {
    const rejected = flowFixture('f1', [
      { ...passwordNodes[0]!, value: 'a@example.com' },
      {
        ...passwordNodes[1]!,
        messages: [
          { id: 'credentials_invalid', text: 'The provided credentials are invalid.', type: 'error' },
        ],
      },
      passwordNodes[2]!,
    ]);
    mockFetch((call) =>
      call.method === 'GET'
        ? { status: 200, body: flowFixture('f1', passwordNodes) }
        : { status: 400, body: rejected },
    );
    renderAt('/login');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('The provided credentials are invalid.')).toBeTruthy();
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('a@example.com');
    expect(screen.getByLabelText('Password').getAttribute('aria-invalid')).toBe('true');
  });

  it('restarts an expired flow with the server-made one and the spec message', async () => {
    mockFetch((call) => {
      if (call.url.includes('/login/browser')) return { status: 200, body: flowFixture('f1', passwordNodes) };
      if (call.url.includes('/login/flows?id=f2'))
        return { status: 200, body: flowFixture('f2', passwordNodes) };
      return {
        status: 410,
        body: {
          error: { id: 'self_service_flow_expired', code: 410, status: 'Gone', message: 'x' },
          use_flow_id: 'f2',
        },
      };
    });
    const router = renderAt('/login');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Your interaction expired, please fill out the form again.')).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toContain('flow=f2'));
  });

  it('restarts a CSRF violation with a new flow and its message', async () => {
    let created = 0;
    mockFetch((call) => {
      if (call.url.includes('/login/browser'))
        return { status: 200, body: flowFixture(`n${++created}`, passwordNodes) };
      return {
        status: 403,
        body: { error: { id: 'security_csrf_violation', code: 403, status: 'Forbidden', message: 'x' } },
      };
    });
    const router = renderAt('/login');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(
      await screen.findByText('A security violation was detected, please fill out the form again.'),
    ).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toContain('flow=n2'));
  });

  it('drops a forbidden return_to and says so', async () => {
    const { calls } = mockFetch((call) =>
      call.url.includes('return_to=https')
        ? { status: 400, body: { error: { id: 'self_service_flow_return_to_forbidden', message: 'x' } } }
        : { status: 200, body: flowFixture('f9', passwordNodes) },
    );
    const router = renderAt('/login?return_to=https%3A%2F%2Fevil.example');
    expect(await screen.findByText('The return_to address is not allowed.')).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe('?flow=f9'));
    expect(calls[1]?.url).toBe('/api/auth/self-service/login/browser?return_to=%2F');
  });

  it('sends a signed-in browser to /', async () => {
    mockFetch(() => ({ status: 400, body: { error: { id: 'session_already_available', message: 'x' } } }));
    renderAt('/login');
    await waitFor(() => expect(assigned).toEqual(['/']));
  });

  it('submits username and password from the address at once', async () => {
    const { calls } = mockFetch((call) =>
      call.method === 'GET'
        ? { status: 200, body: flowFixture('f1', passwordNodes) }
        : { status: 200, body: { redirect_browser_to: '/' } },
    );
    const router = renderAt('/login?username=a%40example.com&password=pw');
    await waitFor(() => expect(assigned).toEqual(['/']));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      method: 'password',
      identifier: 'a@example.com',
      password: 'pw',
      csrf_token: 'csrf-f1',
    });
    expect(router.state.location.search).not.toContain('password');
  });

  it('titles refresh and aal2 flows and offers the second factors', async () => {
    mockFetch(() => ({
      status: 200,
      body: flowFixture(
        'f1',
        [
          { group: 'totp', name: 'totp_code', type: 'text', label: 'Authentication code' },
          { group: 'totp', name: 'method', type: 'submit', value: 'totp', label: 'Use authenticator' },
          { group: 'lookup_secret', name: 'lookup_secret', type: 'text', label: 'Backup recovery code' },
          {
            group: 'lookup_secret',
            name: 'method',
            type: 'submit',
            value: 'lookup_secret',
            label: 'Use backup recovery code',
          },
        ],
        { requested_aal: 'aal2' },
      ),
    }));
    renderAt('/login?aal=aal2');
    expect(await screen.findByRole('heading', { name: 'Two-Factor Authentication' })).toBeTruthy();
    expect(await screen.findByLabelText('Authentication code')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Use backup recovery code' })).toBeTruthy();
    cleanup();
    mockFetch(() => ({ status: 200, body: flowFixture('f2', passwordNodes, { refresh: true }) }));
    renderAt('/login?refresh=true');
    expect(await screen.findByRole('heading', { name: 'Confirm Action' })).toBeTruthy();
  });

  it('shows the social sign-in button only when the server offers it', async () => {
    mockFetch(() => ({
      status: 200,
      body: flowFixture('f1', [
        ...passwordNodes,
        { group: 'oidc', name: 'provider', type: 'submit', value: 'oidc', label: 'Sign in with Acme' },
      ]),
    }));
    renderAt('/login');
    expect(await screen.findByRole('button', { name: 'Sign in with Acme' })).toBeTruthy();
  });

  it('hides flow messages after 10 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const body = flowFixture('f1', passwordNodes);
    body.ui.messages = [{ id: 'm', text: 'Hello there', type: 'info' }] as never;
    mockFetch(() => ({ status: 200, body }));
    renderAt('/login');
    expect(await screen.findByText('Hello there')).toBeTruthy();
    // let the effect that starts the timer run before the clock moves
    await act(async () => {});
    await act(async () => {
      vi.advanceTimersByTime(9_800);
    });
    expect(screen.queryByText('Hello there')).toBeTruthy();
    await act(async () => {
      vi.advanceTimersByTime(400);
    });
    expect(screen.queryByText('Hello there')).toBeNull();
  });
});
