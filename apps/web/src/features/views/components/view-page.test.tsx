import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  chooseMenuOption,
  selectMenuOptions,
  selectMenuText,
} from '../../../components/select-menu/select-menu-test-helpers';
import { ViewByIdPage } from './view-page';

const result = {
  id: 'v1',
  name: 'pods',
  namespace: 'default',
  title: 'Pods',
  icon: null,
  columns: [
    { name: 'name', type: 'string' },
    { name: 'health', type: 'health', filterable: true },
  ],
  rows: [],
  panels: [],
  columnOptions: { health: ['healthy', 'unhealthy'] },
  variables: [
    { key: 'cluster', label: 'Cluster', options: ['alpha', 'beta'], default: 'alpha', value: 'alpha' },
  ],
  requestFingerprint: 'fp1',
  lastRefreshedAt: '2026-01-01T00:00:00.000Z',
  rowCount: 2,
  table: 'view_default_pods',
};

function Location() {
  return <output data-testid="location">{useLocation().search}</output>;
}

function stubApi(page: { total: number; totalExact: boolean }) {
  const calls: Array<{ url: string; body: unknown }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      calls.push({ url, body: init?.body ? JSON.parse(String(init.body)) : null });
      const body = url.endsWith('/rows')
        ? { rows: [{ name: 'api-1', health: 'healthy' }], ...page, next: null }
        : result;
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return calls;
}

function renderPage() {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={['/views/v1']}>
        <Routes>
          <Route
            path="/views/:id"
            element={
              <>
                <ViewByIdPage />
                <Location />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ViewByIdPage', () => {
  it('picks variables and filters from SelectMenus and pages through the rows endpoint', async () => {
    const calls = stubApi({ total: 2, totalExact: true });
    const { container } = renderPage();
    expect(await screen.findByText('api-1', {}, { timeout: 10_000 })).toBeTruthy();
    const rowsCall = calls.find((call) => call.url.endsWith('/api/view/v1/rows'));
    expect(rowsCall?.body).toEqual({ requestFingerprint: 'fp1', sortOrder: 'desc', limit: 50 });

    const variables = screen.getByRole('group', { name: 'Variables' });
    expect(selectMenuText(variables, 'Cluster')).toBe('alpha');
    expect(await selectMenuOptions(variables, 'Cluster')).toEqual(['alpha', 'beta']);
    await chooseMenuOption(variables, 'Cluster', 'beta');
    expect(screen.getByTestId('location').textContent).toContain('var.cluster=beta');

    const filters = await screen.findByRole('group', { name: 'Filters' }, { timeout: 10_000 });
    expect(await selectMenuOptions(filters, 'health')).toEqual(['All', 'healthy', 'unhealthy']);
    await chooseMenuOption(filters, 'health', 'unhealthy');
    expect(screen.getByTestId('location').textContent).toContain('col.health=unhealthy');
    await waitFor(() =>
      expect(
        calls.some((call) => JSON.stringify(call.body).includes('"filters":{"health":["unhealthy"]}')),
      ).toBe(true),
    );
    expect(container.textContent).not.toContain('an estimate');
  });

  it('says when the total is the server estimate', async () => {
    stubApi({ total: 25_000, totalExact: false });
    renderPage();
    expect(
      await screen.findByText('About 25,000 rows match (an estimate)', {}, { timeout: 10_000 }),
    ).toBeTruthy();
  });
});
