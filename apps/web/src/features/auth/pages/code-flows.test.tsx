import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
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

const codeNodes = [
  { group: 'code', name: 'email', type: 'email', label: 'Email' },
  { group: 'code', name: 'method', type: 'submit', value: 'code', label: 'Submit' },
];

function renderAt(url: string) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={createMemoryRouter(authRoutes, { initialEntries: [url] })} />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  assigned.length = 0;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('/recovery and /verification', () => {
  it('recovery: titled Recover account, sends the code method, has Go back', async () => {
    const sent = flowFixture('r1', codeNodes, { type: 'recovery', state: 'sent_email' });
    sent.ui.messages = [{ id: 'sent', text: 'A code was sent.', type: 'info' }] as never;
    const { calls } = mockFetch((call) =>
      call.method === 'GET'
        ? { status: 200, body: flowFixture('r1', codeNodes, { type: 'recovery' }) }
        : { status: 200, body: sent },
    );
    renderAt('/recovery');
    expect(screen.getByRole('heading', { name: 'Recover account' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go back' }).getAttribute('href')).toBe('/login');
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'a@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('A code was sent.')).toBeTruthy();
    expect(calls.at(-1)).toMatchObject({
      url: '/api/auth/self-service/recovery?flow=r1',
      body: { email: 'a@example.com', method: 'code', csrf_token: 'csrf-r1' },
    });
  });

  it('verification: titled Verify your account; a 400 on create goes to /', async () => {
    mockFetch(() => ({ status: 400, body: { error: { id: 'self_service_flow_disabled', message: 'off' } } }));
    renderAt('/verification');
    expect(screen.getByRole('heading', { name: 'Verify your account' })).toBeTruthy();
    await waitFor(() => expect(assigned).toEqual(['/']));
  });
});
