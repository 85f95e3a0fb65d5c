import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../../auth';
import { CurrentAccessProvider } from '../../../app/current-access';
import { EventQueuePage } from './event-queue-page';

const currentUser = vi.hoisted(() => ({ roles: [] as string[] }));

vi.mock('../../auth', () => ({
  useCurrentUser: (): CurrentUser => ({
    status: 'signed-in',
    user: { id: 'u1', name: 'Ann', email: 'ann@example.com' },
    roles: currentUser.roles,
    permissions: [],
  }),
}));

const failedEvent = {
  id: '6f1c2d3e-0000-4000-8000-000000000001',
  name: 'notification.check.failed',
  error: 'smtp: connection refused',
  attempts: 4,
  created_at: '2026-01-01T00:00:00.000Z',
  last_attempt: '2026-01-01T00:05:00.000Z',
  properties: { id: 'c1' },
};

let posts: { url: string; body: unknown }[] = [];

beforeEach(() => {
  posts = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const json = (value: unknown) =>
        new Response(JSON.stringify(value), { status: 200, headers: { 'content-type': 'application/json' } });
      if (init?.method === 'POST') {
        posts.push({ url, body: JSON.parse(String(init.body)) });
        return json({ count: 1 });
      }
      if (url.startsWith('/api/event-queue/summary')) {
        return json({
          names: [
            {
              name: 'notification.check.failed',
              pending: 2,
              in_flight: 1,
              failed: 1,
              oldest_pending_age_seconds: 200,
              average_attempts: 1.5,
              last_error: 'smtp: connection refused',
              last_failure: '2026-01-01T00:05:00.000Z',
            },
          ],
        });
      }
      if (url.startsWith('/api/event-queue/failed')) return json({ events: [failedEvent], total: 1 });
      return json([]);
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage(roles: string[]) {
  currentUser.roles = roles;
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <CurrentAccessProvider>
        <MemoryRouter initialEntries={['/settings/event-queue-status']}>
          <EventQueuePage />
        </MemoryRouter>
      </CurrentAccessProvider>
    </QueryClientProvider>,
  );
}

describe('EventQueuePage', () => {
  it('shows each name with its counts, oldest age and last error, and the failed events', async () => {
    renderPage(['admin']);
    const summary = await screen.findByRole('table', { name: 'Event queue' });
    const row = (await within(summary).findByText('notification.check.failed')).closest('tr')!;
    expect(within(row).getByText('3m 20s')).toBeTruthy();
    expect(within(row).getByText('smtp: connection refused')).toBeTruthy();
    expect(within(row).getByText('1.5')).toBeTruthy();
    const failed = screen.getByRole('table', { name: 'Failed events' });
    expect(await within(failed).findByText('smtp: connection refused')).toBeTruthy();
  });

  it('retries one failed event after the confirmation', async () => {
    renderPage(['admin']);
    const failed = await screen.findByRole('table', { name: 'Failed events' });
    fireEvent.click(await within(failed).findByRole('button', { name: `Retry event ${failedEvent.id}` }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Retry failed events' });
    expect(
      within(dialog).getByText(
        'Retry 1 failed event? They go back to the queue with a fresh attempt budget.',
      ),
    ).toBeTruthy();
    expect(posts).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Retry' }));
    await vi.waitFor(() =>
      expect(posts).toEqual([{ url: '/api/event-queue/retry', body: { ids: [failedEvent.id] } }]),
    );
  });

  it('offers no retry or discard to a viewer', async () => {
    renderPage(['viewer']);
    const failed = await screen.findByRole('table', { name: 'Failed events' });
    await within(failed).findByText('smtp: connection refused');
    expect(screen.queryByRole('button', { name: /^Retry / })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Discard / })).toBeNull();
  });
});
