import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  chooseMenuOption,
  selectMenuOptions,
  selectMenuText,
} from '../../../components/select-menu/select-menu-test-helpers';
import type { PermissionResourcePreset, PermissionSummary } from '../lib/permission-form';
import { permissionSummaryRow } from '../testing/permission-summary-row';
import { DELETE_PERMISSION_QUESTION, PermissionModal, PERMISSIONS_REFERENCE_PATH } from './permission-modal';

// The modal's own behaviour (settings §2.2, §4, §5): tab switches clear what they should, the
// actions follow the resource, a KubernetesCRD rule is read-only, a preset resource is fixed,
// and what a save sends. The server checks every row again (permissions-manager.int.test.ts).

const ID = {
  team: '00000000-0000-4000-8000-000000000011',
  person: '00000000-0000-4000-8000-000000000012',
  config: '00000000-0000-4000-8000-000000000013',
  playbook: '00000000-0000-4000-8000-000000000014',
  permission: '00000000-0000-4000-8000-000000000015',
};

const OPTIONS: Record<string, { id: string; name: string }[]> = {
  teams: [{ id: ID.team, name: 'Responders' }],
  people: [{ id: ID.person, name: 'Pat Person' }],
  config_items: [{ id: ID.config, name: 'web-pod' }],
  playbooks: [{ id: ID.playbook, name: 'restart' }],
  notifications: [],
  components: [],
  connections: [],
  agents: [],
};

interface Sent {
  url: string;
  method: string;
  body: unknown;
}
let sent: Sent[];

beforeEach(() => {
  sent = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      if (method !== 'GET') {
        sent.push({
          url: input,
          method,
          body: typeof init?.body === 'string' ? JSON.parse(init.body) : null,
        });
        return new Response(null, { status: 204 });
      }
      const relation = /^\/api\/db\/([a-z_]+)/.exec(input)?.[1] ?? '';
      return new Response(JSON.stringify(OPTIONS[relation] ?? []), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function row(overrides: Partial<PermissionSummary>): PermissionSummary {
  return permissionSummaryRow({
    id: ID.permission,
    subject: ID.person,
    person_id: ID.person,
    object: 'canaries',
    description: 'existing',
    subject_name: 'Pat Person',
    ...overrides,
  });
}

async function open(
  permission: PermissionSummary | null,
  options: { canWrite?: boolean; preset?: PermissionResourcePreset } = {},
) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const onClose = vi.fn();
  render(
    <QueryClientProvider client={client}>
      <PermissionModal
        open
        permission={permission}
        canWrite={options.canWrite ?? true}
        preset={options.preset}
        onClose={onClose}
      />
    </QueryClientProvider>,
  );
  return { dialog: await screen.findByRole('dialog'), onClose };
}

const tab = (dialog: HTMLElement, list: 'Subject' | 'Resource', name: string) =>
  within(within(dialog).getByRole('tablist', { name: list })).getByRole('tab', { name });

// Each test opens menus several times: slow on a loaded machine.
describe('PermissionModal', { timeout: 90_000 }, () => {
  it('links to the permissions reference', async () => {
    const { dialog } = await open(null);
    expect(within(dialog).getByRole('link', { name: 'Permissions reference' }).getAttribute('href')).toBe(
      PERMISSIONS_REFERENCE_PATH,
    );
  });

  it('switching the subject tab clears the subject; the resource tab clears the target (settings §4)', async () => {
    const { dialog } = await open(null);
    fireEvent.click(tab(dialog, 'Subject', 'Team'));
    await chooseMenuOption(dialog, 'Team', 'Responders');
    expect(selectMenuText(dialog, 'Team')).toBe('Responders');
    fireEvent.click(tab(dialog, 'Subject', 'Person'));
    await waitFor(() => expect(selectMenuText(dialog, 'Person')).toBe('Select...'));

    fireEvent.click(tab(dialog, 'Resource', 'Playbook'));
    await chooseMenuOption(dialog, 'Playbook', 'restart');
    expect(await selectMenuOptions(dialog, 'Action')).toContain('playbook:approve');
    await chooseMenuOption(dialog, 'Action', 'playbook:run');
    fireEvent.click(tab(dialog, 'Resource', 'Catalog'));
    await waitFor(() => expect(selectMenuText(dialog, 'Catalog')).toBe('Select...'));
    // The playbook verb is not offered off playbooks, so the action falls back to read.
    expect(selectMenuText(dialog, 'Action')).toBe('read');
    expect(await selectMenuOptions(dialog, 'Action')).not.toContain('playbook:run');
  });

  it('keeps an action the new resource still offers', async () => {
    const { dialog } = await open(null);
    await chooseMenuOption(dialog, 'Object', 'canaries');
    await chooseMenuOption(dialog, 'Action', 'delete');
    fireEvent.click(tab(dialog, 'Resource', 'Catalog'));
    await waitFor(() => expect(selectMenuText(dialog, 'Catalog')).toBe('Select...'));
    expect(selectMenuText(dialog, 'Action')).toBe('delete');
  });

  it('requires a subject and a resource (settings §5) and sends nothing until they are chosen', async () => {
    const { dialog } = await open(null);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(dialog).getAllByText('This field is required')).toHaveLength(2));
    expect(sent).toEqual([]);
  });

  it('the Global notification object offers selector fields and saves them as an object selector', async () => {
    const { dialog, onClose } = await open(null);
    fireEvent.click(tab(dialog, 'Subject', 'Person'));
    await chooseMenuOption(dialog, 'Person', 'Pat Person');
    expect(within(dialog).queryByLabelText('Notification name')).toBeNull();
    await chooseMenuOption(dialog, 'Object', 'notification');
    fireEvent.change(within(dialog).getByLabelText('Notification name'), { target: { value: 'pager-*' } });
    fireEvent.change(within(dialog).getByLabelText('Notification labels'), { target: { value: 'team=a' } });
    fireEvent.click(within(dialog).getByLabelText('Deny'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent).toEqual([
      {
        url: '/api/db/permissions',
        method: 'POST',
        body: expect.objectContaining({
          person_id: ID.person,
          object: null,
          object_selector: { notifications: [{ name: 'pager-*', labelSelector: 'team=a' }] },
          deny: true,
        }),
      },
    ]);
  });

  it('a KubernetesCRD permission is read-only: no Save, no Delete, its fields disabled', async () => {
    const { dialog } = await open(row({ source: 'KubernetesCRD' }));
    expect(within(dialog).getByRole('note').textContent).toContain('KubernetesCRD');
    expect(within(dialog).queryByRole('button', { name: 'Save' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Delete' })).toBeNull();
    // Disabled by their fieldset, as the browser sees them.
    expect(within(dialog).getByLabelText('Deny').matches(':disabled')).toBe(true);
    expect(within(dialog).getByLabelText('Description').matches(':disabled')).toBe(true);
    expect(
      within(dialog)
        .getByRole('button', { name: /^Action/ })
        .matches(':disabled'),
    ).toBe(true);
  });

  it('a preset resource is a fixed display and is what a new permission targets', async () => {
    const { dialog, onClose } = await open(null, {
      preset: { tab: 'Playbook', target: ID.playbook, label: 'Playbook: restart' },
    });
    expect(within(dialog).queryByRole('tablist', { name: 'Resource' })).toBeNull();
    within(dialog).getByText('Playbook: restart');
    fireEvent.click(tab(dialog, 'Subject', 'Role'));
    await chooseMenuOption(dialog, 'Role', 'guest');
    await chooseMenuOption(dialog, 'Action', 'playbook:run');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent[0]?.body).toMatchObject({
      subject_type: 'group',
      subject: 'guest',
      playbook_id: ID.playbook,
      action: 'playbook:run',
    });
  });

  it('an edit of a canary target shows it fixed and leaves it as saved', async () => {
    const { dialog, onClose } = await open(
      row({ object: null, canary_id: ID.config, canary: { id: ID.config, name: 'web' } }),
    );
    within(dialog).getByText('Canary: web');
    fireEvent.change(within(dialog).getByLabelText('Description'), { target: { value: 'changed' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent[0]?.url).toBe(`/api/db/permissions?id=eq.${ID.permission}`);
    expect(sent[0]?.method).toBe('PATCH');
    expect(sent[0]?.body).toMatchObject({ description: 'changed' });
    expect(sent[0]?.body).not.toHaveProperty('canary_id');
  });

  it('Delete asks the spec’s question before deleting', async () => {
    const { dialog, onClose } = await open(row({}));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm.textContent).toContain(DELETE_PERMISSION_QUESTION);
    expect(sent).toEqual([]);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent).toEqual([
      { url: `/api/db/permissions?id=eq.${ID.permission}`, method: 'DELETE', body: null },
    ]);
  });
});
