import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { selectMenuOptions, selectMenuText } from '../../../components/select-menu/select-menu-test-helpers';
import type * as ToastsModule from '../../../components/toasts/toasts';
import { CreateTokenDialog } from './create-token-dialog';
import { CreateTokenFlow } from './create-token-flow';
import { TokenCreatedDialog } from './token-created-dialog';
import { TokensPage } from './tokens-page';

const toasts = vi.hoisted(() => ({ success: [] as unknown[], error: [] as unknown[] }));

vi.mock('../../../components/toasts/toasts', async (importOriginal) => {
  const original = await importOriginal<typeof ToastsModule>();
  return {
    ...original,
    showSuccessToast: (message: unknown) => {
      toasts.success.push(message);
      return 'id';
    },
    showErrorToast: (error: unknown) => {
      toasts.error.push(typeof error === 'string' ? error : original.toastErrorMessage(error));
      return 'id';
    },
  };
});

const TOKEN = `opsdeck_${'a'.repeat(32)}_${'S3cr3t-'.repeat(7)}`;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

interface Sent {
  url: string;
  method: string;
  body: unknown;
}
let sent: Sent[];
let answer: (request: Sent) => Response | Promise<Response>;

function wrapper(children: ReactNode) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

let clipboardText: string | undefined;

beforeEach(() => {
  toasts.success.length = 0;
  toasts.error.length = 0;
  sent = [];
  clipboardText = undefined;
  answer = () => json({ payload: { token: TOKEN } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const request = {
        url: input,
        method: init?.method ?? 'GET',
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      };
      sent.push(request);
      return answer(request);
    }),
  );
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: {
      writeText: vi.fn(async (text: string) => {
        clipboardText = text;
      }),
    },
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Create new token dialog', () => {
  function renderDialog(preset?: 'mcp') {
    const onCreated = vi.fn();
    const onClose = vi.fn();
    render(wrapper(<CreateTokenDialog open onClose={onClose} onCreated={onCreated} preset={preset} />));
    return { onCreated, onClose };
  }

  // The form validates asynchronously (react-hook-form), so the message is awaited.
  it('requires a name that is not blank, with the spec message', async () => {
    renderDialog();
    expect(screen.getByRole('dialog', { name: 'Create new token' })).toBeTruthy();
    const create = screen.getByRole('button', { name: 'Create' });
    expect((create as HTMLButtonElement).disabled).toBe(true);
    const name = screen.getByLabelText('Name');
    fireEvent.change(name, { target: { value: '   ' } });
    fireEvent.blur(name);
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect((create as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(name, { target: { value: 'ci' } });
    await waitFor(() => expect(screen.queryByText('Name is required')).toBeNull());
    expect((create as HTMLButtonElement).disabled).toBe(false);
  });

  it('offers expiry never only, and the spec scope objects and actions', async () => {
    renderDialog();
    expect(selectMenuText(document.body, 'Expiry')).toBe('Never');
    expect(await selectMenuOptions(document.body, 'Expiry')).toEqual(['Never']);
    const boxes = screen.getAllByRole('checkbox').map((box) => box.getAttribute('aria-label'));
    expect(boxes).toEqual([
      'mcp:*',
      'canaries:read',
      'canaries:create',
      'canaries:update',
      'canaries:delete',
      'catalog:read',
      'catalog:create',
      'catalog:update',
      'catalog:delete',
      'application:read',
      'application:create',
      'application:update',
      'application:delete',
      'playbooks:read',
      'playbooks:create',
      'playbooks:update',
      'playbooks:delete',
      'playbooks:playbook:approve',
      'playbooks:playbook:run',
      'notification:read',
      'notification:create',
      'notification:update',
      'notification:delete',
    ]);
  });

  it("posts name, expiry and scopes, shows 'Creating...', then hands over the token", async () => {
    let release: () => void = () => undefined;
    answer = () =>
      new Promise<Response>((resolve) => {
        release = () => resolve(json({ payload: { token: TOKEN } }));
      });
    const { onCreated } = renderDialog();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: '  deploy bot ' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'playbooks:playbook:run' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'catalog:read' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    const creating = await screen.findByRole('button', { name: 'Creating...' });
    expect((creating as HTMLButtonElement).disabled).toBe(true);
    expect(sent).toEqual([
      {
        url: '/api/auth/create_token',
        method: 'POST',
        body: {
          name: 'deploy bot',
          expiry: 'never',
          scope: [
            { subject: '', object: 'catalog', action: 'read' },
            { subject: '', object: 'playbooks', action: 'playbook:run' },
          ],
        },
      },
    ]);
    await act(async () => release());
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith(TOKEN));
    expect(toasts.success).toEqual(['Token created successfully']);
  });

  it("toasts the server's error, or 'Failed to create token'", async () => {
    answer = () => json({ error: 'A token cannot create tokens: sign in to create one' }, 403);
    const { onCreated } = renderDialog();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(toasts.error).toEqual(['A token cannot create tokens: sign in to create one']),
    );
    answer = () => new Response('', { status: 500 });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(toasts.error).toHaveLength(2));
    expect(toasts.error[1]).toBe('Failed to create token');
    expect(onCreated).not.toHaveBeenCalled();
  });

  it('starts with the mcp:* scope and a name for Setup MCP', () => {
    renderDialog('mcp');
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('MCP');
    expect((screen.getByRole('checkbox', { name: 'mcp:*' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getAllByRole('checkbox').filter((box) => (box as HTMLInputElement).checked)).toHaveLength(
      1,
    );
  });
});

describe('Token Created Successfully dialog', () => {
  it('masks the token until revealed, and copies it', async () => {
    render(<TokenCreatedDialog token={TOKEN} onClose={() => undefined} />);
    expect(screen.getByRole('dialog', { name: 'Token Created Successfully' })).toBeTruthy();
    const shown = screen.getByLabelText('Token');
    expect(shown.textContent).not.toContain(TOKEN);
    expect(shown.textContent).toMatch(/^•+$/);
    fireEvent.click(screen.getByRole('button', { name: 'Show token' }));
    expect(shown.textContent).toBe(TOKEN);
    fireEvent.click(screen.getByRole('button', { name: 'Hide token' }));
    expect(shown.textContent).not.toContain(TOKEN);
    fireEvent.click(screen.getByRole('button', { name: 'Copy token' }));
    await waitFor(() => expect(clipboardText).toBe(TOKEN));
    expect(toasts.success).toEqual(['Token copied to clipboard']);
    expect(screen.queryByRole('tab')).toBeNull();
  });

  it('says when the clipboard is missing or refuses', async () => {
    render(<TokenCreatedDialog token={TOKEN} onClose={() => undefined} />);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: undefined });
    fireEvent.click(screen.getByRole('button', { name: 'Copy token' }));
    await waitFor(() => expect(toasts.error).toEqual(['Clipboard not available']));
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: () => Promise.reject(new Error('denied')) },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Copy token' }));
    await waitFor(() =>
      expect(toasts.error).toEqual(['Clipboard not available', 'Failed to copy to clipboard']),
    );
  });

  it('shows the MCP client configurations in tabs, Direct HTTP being an initialize curl', async () => {
    render(
      <TokenCreatedDialog
        token={TOKEN}
        mcp
        backendBase="https://ops.example.com/"
        onClose={() => undefined}
      />,
    );
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Claude Desktop',
      'Claude Code',
      'VS Code Copilot',
      'Cline',
      'Continue.dev',
      'Zed Editor',
      'Direct HTTP',
    ]);
    const desktop = screen.getByLabelText('Claude Desktop configuration');
    expect(desktop.textContent).toContain('https://ops.example.com/mcp');
    expect(desktop.textContent).not.toContain(TOKEN);
    fireEvent.click(screen.getByRole('tab', { name: 'Direct HTTP' }));
    const curl = await screen.findByLabelText('Direct HTTP configuration');
    expect(curl.textContent).toContain("curl -X POST 'https://ops.example.com/mcp'");
    expect(curl.textContent).toContain('"method":"initialize"');
    expect(curl.textContent).toContain('"protocolVersion":"2024-11-05"');
    expect(curl.textContent).not.toContain(TOKEN);
    fireEvent.click(screen.getByRole('button', { name: 'Show token' }));
    expect(curl.textContent).toContain(`Authorization: Bearer ${TOKEN}`);
    fireEvent.click(screen.getByRole('button', { name: 'Hide token' }));
    fireEvent.click(screen.getByRole('button', { name: 'Copy Direct HTTP configuration' }));
    await waitFor(() => expect(clipboardText).toContain(`-H 'Authorization: Bearer ${TOKEN}'`));
    expect(toasts.success).toEqual(['Copied to clipboard']);
  });
});

describe('the creation flow', () => {
  it('goes from the form to the success dialog, and forgets the token on close', async () => {
    const onClose = vi.fn();
    const view = render(wrapper(<CreateTokenFlow open preset="mcp" onClose={onClose} />));
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    const success = await screen.findByRole('dialog', { name: 'Token Created Successfully' });
    expect(screen.queryByRole('dialog', { name: 'Create new token' })).toBeNull();
    expect(within(success).getAllByRole('tab')).toHaveLength(7);
    expect(sent[0]?.body).toEqual({
      name: 'MCP',
      expiry: 'never',
      scope: [{ subject: '', object: 'mcp', action: '*' }],
    });
    fireEvent.click(within(success).getByRole('button', { name: 'Done' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    // Opened again, the flow starts over at the form: the token is not shown again.
    view.rerender(wrapper(<CreateTokenFlow open preset="mcp" onClose={onClose} />));
    await screen.findByRole('dialog', { name: 'Create new token' });
    expect(screen.queryByRole('dialog', { name: 'Token Created Successfully' })).toBeNull();
  });
});

describe('Tokens page', () => {
  const rows = [
    {
      id: 't1',
      name: 'ci',
      scope: [{ subject: '', object: 'catalog', action: 'read' }],
      created_at: '2026-11-20T10:00:00.000Z',
      expires_at: null,
      person: { id: 'p1', name: 'Ann Admin', email: 'ann@example.com', avatar: null },
      created_by: null,
    },
    {
      id: 't2',
      name: 'laptop',
      scope: [],
      created_at: '2026-11-19T10:00:00.000Z',
      expires_at: null,
      person: { id: 'p1', name: 'Ann Admin', email: 'ann@example.com', avatar: null },
      created_by: null,
    },
  ];

  it('lists the tokens and deletes one after confirmation', async () => {
    let listed = rows;
    answer = (request) => {
      if (request.method === 'DELETE') {
        listed = rows.filter((row) => row.id !== 't1');
        return json({ message: 'Token deleted' });
      }
      return json({ payload: listed });
    };
    const { MemoryRouter } = await import('react-router');
    render(
      wrapper(
        <MemoryRouter>
          <TokensPage />
        </MemoryRouter>,
      ),
    );
    await screen.findByText('ci');
    const table = screen.getByRole('table', { name: 'Tokens' });
    expect(within(table).getByText('catalog:read')).toBeTruthy();
    expect(within(table).getByText("All of the owner's rights")).toBeTruthy();
    expect(within(table).getAllByText('Never')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Delete token ci' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm.textContent).toContain("Are you sure you want to delete the token 'ci'?");
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toasts.success).toEqual(['ci deleted successfully']));
    expect(sent.find((request) => request.method === 'DELETE')?.url).toBe('/api/auth/token/t1');
    await waitFor(() => expect(screen.queryByText('ci')).toBeNull());
    expect(screen.getByText('laptop')).toBeTruthy();
  });

  it("opens 'Create new token'", async () => {
    answer = () => json({ payload: [] });
    const { MemoryRouter } = await import('react-router');
    render(
      wrapper(
        <MemoryRouter>
          <TokensPage />
        </MemoryRouter>,
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Create new token' }));
    expect(await screen.findByRole('dialog', { name: 'Create new token' })).toBeTruthy();
  });
});
