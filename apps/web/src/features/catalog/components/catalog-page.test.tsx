import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  chooseMenuOption,
  selectMenuOptions,
} from '../../../components/select-menu/select-menu-test-helpers';
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

/** A summary group as the server answers it (catalogSummaryRowSchema): costs and times null unless given. */
const group = (fields: Record<string, unknown>) => ({
  cost_per_minute: null,
  cost_total_1d: null,
  cost_total_7d: null,
  cost_total_30d: null,
  created_at: null,
  updated_at: null,
  ...fields,
});

beforeEach(() => {
  requests.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init?: RequestInit) => {
      requests.push({ url: input, body: typeof init?.body === 'string' ? init.body : undefined });
      if (input.startsWith('/api/db/config_tags_labels_keys'))
        return Promise.resolve(json([{ key: 'label:app' }, { key: 'tag:env' }]));
      if (input === '/api/catalog/summary' && init?.body?.toString().includes('tag:env'))
        return Promise.resolve(
          json([
            group({
              'tag:env': 'prod',
              count: 3,
              health: { healthy: 3 },
              status: {},
              cost_total_30d: 1234.5,
            }),
            group({ 'tag:env': null, count: 1, health: { unhealthy: 1 }, status: {}, cost_total_30d: null }),
          ]),
        );
      if (input === '/api/catalog/summary' && init?.body?.toString().includes('label:app'))
        return Promise.resolve(
          json([
            group({
              'label:app': 'web, api',
              count: 2,
              health: { healthy: 2 },
              status: {},
              cost_total_30d: null,
            }),
          ]),
        );
      if (input === '/api/catalog/summary')
        return Promise.resolve(
          json([
            group({
              config_class: 'Package',
              type: 'Npm::Package',
              count: 4,
              health: { healthy: 3, unhealthy: 1 },
              status: {},
            }),
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
                cost_per_minute: null,
                cost_total_1d: null,
                cost_total_7d: null,
                cost_total_30d: null,
                created_at: '2026-01-01T00:00:00Z',
                updated_at: '2026-01-01T00:00:00Z',
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
    const summaryRequest = requests.find((request) => request.url === '/api/catalog/summary');
    expect(JSON.parse(summaryRequest!.body!)).toEqual({ groupBy: ['config_class', 'type'], deleted: false });
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

  it('groups by a tag or label key chosen in Group By, with counts and costs, kept in the URL', async () => {
    renderAt('/catalog');
    await screen.findByRole('table', { name: 'Catalog summary' });
    await waitFor(async () =>
      expect(await selectMenuOptions(document.body, 'Group By')).toEqual(
        expect.arrayContaining(['Config type', 'Tag: env', 'Label: app']),
      ),
    );
    await chooseMenuOption(document.body, 'Group By', 'Tag: env');
    const groups = await screen.findByRole('table', { name: 'Catalog groups' });
    expect(screen.getByRole('status', { name: 'query' }).textContent).toBe('?groupBy=tag:env');
    const grouped = requests.filter((request) => request.body?.includes('tag:env'));
    expect(JSON.parse(grouped[0]!.body!)).toEqual({ groupBy: ['tag:env'], deleted: false });
    const prod = within(groups).getByRole('row', { name: /prod/ });
    expect(within(prod).getByTestId('group-count').textContent).toBe('3');
    expect(prod.textContent).toContain('$1,234.50');
    expect(within(groups).getByRole('row', { name: /\(none\)/ }).textContent).toContain('1 unhealthy');

    await chooseMenuOption(document.body, 'Group By', 'Config type');
    await screen.findByRole('table', { name: 'Catalog summary' });
    expect(screen.getByRole('status', { name: 'query' }).textContent).toBe('');
  });

  it('opens a tag group as the list of every type filtered by that tag, and returns to the groups', async () => {
    renderAt('/catalog?groupBy=tag%3Aenv');
    const groups = await screen.findByRole('table', { name: 'Catalog groups' });
    // Items without the key have no value to filter on.
    expect(within(groups).queryByRole('button', { name: '(none)' })).toBeNull();
    fireEvent.click(within(groups).getByRole('button', { name: 'prod' }));

    const items = await screen.findByRole('table', { name: 'Config items' });
    expect(screen.getByRole('status', { name: 'query' }).textContent).toBe(
      '?groupBy=tag:env&tags.filter=env=prod:1',
    );
    expect(screen.getByRole('heading', { name: 'All types' })).toBeTruthy();
    expect(within(items).getByRole('columnheader', { name: /Type/ })).toBeTruthy();
    expect(await within(items).findByRole('link', { name: 'left-pad' })).toBeTruthy();
    expect(within(items).getByRole('row', { name: /left-pad/ }).textContent).toContain('Npm Package');
    const list = requests.find((request) => request.url.startsWith('/api/db/configs?select=id'));
    const search = new URLSearchParams(list!.url.split('?')[1]);
    expect(search.get('tags->>env.filter')).toBe('prod');
    expect(search.has('type')).toBe(false);
    const facets = requests.find((request) => request.url.startsWith('/api/db/configs?select=tags'));
    const facetSearch = new URLSearchParams(facets!.url.split('?')[1]);
    expect(facetSearch.get('tags->>env.filter')).toBe('prod');
    expect(facetSearch.has('type')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: '← All types' }));
    await screen.findByRole('table', { name: 'Catalog groups' });
    expect(screen.getByRole('status', { name: 'query' }).textContent).toBe('?groupBy=tag:env');
  });

  it('opens a label group with the value escaped in labels.filter', async () => {
    renderAt('/catalog?groupBy=label%3Aapp');
    const groups = await screen.findByRole('table', { name: 'Catalog groups' });
    fireEvent.click(within(groups).getByRole('button', { name: 'web, api' }));
    await screen.findByRole('table', { name: 'Config items' });
    const params = new URLSearchParams(screen.getByRole('status', { name: 'query' }).textContent ?? '');
    expect(params.get('labels.filter')).toBe('app=web|||| api:1');
    expect(params.has('tags.filter')).toBe(false);
    const list = requests.find((request) => request.url.startsWith('/api/db/configs?select=id'));
    const search = new URLSearchParams(list!.url.split('?')[1]);
    expect(search.get('labels->>app.filter')).toBe('web|||| api');
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
