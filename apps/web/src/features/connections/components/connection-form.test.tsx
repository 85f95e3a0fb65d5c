import { connectionTypeOf } from '@opsdeck/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  chooseMenuOption,
  selectMenuOptions,
  selectMenuText,
} from '../../../components/select-menu/select-menu-test-helpers';
import { ConnectionForm } from './connection-form';

// The connection form's own behaviour: the value-source selector clears the other source's value,
// required fields, and what a save sends (the request the server then checks again).

interface Sent {
  url: string;
  method: string;
  body: unknown;
}
let sent: Sent[];

function renderForm(children: ReactNode) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  return render(<QueryClientProvider client={client}>{children}</QueryClientProvider>);
}

beforeEach(() => {
  sent = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {};
      sent.push({ url: input, method: init?.method ?? 'GET', body });
      return new Response(
        JSON.stringify({
          id: '00000000-0000-4000-8000-000000000001',
          namespace: 'default',
          insecure_tls: false,
          properties: {},
          source: 'UI',
          created_by: null,
          created_at: '2026-01-01T00:00:00Z',
          updated_at: '2026-01-01T00:00:00Z',
          last_test_status: null,
          last_test_at: null,
          last_test_message: null,
          ...body,
        }),
        { status: 201, headers: { 'Content-Type': 'application/json' } },
      );
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ConnectionForm', () => {
  it('switches a value between Static, Secret and Config Map, clearing the other source', async () => {
    const onDone = vi.fn();
    const { container } = renderForm(
      <ConnectionForm type={connectionTypeOf('postgres')!} canEdit onDone={onDone} />,
    );
    expect(selectMenuText(container, 'Password source')).toBe('Static');
    expect(await selectMenuOptions(container, 'Password source')).toEqual(['Static', 'Config Map', 'Secret']);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'orders' } });
    fireEvent.change(screen.getByLabelText('URL'), { target: { value: 'postgres://db:5432/orders' } });
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'app' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'typed-then-dropped' } });

    await chooseMenuOption(container, 'Password source', 'Secret');
    expect(screen.getByLabelText('Password secret name')).toHaveProperty('value', '');
    expect(screen.queryByDisplayValue('typed-then-dropped')).toBeNull();
    fireEvent.change(screen.getByLabelText('Password secret name'), { target: { value: 'db' } });
    fireEvent.change(screen.getByLabelText('Password key'), { target: { value: 'password' } });
    await chooseMenuOption(container, 'Password source', 'Config Map');
    expect(screen.getByLabelText('Password config map name')).toHaveProperty('value', '');
    fireEvent.change(screen.getByLabelText('Password config map name'), { target: { value: 'settings' } });
    fireEvent.change(screen.getByLabelText('Password key'), { target: { value: 'pw' } });

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(sent).toEqual([
      {
        url: '/api/connections',
        method: 'POST',
        body: {
          name: 'orders',
          namespace: 'default',
          type: 'postgres',
          url: 'postgres://db:5432/orders',
          username: 'app',
          password: { valueFrom: { configMapKeyRef: { name: 'settings', key: 'pw' } } },
        },
      },
    ]);
  });

  it('shows the required message and sends nothing while a required field is empty', async () => {
    renderForm(<ConnectionForm type={connectionTypeOf('s3')!} canEdit onDone={vi.fn()} />);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'bucket' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This field is required')).toBeTruthy();
    expect(sent).toEqual([]);
  });

  it("picks Email's encryption and authentication from menus with the spec's defaults, into the service URL", async () => {
    const { container } = renderForm(
      <ConnectionForm type={connectionTypeOf('email')!} canEdit onDone={vi.fn()} />,
    );
    expect(selectMenuText(container, 'Encryption method')).toBe('Auto');
    expect(selectMenuText(container, 'SMTP authentication')).toBe('Unknown');
    expect(await selectMenuOptions(container, 'Encryption method')).toEqual([
      'None',
      'ExplicitTLS',
      'ImplicitTLS',
      'Auto',
    ]);
    await chooseMenuOption(container, 'Encryption method', 'ImplicitTLS');
    await chooseMenuOption(container, 'SMTP authentication', 'CRAMMD5');
    fireEvent.change(screen.getByLabelText('Host'), { target: { value: 'smtp.example.com' } });
    expect(screen.getByLabelText('Service URL')).toHaveProperty(
      'value',
      'smtp://$(username):$(password)@smtp.example.com:587/?Encryption=ImplicitTLS&Auth=CRAMMD5',
    );
  });

  it('builds the service URL of a notification type as it is typed', () => {
    renderForm(<ConnectionForm type={connectionTypeOf('ntfy')!} canEdit onDone={vi.fn()} />);
    expect(screen.getByLabelText('Host')).toHaveProperty('value', 'ntfy.sh');
    fireEvent.change(screen.getByLabelText('Topic'), { target: { value: 'alerts' } });
    expect(screen.getByLabelText('Service URL')).toHaveProperty(
      'value',
      'ntfy://$(username):$(password)@ntfy.sh/alerts',
    );
  });

  it('shows a connection without its buttons to a user who cannot edit', () => {
    renderForm(
      <ConnectionForm
        type={connectionTypeOf('redis')!}
        canEdit={false}
        onDone={vi.fn()}
        connection={{
          id: '00000000-0000-4000-8000-000000000002',
          name: 'cache',
          namespace: 'default',
          type: 'redis',
          url: '********',
          insecure_tls: false,
          properties: { db: '0' },
          source: 'UI',
          created_by: null,
          created_at: '2026-01-01T00:00:00Z',
          updated_at: '2026-01-01T00:00:00Z',
          last_test_status: null,
          last_test_at: null,
          last_test_message: null,
        }}
      />,
    );
    expect(screen.getByLabelText('URL')).toHaveProperty('disabled', true);
    expect(screen.queryByRole('button', { name: 'Update' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Test' })).toBeNull();
  });
});
