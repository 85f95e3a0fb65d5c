import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chooseMenuOption, selectMenuText } from '../../../components/select-menu/select-menu-test-helpers';
import { ApplicationReportPage } from './application-report-page';

const report = {
  application: {
    id: 'a1',
    name: 'orders',
    namespace: 'shop',
    description: 'The orders service',
    labels: null,
    sections: [{ title: 'Overview', icon: null }],
  },
  range: { name: '7d', from: '2026-01-01T00:00:00.000Z', to: '2026-01-08T00:00:00.000Z' },
  generatedAt: '2026-01-08T00:00:00.000Z',
  health: 'unhealthy',
  configs: [
    { id: 'c1', name: 'orders-db', type: 'AWS::RDS', health: 'unhealthy', status: null, environment: 'prod' },
  ],
  components: [],
  checks: [
    {
      id: 'k1',
      name: 'orders-http',
      type: 'http',
      health: 'healthy',
      status: 'healthy',
      passed: 3,
      failed: 1,
      uptime: 75,
    },
  ],
  changes: [],
  insights: [],
  incidents: [],
  access: { roles: [{ role: 'viewer', read: true, write: false }], permissions: [] },
  backups: [
    {
      id: 'b1',
      config_id: 'c1',
      config_name: 'orders-db',
      change_type: 'BackupCompleted',
      severity: 'info',
      summary: 'nightly snapshot',
      created_at: '2026-01-07T00:00:00.000Z',
    },
  ],
};

function renderAt(url: string) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="/applications/:namespace/:name" element={<ApplicationReportPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

function stubFetch(status: number, body: unknown) {
  const urls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      urls.push(String(input));
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return urls;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ApplicationReportPage', () => {
  it('shows each section of the report and refetches for another range', async () => {
    const urls = stubFetch(200, report);
    renderAt('/applications/shop/orders');
    const article = await screen.findByRole('article', { name: 'Audit report orders' });
    expect(urls[0]).toBe('/api/application/shop/orders?range=7d');
    expect(within(article).getByRole('table', { name: 'Config items' }).textContent).toContain('prod');
    expect(within(article).getByRole('table', { name: 'Check uptime' }).textContent).toContain('75.00%');
    expect(within(article).getByRole('table', { name: 'Backups and restores' }).textContent).toContain(
      'nightly snapshot',
    );
    expect(within(article).getByRole('region', { name: 'Incidents' }).textContent).toContain('None');
    expect(within(article).getByRole('button', { name: 'Print' })).toBeTruthy();
    expect(selectMenuText(document.body, 'Range')).toBe('Last 7 days');
    await chooseMenuOption(document.body, 'Range', 'Last 30 days');
    await vi.waitFor(() => expect(urls).toContain('/api/application/shop/orders?range=30d'));
  });

  it('says No details found for an unknown application', async () => {
    stubFetch(404, { error: 'Application shop/nope not found', field: 'name' });
    renderAt('/applications/shop/nope');
    expect(await screen.findByText('No details found')).toBeTruthy();
  });
});
