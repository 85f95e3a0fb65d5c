import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  chooseMenuOption,
  selectMenuOptions,
  selectMenuText,
} from '../../../components/select-menu/select-menu-test-helpers';
import { AppToaster } from '../../../components/toasts/app-toaster';
import { AccessProvider } from '../../../lib/permissions';
import { AddSilencePage } from './add-silence-page';
import { NotificationHistoryPage } from './notification-history-page';
import { NotificationRuleEditor } from './notification-rule-editor';

interface Call {
  method: string;
  url: URL;
  body: unknown;
}
let calls: Call[] = [];

const RUN_ID = '9e5e0000-0000-4000-8000-000000000001';
const HISTORY_ROW = {
  id: 'h-1',
  notification_id: 'n-1',
  parent_id: null,
  status: 'sent',
  source_event: 'check.failed',
  resource_id: 'c-1',
  resource_type: 'check',
  count: 1,
  first_observed: '2026-11-28T10:00:00Z',
  error: null,
  duration_millis: 12,
  person_id: null,
  team_id: null,
  connection_id: null,
  playbook_run_id: RUN_ID,
  silenced_by: null,
  created_at: '2026-11-28T10:00:00Z',
  notification: { id: 'n-1', name: 'heal-on-failure', namespace: 'default' },
  resource: { id: 'c-1', name: 'orders-api' },
  recipient: 'playbook ops/restart',
  title: 'Check orders-api has failed',
};

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

beforeAll(() => {
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
});

beforeEach(() => {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const method = (init.method ?? 'GET').toUpperCase();
      calls.push({ method, url, body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (url.pathname === '/api/notification/summary') return json({ results: [HISTORY_ROW], total: 1 });
      if (url.pathname === '/api/db/playbooks') {
        return json([
          { id: 'p-1', name: 'restart', namespace: 'ops' },
          { id: 'p-2', name: 'scale-up', namespace: 'ops' },
        ]);
      }
      if (url.pathname === '/api/db/checks') return json([{ id: 'c-1', name: 'orders-api' }]);
      if (url.pathname === '/api/db/config_items') return json([{ id: 'ci-1', name: 'web-pod' }]);
      if (method === 'POST' && url.pathname === '/api/notification/silence') return json({ id: 's-1' }, 201);
      if (method === 'POST' && url.pathname === '/api/notification/rules') {
        return json({ id: 'n-new', name: 'heal', namespace: 'default' }, 201);
      }
      return json({ message: `unexpected ${method} ${url.pathname}` }, 500);
    }),
  );
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  act(() => toast.remove());
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderAt(path: string, element: React.ReactNode, routePath = '*') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <AccessProvider value={{ status: 'signed-in', roles: ['admin'], permissions: [] }}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path={routePath} element={element} />
            <Route path="/playbooks/runs/:id" element={<p>Run page</p>} />
          </Routes>
        </MemoryRouter>
      </AccessProvider>
      <AppToaster />
    </QueryClientProvider>,
  );
}

const summaryRequests = () =>
  calls.filter((call) => call.url.pathname === '/api/notification/summary').map((call) => call.body);

describe('NotificationHistoryPage', () => {
  it('filters by status, resource type and range from SelectMenus', async () => {
    const { container } = renderAt('/notifications', <NotificationHistoryPage />, '/notifications');
    await screen.findByRole('table', { name: 'Notification history' });
    expect(selectMenuText(container, 'Status')).toBe('All statuses');
    expect(selectMenuText(container, 'Time range')).toBe('Last 7 days');
    expect(await selectMenuOptions(container, 'Resource type')).toEqual([
      'All resource types',
      'check',
      'config',
      'component',
      'incident',
      'playbook_run',
    ]);
    await chooseMenuOption(container, 'Status', 'failed');
    await chooseMenuOption(container, 'Resource type', 'check');
    await waitFor(() =>
      expect(summaryRequests().at(-1)).toMatchObject({ status: 'failed', resourceType: 'check' }),
    );
    await chooseMenuOption(container, 'Time range', 'All time');
    await waitFor(() => expect(summaryRequests().at(-1)).not.toHaveProperty('from'));
    expect(selectMenuText(container, 'Status')).toBe('failed');
  });

  it('/notifications/resource/{resourceId} asks only for what was sent about that resource', async () => {
    renderAt(
      '/notifications/resource/c-1',
      <NotificationHistoryPage />,
      '/notifications/resource/:resourceId',
    );
    expect(await screen.findByText('What was sent about orders-api')).toBeTruthy();
    expect(summaryRequests().length).toBeGreaterThan(0);
    // Spec core §9: the notification list pages by 1000.
    for (const body of summaryRequests()) expect(body).toMatchObject({ resourceId: 'c-1', pageSize: 1000 });
  });

  it("links a playbook recipient's row to its run", async () => {
    renderAt('/notifications', <NotificationHistoryPage />, '/notifications');
    const table = await screen.findByRole('table', { name: 'Notification history' });
    const row = within(table).getByRole('row', { name: /heal-on-failure/ });
    expect(row.textContent).toContain('playbook ops/restart');
    const link = within(row).getByRole('link', { name: 'View run' });
    expect(link.getAttribute('href')).toBe(`/playbooks/runs/${RUN_ID}`);
    fireEvent.click(link);
    expect(await screen.findByText('Run page')).toBeTruthy();
    // The click went to the link, not to the row (no detail dialog opened).
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('AddSilencePage', () => {
  it('picks the resource type and the resource from SelectMenus and saves the silence', async () => {
    const { container } = renderAt('/notifications/silences/add', <AddSilencePage />);
    expect(selectMenuText(container, 'Resource type')).toBe('Check');
    expect(await selectMenuOptions(container, 'Resource type')).toEqual([
      'Check',
      'Catalog item',
      'Component',
    ]);
    await chooseMenuOption(container, 'Resource type', 'Catalog item');
    // 'Resource type' starts with 'Resource' too: look inside the Resource field only.
    const resource = screen.getByText('Resource', { selector: 'label' }).closest('div')!;
    await waitFor(() => expect(selectMenuText(resource, 'Resource')).toBe('None'));
    await waitFor(async () =>
      expect(await selectMenuOptions(resource, 'Resource')).toEqual(['None', 'web-pod']),
    );
    await chooseMenuOption(resource, 'Resource', 'web-pod');
    expect(selectMenuText(resource, 'Resource')).toBe('web-pod');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Indefinitely' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls.find((call) => call.url.pathname === '/api/notification/silence')?.body).toMatchObject({
        config_id: 'ci-1',
        until: null,
      }),
    );
  });
});

describe('NotificationRuleEditor', () => {
  it('sets the playbook recipient in the YAML from the playbooks and saves it', async () => {
    const { container } = renderAt('/notifications/rules?id=new', <NotificationRuleEditor id="new" />);
    await waitFor(() => expect(selectMenuText(container, 'Playbook recipient')).toBe('None'));
    await waitFor(async () =>
      expect(await selectMenuOptions(container, 'Playbook recipient')).toEqual([
        'None',
        'ops/restart',
        'ops/scale-up',
      ]),
    );
    await chooseMenuOption(container, 'Playbook recipient', 'ops/restart');
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Spec' }).textContent).toContain('playbook: ops/restart'),
    );
    fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: 'heal' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls.find((call) => call.url.pathname === '/api/notification/rules')?.body).toMatchObject({
        name: 'heal',
        spec: { events: ['check.failed'], to: { email: 'oncall@example.com', playbook: 'ops/restart' } },
      }),
    );
    await chooseMenuOption(container, 'Playbook recipient', 'None');
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Spec' }).textContent).not.toContain('playbook:'),
    );
  });
});
