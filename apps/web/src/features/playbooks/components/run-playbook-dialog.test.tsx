import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  chooseMenuOption,
  selectMenuOptions,
  selectMenuText,
} from '../../../components/select-menu/select-menu-test-helpers';
import { RunPlaybookDialog } from './run-playbook-dialog';

let runBodies: unknown[] = [];

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

beforeEach(() => {
  runBodies = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      if (url.pathname === '/api/playbook/pb-1/params')
        return json({
          params: [
            {
              name: 'mode',
              label: 'Mode',
              type: 'list',
              required: true,
              properties: {
                options: [
                  { label: 'Quick', value: 'quick' },
                  { label: 'Deep', value: 'deep' },
                ],
              },
            },
            { name: 'memory', label: 'Memory', type: 'bytes', default: '512Mi' },
          ],
        });
      if (url.pathname === '/api/playbook/run') {
        runBodies.push(JSON.parse(String(init.body)));
        return json({ run_id: '00000000-0000-0000-0000-000000000001', starts_at: new Date().toISOString() });
      }
      return json({ message: `unexpected ${url.pathname}` }, 404);
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the run dialog', () => {
  it('picks a list parameter and a bytes unit from SelectMenus and sends them', async () => {
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <RunPlaybookDialog
            playbook={{ id: 'pb-1', title: 'Diagnose', name: 'diagnose' }}
            preset={{ kind: 'check', id: 'check-1', name: 'closed-port' }}
            onClose={() => undefined}
          />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const dialog = await screen.findByRole('dialog');
    await screen.findByText('Mode', {}, { timeout: 20_000 });
    expect(selectMenuText(dialog, 'Mode')).toBe('Select…');
    expect(await selectMenuOptions(dialog, 'Mode')).toEqual(['Quick', 'Deep']);
    await chooseMenuOption(dialog, 'Mode', 'Deep');
    expect(selectMenuText(dialog, 'Mode')).toBe('Deep');
    expect(selectMenuText(dialog, 'Memory unit')).toBe('Mi');
    await chooseMenuOption(dialog, 'Memory unit', 'Gi');
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(runBodies).toHaveLength(1));
    expect(runBodies[0]).toMatchObject({
      id: 'pb-1',
      check_id: 'check-1',
      params: { mode: 'deep', memory: '512Gi' },
    });
  }, 60_000);
});
