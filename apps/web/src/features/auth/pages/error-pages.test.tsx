import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { storeFlowError } from '../lib/flow-errors';
import { authRoutes } from '../routes';

function renderAt(url: string) {
  const router = createMemoryRouter([...authRoutes, { path: '/', element: <p>home</p> }], {
    initialEntries: [url],
  });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('bad-session page', () => {
  it('explains BAD_SESSION and offers Go back', () => {
    renderAt('/error/session?error_code=BAD_SESSION');
    expect(
      screen.getByText(
        'Bad Session. Please try logging out and logging in again, if the problem persist, please contact us.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Go back' })).toBeTruthy();
  });

  it('says Unknown error for any other code', () => {
    renderAt('/error/session?error_code=OTHER');
    expect(screen.getByText('Unknown error')).toBeTruthy();
  });
});

describe('flow-error page', () => {
  it('shows the stored error as JSON with Go back', () => {
    const id = storeFlowError({
      id: 'weird_error',
      status: 500,
      message: 'boom',
      body: { error: { id: 'weird_error' } },
    });
    renderAt(`/error?id=${id}`);
    const pre = screen.getByTestId('flow-error');
    expect(JSON.parse(pre.textContent ?? '')).toEqual({
      id: 'weird_error',
      status: 500,
      message: 'boom',
      body: { error: { id: 'weird_error' } },
    });
    expect(screen.getByRole('button', { name: 'Go back' })).toBeTruthy();
  });

  it('goes home for an unknown id', async () => {
    const router = renderAt('/error?id=nothing-here');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('shows an error the server kept under the id (where the Kratos door sends a browser)', async () => {
    const requested: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      requested.push(url);
      return new Response(
        JSON.stringify({
          id: 'sealed-id',
          error: {
            id: 'self_service_flow_return_to_forbidden',
            code: 400,
            status: 'Bad Request',
            message: 'no',
          },
          created_at: '2026-01-01T00:00:00.000Z',
          updated_at: '2026-01-01T00:00:00.000Z',
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      );
    });
    renderAt('/error?id=sealed-id');
    const pre = await screen.findByTestId('flow-error');
    expect(JSON.parse(pre.textContent ?? '')).toMatchObject({
      id: 'self_service_flow_return_to_forbidden',
      code: 400,
    });
    expect(requested).toEqual(['/api/kratos/self-service/errors?id=sealed-id']);
  });

  it('goes home when the server has no error under the id either', async () => {
    vi.stubGlobal(
      'fetch',
      async () => new Response(JSON.stringify({ error: { code: 404 } }), { status: 404 }),
    );
    const router = renderAt('/error?id=unknown-to-all');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
