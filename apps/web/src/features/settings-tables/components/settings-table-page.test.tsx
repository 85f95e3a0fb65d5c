import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SettingsTablePage } from './settings-table-page';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage(body: unknown) {
  const fetchMock = vi.fn(async () => new Response(JSON.stringify(body), { status: 200 }));
  vi.stubGlobal('fetch', fetchMock);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/settings/logging_backends']}>
        <SettingsTablePage table="logging_backends" />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return fetchMock;
}

describe('SettingsTablePage', () => {
  it("shows 'No resources found' for an empty table, asking the server's generic list", async () => {
    const fetchMock = renderPage({ table: 'logging_backends', rows: [] });
    expect(await screen.findByText('No resources found')).toBeTruthy();
    expect(String((fetchMock.mock.calls[0] as unknown[] | undefined)?.[0])).toBe(
      '/api/settings/resources/logging_backends',
    );
  });

  it('lists the rows in the order the server gives (newest first)', async () => {
    const row = { namespace: 'default', labels: { env: 'prod' }, source: 'UI', updated_at: null };
    renderPage({
      table: 'logging_backends',
      rows: [
        { ...row, id: 'b2', name: 'newer', created_at: '2026-11-28T10:00:00Z' },
        { ...row, id: 'b1', name: 'older', created_at: '2026-11-27T10:00:00Z' },
      ],
    });
    const table = await screen.findByRole('table', { name: 'Logging Backends' });
    await within(table).findByText('newer');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((tr) => within(tr).getAllByRole('cell')[0]?.textContent)).toEqual(['newer', 'older']);
  });
});
