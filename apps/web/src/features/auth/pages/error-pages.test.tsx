import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
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

afterEach(cleanup);

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
});
