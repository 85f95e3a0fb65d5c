import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  chooseMenuOption,
  selectMenuOptions,
  selectMenuText,
} from '../../../components/select-menu/select-menu-test-helpers';
import { AppToaster } from '../../../components/toasts/app-toaster';
import { AccessProvider } from '../../../lib/permissions';
import type { IncidentLinkTarget } from '../lib/incident-link-form';
import { AttachAsEvidenceButton, IncidentLinkDialog } from './incident-link-dialog';

const INCIDENTS = [
  { id: 'inc-two', title: 'Two ideas', status: 'open' },
  { id: 'inc-one', title: 'One idea', status: 'investigating' },
];
const HYPOTHESES: Record<string, { id: string; title: string; type: string }[]> = {
  'inc-two': [
    { id: 'h-a', title: 'Idea A', type: 'root' },
    { id: 'h-b', title: 'Idea B', type: 'root' },
  ],
  'inc-one': [{ id: 'h-only', title: 'Only idea', type: 'root' }],
};

interface Call {
  method: string;
  url: string;
  body: unknown;
}
let calls: Call[] = [];
let properties: {
  name: string;
  value: string;
  source: string;
  type: string | null;
  description: string | null;
}[] = [];
let failEvidence = false;
let holdEvidence: Promise<void> | undefined;

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
  properties = [];
  failEvidence = false;
  holdEvidence = undefined;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const method = (init.method ?? 'GET').toUpperCase();
      calls.push({ method, url: input, body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (url.pathname === '/api/properties') return json(properties);
      if (method === 'GET' && url.pathname === '/api/db/incidents') {
        const title = url.searchParams.get('title');
        const text = title?.replace(/^ilike\.\*|\*$/g, '').toLowerCase();
        return json(INCIDENTS.filter((i) => !text || i.title.toLowerCase().includes(text)));
      }
      if (method === 'GET' && url.pathname === '/api/db/hypotheses') {
        const id = url.searchParams.get('incident_id')!.replace('eq.', '');
        return json(HYPOTHESES[id] ?? []);
      }
      if (method === 'POST' && url.pathname === '/api/db/incidents') return json([{ id: 'inc-new' }], 201);
      if (method === 'POST' && url.pathname === '/api/db/hypotheses') return json([{ id: 'h-new' }], 201);
      if (method === 'POST' && url.pathname === '/api/db/evidences') {
        if (holdEvidence) await holdEvidence;
        if (failEvidence) return json({ code: 'P0001', message: 'A check evidence needs check_id' }, 400);
        return json([{ id: 'ev-1' }], 201);
      }
      return json({ message: 'unexpected' }, 500);
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

const CHECK: IncidentLinkTarget = { kind: 'check', checkId: 'chk-1', name: 'closed-port' };

function renderWith(ui: React.ReactNode, roles: string[] = ['responder']) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <AccessProvider value={{ status: 'signed-in', roles, permissions: [] }}>
        <MemoryRouter>{ui}</MemoryRouter>
      </AccessProvider>
      <AppToaster />
    </QueryClientProvider>,
  );
}

/** The dialog as its owner shows it: closing it unmounts it (and the page behind is live again). */
function OwnedDialog({
  onClose,
  onLinked,
}: {
  onClose(): void;
  onLinked(linked: boolean, id?: string): void;
}) {
  const [open, setOpen] = useState(true);
  const close = () => {
    setOpen(false);
    onClose();
  };
  return <IncidentLinkDialog open={open} onClose={close} target={CHECK} onLinked={onLinked} />;
}

function renderDialog(onLinked = vi.fn(), onClose = vi.fn()) {
  renderWith(<OwnedDialog onClose={onClose} onLinked={onLinked} />);
  return { onLinked, onClose, dialog: screen.getByRole('dialog', { name: 'Link to incident' }) };
}

const posts = () => calls.filter((call) => call.method === 'POST');

const CREATE_INCIDENT = 'Create new incident';

async function chooseIncident(dialog: HTMLElement, option: string) {
  await waitFor(() => expect(selectMenuText(dialog, 'Incident')).not.toContain('Loading..'));
  await chooseMenuOption(dialog, 'Incident', option);
}

describe('IncidentLinkDialog', () => {
  it('asks for an incident before anything else', async () => {
    const { dialog } = renderDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Link' }));
    expect(await within(dialog).findByText('Must select or create an incident')).toBeTruthy();
    expect(posts()).toEqual([]);
  });

  it('asks a new incident for a severity and a type, defaulting them to Low and availability', async () => {
    const { dialog } = renderDialog();
    await chooseIncident(dialog, CREATE_INCIDENT);
    expect(selectMenuText(dialog, 'Severity')).toBe('Low');
    expect(selectMenuText(dialog, 'Type')).toBe('availability');
    expect(await selectMenuOptions(dialog, 'Severity')).toEqual([
      'Info',
      'Warning',
      'Low',
      'Medium',
      'High',
      'Blocker',
      'Critical',
    ]);
    // Without a title the new incident is refused at its title field, and nothing is written.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Link' }));
    expect(await within(dialog).findByText('Must select or create an incident')).toBeTruthy();
    expect(posts()).toEqual([]);
  });

  it('asks for a hypothesis with an existing incident that has several', async () => {
    const { dialog } = renderDialog();
    await chooseIncident(dialog, 'Two ideas (open)');
    await waitFor(() => expect(selectMenuText(dialog, 'Hypothesis')).toBe('Select a hypothesis'));
    expect(await selectMenuOptions(dialog, 'Hypothesis')).toEqual([
      'Idea A',
      'Idea B',
      'Create new hypothesis',
    ]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Link' }));
    expect(await within(dialog).findByText('Must select or create a hypothesis')).toBeTruthy();
    expect(posts()).toEqual([]);
  });

  it('selects the only hypothesis, clears it when the incident changes, and links', async () => {
    const { dialog, onLinked, onClose } = renderDialog();
    const hypothesis = () => selectMenuText(dialog, 'Hypothesis');
    await chooseIncident(dialog, 'One idea (investigating)');
    await waitFor(() => expect(hypothesis()).toBe('Only idea'));
    await chooseIncident(dialog, 'Two ideas (open)');
    await waitFor(() => expect(hypothesis()).toBe('Select a hypothesis'));
    await chooseIncident(dialog, 'One idea (investigating)');
    await waitFor(() => expect(hypothesis()).toBe('Only idea'));

    let release: () => void = () => {};
    holdEvidence = new Promise((resolve) => (release = resolve));
    fireEvent.change(within(dialog).getByLabelText('Description'), { target: { value: 'port 1 refused' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Link' }));
    expect(await within(dialog).findByRole('button', { name: 'Linking..' })).toBeTruthy();
    act(() => release());

    expect(await screen.findByText('Linked to incident successfully')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View incident' }).getAttribute('href')).toBe(
      '/incidents/inc-one',
    );
    expect(posts()).toEqual([
      {
        method: 'POST',
        url: '/api/db/evidences',
        body: {
          description: 'port 1 refused',
          evidence: { name: 'closed-port' },
          type: 'check',
          check_id: 'chk-1',
          hypothesis_id: 'h-only',
        },
      },
    ]);
    expect(onLinked).toHaveBeenCalledWith(true, 'inc-one');
    expect(onClose).toHaveBeenCalled();
  });

  it('creates the incident and its root hypothesis, then the evidence', async () => {
    const { dialog, onLinked } = renderDialog();
    await chooseIncident(dialog, CREATE_INCIDENT);
    fireEvent.change(within(dialog).getByLabelText('New incident title'), { target: { value: 'Port down' } });
    await chooseMenuOption(dialog, 'Severity', 'Critical');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Link' }));
    await waitFor(() => expect(onLinked).toHaveBeenCalledWith(true, 'inc-new'));
    expect(posts().map((call) => [call.url, call.body])).toEqual([
      [
        '/api/db/incidents',
        { title: 'Port down', severity: 'critical', type: 'availability', description: '' },
      ],
      [
        '/api/db/hypotheses',
        { incident_id: 'inc-new', title: 'Port down', status: 'possible', type: 'root' },
      ],
      [
        '/api/db/evidences',
        {
          description: 'closed-port',
          evidence: { name: 'closed-port' },
          type: 'check',
          check_id: 'chk-1',
          hypothesis_id: 'h-new',
        },
      ],
    ]);
  });

  it('reports a failed link to the callback with false and keeps the dialog open', async () => {
    failEvidence = true;
    const { dialog, onLinked, onClose } = renderDialog();
    await chooseIncident(dialog, 'Two ideas (open)');
    await waitFor(() => expect(selectMenuText(dialog, 'Hypothesis')).toBe('Select a hypothesis'));
    await chooseMenuOption(dialog, 'Hypothesis', 'Create new hypothesis');
    fireEvent.change(within(dialog).getByLabelText('New hypothesis'), { target: { value: 'Firewall' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Link' }));
    await waitFor(() => expect(onLinked).toHaveBeenCalledWith(false));
    expect(within(dialog).getByRole('alert').textContent).toBe('A check evidence needs check_id');
    expect(onClose).not.toHaveBeenCalled();
    // eslint-disable-next-line no-console -- the spec's log entry (core §8)
    expect(console.error).toHaveBeenCalled();
    expect(posts().map((call) => call.url)).toEqual(['/api/db/hypotheses', '/api/db/evidences']);
  });
});

describe('AttachAsEvidenceButton', () => {
  it('shows for a responder and opens the dialog', async () => {
    renderWith(<AttachAsEvidenceButton target={CHECK} />, ['responder']);
    fireEvent.click(await screen.findByRole('button', { name: 'Attach as Evidence' }));
    expect(screen.getByRole('dialog', { name: 'Link to incident' })).toBeTruthy();
  });

  it('is hidden from a viewer', async () => {
    renderWith(<AttachAsEvidenceButton target={CHECK} />, ['viewer']);
    await waitFor(() => expect(calls.some((call) => call.url === '/api/properties')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('button', { name: 'Attach as Evidence' })).toBeNull();
  });

  it('is hidden while the incidents feature is disabled', async () => {
    properties = [
      { name: 'incidents.disable', value: 'true', source: 'db', type: 'boolean', description: null },
    ];
    renderWith(<AttachAsEvidenceButton target={CHECK} />, ['admin']);
    await waitFor(() => expect(calls.some((call) => call.url === '/api/properties')).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('button', { name: 'Attach as Evidence' })).toBeNull();
  });
});
