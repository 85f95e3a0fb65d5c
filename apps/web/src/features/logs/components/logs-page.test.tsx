import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LogsPage } from './logs-page';

const sources = {
  backends: [{ id: 'b1', name: 'web-files', namespace: 'default', type: 'file' }],
  components: [
    { id: '11111111-1111-4111-8111-111111111111', name: 'api', type: 'Service', backend: 'web-files' },
  ],
  configs: [],
};
const now = Date.now();
const results = [
  {
    timestamp: new Date(now - 60_000).toISOString(),
    level: 'error',
    message: 'payment failed',
    labels: { route: '/pay' },
  },
  { timestamp: new Date(now - 120_000).toISOString(), level: 'info', message: 'order placed', labels: {} },
];

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('LogsPage', () => {
  it('searches the chosen source with the query and the last hour, then filters by level', async () => {
    const bodies: Record<string, unknown>[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
        const url = String(input);
        if (url === '/api/logs/sources') return Response.json(sources);
        if (url === '/api/logs') {
          bodies.push(JSON.parse(String(init.body)) as Record<string, unknown>);
          return Response.json({ total: 2, results });
        }
        return Response.json({ error: 'unexpected' }, { status: 599 });
      }),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={['/logs']}>
          <LogsPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(
      await screen.findByText('Select a component, config item or logging backend to read its logs'),
    ).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Source'), { target: { value: 'backend:web-files' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Query' }), { target: { value: 'pay' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    const table = await screen.findByRole('table', { name: 'Log lines' });
    const last = bodies[bodies.length - 1];
    expect(last).toMatchObject({ name: 'web-files', query: 'pay', limit: 1000 });
    expect(Date.parse(String(last.end)) - Date.parse(String(last.start))).toBe(3_600_000);
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual([
      'TimeLevelMessageLabels',
      expect.stringContaining('payment failed'),
      expect.stringContaining('order placed'),
    ]);
    fireEvent.change(screen.getByLabelText('Level'), { target: { value: 'info' } });
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    expect(screen.getByText('2 lines, 1 shown')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Source'), {
      target: { value: 'component:11111111-1111-4111-8111-111111111111' },
    });
    await vi.waitFor(() =>
      expect(bodies[bodies.length - 1]).toMatchObject({ id: '11111111-1111-4111-8111-111111111111' }),
    );
  });
});
