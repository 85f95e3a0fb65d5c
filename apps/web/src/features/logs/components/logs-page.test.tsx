import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  chooseMenuOption,
  selectMenuOptions,
  selectMenuText,
} from '../../../components/select-menu/select-menu-test-helpers';
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
          return Response.json({
            total: 1200,
            results,
            histogram: [
              { start: new Date(now - 3_600_000).toISOString(), count: 1100, errors: 7 },
              { start: new Date(now - 1_800_000).toISOString(), count: 100, errors: 1 },
            ],
          });
        }
        return Response.json({ error: 'unexpected' }, { status: 599 });
      }),
    );
    const { container } = render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter initialEntries={['/logs']}>
          <LogsPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(
      await screen.findByText('Select a component, config item or logging backend to read its logs'),
    ).toBeTruthy();
    expect(selectMenuText(container, 'Source')).toBe('Select a source');
    expect(await selectMenuOptions(container, 'Source')).toEqual([
      'Component: api (Service)',
      'Backend: web-files (file)',
    ]);
    await chooseMenuOption(container, 'Source', 'Backend: web-files (file)');
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
    // The server counted 1,200 lines: the page shows the 2 returned, and the server's histogram.
    expect(screen.getByText('2 newest of 1200 lines')).toBeTruthy();
    expect(screen.getByRole('figure', { name: 'Log lines over time' })).toBeTruthy();
    expect(await selectMenuOptions(container, 'Level')).toEqual(['All levels', 'error', 'info']);
    await chooseMenuOption(container, 'Level', 'info');
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    expect(screen.getByText('2 newest of 1200 lines, 1 shown')).toBeTruthy();

    await chooseMenuOption(container, 'Source', 'Component: api (Service)');
    await vi.waitFor(() =>
      expect(bodies[bodies.length - 1]).toMatchObject({ id: '11111111-1111-4111-8111-111111111111' }),
    );
  });
});
