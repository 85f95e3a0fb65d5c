import type { TopologyComponent, TopologyResponse } from '@opsdeck/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  chooseMenuOption,
  selectMenuOptions,
  selectMenuText,
} from '../../../components/select-menu/select-menu-test-helpers';
import { VIRTUALIZE_FROM_CARDS } from './card-grid';
import { TopologyPage } from './topology-page';

function component(index: number, overrides: Partial<TopologyComponent> = {}): TopologyComponent {
  const id = `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
  return {
    id,
    topology_id: null,
    parent_id: null,
    name: `card-${String(index).padStart(4, '0')}`,
    type: 'Service',
    icon: null,
    owner: null,
    namespace: 'default',
    text: null,
    tooltip: null,
    labels: {},
    properties: [],
    health: 'healthy',
    status: null,
    status_reason: null,
    hidden: false,
    order: null,
    path: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    children: { healthy: 0, unhealthy: 0, warning: 0, unknown: 0 },
    checks: [],
    incidents: 0,
    configs: [],
    relationships: [],
    ...overrides,
  };
}

let components: TopologyComponent[] = [];
let requests: string[] = [];

beforeEach(() => {
  requests = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      requests.push(url);
      const body: TopologyResponse = {
        components,
        healthStatuses: ['healthy', 'unhealthy', 'warning', 'unknown'],
        teams: ['core'],
        tags: {},
        types: ['Database', 'Service'],
      };
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function Location() {
  const location = useLocation();
  return <output aria-label="Location">{`${location.pathname}${location.search}`}</output>;
}

function renderPage(entry = '/topology') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[entry]}>
        <TopologyPage />
        <Location />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('TopologyPage', () => {
  it('filters by type, health and sort through SelectMenus that write the URL and the request', async () => {
    components = [component(1), component(2, { name: 'db', type: 'Database' })];
    const { container } = renderPage();
    expect(await screen.findByRole('article', { name: 'db' })).toBeTruthy();
    expect(selectMenuText(container, 'Type')).toBe('All');
    expect(await selectMenuOptions(container, 'Type')).toEqual(['All', 'Database', 'Service']);
    expect(await selectMenuOptions(container, 'Health')).toEqual([
      'All',
      'healthy',
      'unhealthy',
      'warning',
      'unknown',
    ]);

    await chooseMenuOption(container, 'Type', 'Database');
    expect(screen.getByRole('status', { name: 'Location' }).textContent).toBe('/topology?type=Database');
    await vi.waitFor(() => expect(requests.at(-1)).toContain('type=Database'));

    await chooseMenuOption(container, 'Sort by', 'Health');
    await chooseMenuOption(container, 'Order', 'Descending');
    await vi.waitFor(() => expect(requests.at(-1)).toContain('sortBy=health'));
    expect(requests.at(-1)).toContain('sortOrder=desc');

    await chooseMenuOption(container, 'Type', 'All');
    expect(screen.getByRole('status', { name: 'Location' }).textContent).not.toContain('type=');
  });

  it('reads its filters back from the URL', async () => {
    components = [component(1)];
    const { container } = renderPage('/topology?type=Service&status=warning&sortOrder=desc');
    await screen.findByRole('article', { name: 'card-0001' });
    expect(selectMenuText(container, 'Type')).toBe('Service');
    expect(selectMenuText(container, 'Health')).toBe('warning');
    expect(selectMenuText(container, 'Order')).toBe('Descending');
    expect(requests[0]).toContain('status=warning');
  });

  it('shows on a card its children by health, linked checks and open incidents', async () => {
    components = [
      component(1, {
        children: { healthy: 2, unhealthy: 1, warning: 0, unknown: 0 },
        checks: [
          { id: 'c1', name: 'ping', status: 'healthy' },
          { id: 'c2', name: 'http', status: 'unhealthy' },
        ],
        incidents: 1,
      }),
    ];
    renderPage();
    const card = await screen.findByRole('article', { name: 'card-0001' });
    expect(card.textContent).toContain('1 unhealthy · 2 healthy');
    expect(card.textContent).toContain('2 checks');
    expect(card.textContent).toContain('1 incident');
    expect(
      within(card)
        .getByRole('link', { name: /card-0001/ })
        .getAttribute('href'),
    ).toBe(`/topology/${components[0].id}`);
  });

  it('asks without hidden components when showHiddenComponents=no, with them by default', async () => {
    components = [component(1)];
    renderPage('/topology?showHiddenComponents=no');
    await screen.findByRole('article', { name: 'card-0001' });
    expect(requests[0]).toContain('hidden=false');
    cleanup();
    requests = [];
    renderPage('/topology');
    await screen.findByRole('article', { name: 'card-0001' });
    expect(requests[0]).not.toContain('hidden=');
  });

  it('says so when no component matches', async () => {
    components = [];
    renderPage();
    expect(await screen.findByText('No components found')).toBeTruthy();
  });

  it('mounts only the rows near the viewport of a long list, and scrolling brings later cards in', async () => {
    components = Array.from({ length: 1000 }, (_, index) => component(index + 1));
    renderPage();
    await screen.findByRole('article', { name: 'card-0001' }, { timeout: 10_000 });
    const section = screen.getByRole('region', { name: 'Components' });
    expect(section.getAttribute('data-card-count')).toBe('1000');
    const mounted = within(section).getAllByRole('article');
    expect(mounted.length).toBeGreaterThan(0);
    expect(mounted.length).toBeLessThan(VIRTUALIZE_FROM_CARDS);
    expect(mounted[0].getAttribute('aria-setsize')).toBe('1000');
    expect(within(section).queryByRole('article', { name: 'card-0900' })).toBeNull();
    // The spacer below the mounted rows keeps the page as tall as all 1,000 cards.
    expect(parseFloat(section.style.paddingBottom)).toBeGreaterThan(50_000);

    await act(async () => {
      window.scrollY = 900 * 144;
      window.dispatchEvent(new Event('scroll'));
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(within(section).getByRole('article', { name: 'card-0901' })).toBeTruthy();
    expect(within(section).queryByRole('article', { name: 'card-0001' })).toBeNull();
  });
});
