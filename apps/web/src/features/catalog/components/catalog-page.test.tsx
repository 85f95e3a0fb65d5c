import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CatalogPage } from './catalog-page';

function Search() {
  return <output aria-label="query">{decodeURIComponent(useLocation().search)}</output>;
}

function renderAt(url: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <CatalogPage />
        <Search />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const json = (body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status: 200,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

const requests: { url: string; body: string | undefined }[] = [];

beforeEach(() => {
  requests.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init?: RequestInit) => {
      requests.push({ url: input, body: typeof init?.body === 'string' ? init.body : undefined });
      if (input === '/api/catalog/summary')
        return Promise.resolve(
          json([
            {
              config_class: 'Package',
              type: 'Npm::Package',
              count: 4,
              health: { healthy: 3, unhealthy: 1 },
              status: {},
            },
          ]),
        );
      if (input.startsWith('/api/db/configs?select=tags'))
        return Promise.resolve(
          json([{ tags: { env: 'prod' }, labels: null, health: 'healthy', status: null }]),
        );
      if (input.startsWith('/api/db/configs'))
        return Promise.resolve(
          json(
            [
              {
                id: 'c1',
                name: 'left-pad',
                type: 'Npm::Package',
                config_class: 'Package',
                status: null,
                health: 'healthy',
                labels: null,
                tags: { env: 'prod' },
                namespace: null,
                description: null,
                created_at: '2026-01-01T00:00:00Z',
                updated_at: null,
                deleted_at: null,
              },
            ],
            { 'Content-Range': '0-0/1' },
          ),
        );
      return Promise.resolve(new Response('not found', { status: 404 }));
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('CatalogPage', () => {
  it('shows counts and the health breakdown per type, and opens the type list on click', async () => {
    renderAt('/catalog');
    const summary = await screen.findByRole('table', { name: 'Catalog summary' });
    expect(JSON.parse(requests[0]!.body!)).toEqual({ groupBy: ['config_class', 'type'], deleted: false });
    expect(within(summary).getByText('4')).toBeTruthy();
    expect(within(summary).getByText('3 healthy')).toBeTruthy();
    expect(within(summary).getByText('1 unhealthy')).toBeTruthy();

    fireEvent.click(within(summary).getByRole('button', { name: 'Npm Package' }));
    const items = await screen.findByRole('table', { name: 'Config items' });
    expect(screen.getByRole('status', { name: 'query' }).textContent).toBe('?type=Npm::Package');
    expect(await within(items).findByRole('link', { name: 'left-pad' })).toBeTruthy();
    const list = requests.find((request) => request.url.startsWith('/api/db/configs?select=id'));
    const search = new URLSearchParams(list!.url.split('?')[1]);
    expect(search.get('type')).toBe('eq.Npm::Package');
    expect(search.get('deleted_at')).toBe('is.null');
  });

  it('reads tag filters and the search from the URL into the list query', async () => {
    renderAt('/catalog?type=Npm%3A%3APackage&tags.filter=env%3Dprod%3A-1&search=pad');
    await screen.findByRole('table', { name: 'Config items' });
    await screen.findByRole('region', { name: 'Tags' });
    const list = requests.find((request) => request.url.startsWith('/api/db/configs?select=id'));
    const search = new URLSearchParams(list!.url.split('?')[1]);
    expect(search.get('tags->>env.filter')).toBe('!prod');
    expect(search.get('or')).toContain('name.ilike."*pad*"');
    expect((screen.getByRole('searchbox', { name: 'Search configs' }) as HTMLInputElement).value).toBe('pad');
  });
});
