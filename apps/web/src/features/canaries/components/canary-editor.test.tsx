import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { stringify } from 'yaml';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chooseMenuOption } from '../../../components/select-menu/select-menu-test-helpers';
import { AccessProvider } from '../../../lib/permissions';
import type { CanarySpec } from '../lib/check-forms';
import { CanariesPage } from './canaries-page';
import { CheckForm } from './check-form';

/** The form with the editor's wiring: the spec it edits is shown as the YAML the Code tab would hold. */
function Harness({ typeKey, initial }: { typeKey: string; initial: CanarySpec }) {
  const [spec, setSpec] = useState(initial);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  return (
    <>
      <CheckForm
        typeKey={typeKey}
        spec={spec}
        onChange={setSpec}
        errors={{}}
        touched={touched}
        onTouch={(key) => setTouched((previous) => new Set(previous).add(key))}
        readOnly={false}
      />
      <output aria-label="yaml">{stringify(spec)}</output>
    </>
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('CheckForm', () => {
  it('writes what is typed into the spec and keeps the rest of it', async () => {
    render(
      <Harness
        typeKey="elasticsearch"
        initial={{ schedule: '@every 1m', elasticsearch: [{ name: 'es', custom: 'kept' }] }}
      />,
    );
    fireEvent.change(screen.getByLabelText('URL'), { target: { value: 'http://es:9200' } });
    fireEvent.change(screen.getByLabelText('Index'), { target: { value: 'logs' } });
    fireEvent.change(screen.getByLabelText('Results'), { target: { value: '3' } });
    await chooseMenuOption(document.body, 'Schedule', '@hourly');
    const yaml = screen.getByRole('status', { name: 'yaml' }).textContent ?? '';
    expect(yaml).toContain('schedule: "@hourly"');
    expect(yaml).toContain('url: http://es:9200');
    expect(yaml).toContain('index: logs');
    expect(yaml).toContain('results: 3');
    expect(yaml).toContain('custom: kept');
  });

  it('hides the HTTP body for GET and shows it for POST', async () => {
    render(<Harness typeKey="http" initial={{ http: [{ name: 'a', url: 'u' }] }} />);
    expect(screen.queryByLabelText('Body')).toBeNull();
    await chooseMenuOption(document.body, 'Method', 'POST');
    expect(screen.getByLabelText('Body')).toBeTruthy();
    expect(screen.getByRole('status', { name: 'yaml' }).textContent).toContain('method: POST');
  });

  it('shows the SFTP fields on the Folder form, masks the password and writes sftpConnection', () => {
    render(<Harness typeKey="folder" initial={{ folder: [{ name: 'uploads', path: '/upload' }] }} />);
    expect(screen.getByRole('heading', { name: 'SFTP' })).toBeTruthy();
    const password = screen.getByLabelText('Password') as HTMLInputElement;
    expect(password.type).toBe('password');
    expect(screen.getByLabelText('Host').getAttribute('aria-required')).toBeNull();
    fireEvent.change(screen.getByLabelText('Host'), { target: { value: 'sftp.example.com' } });
    // Once SFTP is used, host, username and password are required and the port shows its default.
    expect(screen.getByLabelText('Host').getAttribute('aria-required')).toBe('true');
    expect(screen.getByLabelText('Username').getAttribute('aria-required')).toBe('true');
    expect((screen.getByLabelText('Port') as HTMLInputElement).value).toBe('22');
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'backup' } });
    fireEvent.change(password, { target: { value: 'pw' } });
    const yaml = screen.getByRole('status', { name: 'yaml' }).textContent ?? '';
    expect(yaml).toContain('sftpConnection:');
    expect(yaml).toContain('host: sftp.example.com');
    expect(yaml).toContain('port: 22');
    expect(yaml).toContain('username: backup');
    expect(yaml).toContain('path: /upload');
  });
});

const json = (body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status: 200,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

function renderList(roles: string[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <AccessProvider value={{ status: 'signed-in', roles, permissions: [] }}>
        <MemoryRouter initialEntries={['/settings/canaries']}>
          <CanariesPage />
        </MemoryRouter>
      </AccessProvider>
    </QueryClientProvider>,
  );
}

describe('CanariesPage', () => {
  let rows: unknown[] = [];
  const urls: string[] = [];
  beforeEach(() => {
    urls.length = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn((input: string) => {
        urls.push(input);
        return Promise.resolve(json(rows, { 'Content-Range': `0-${rows.length}/${rows.length}` }));
      }),
    );
  });

  it("shows 'No resources found' when there are no health checks, and Add only to writers", async () => {
    rows = [];
    renderList(['admin']);
    expect(await screen.findByText('No resources found')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add Health Check' }).getAttribute('href')).toBe(
      '/settings/canaries/new',
    );
    expect(urls[0]).toContain('/api/db/canaries_with_status?');
    expect(decodeURIComponent(urls[0] ?? '')).toContain('deleted_at=is.null');
    cleanup();
    renderList(['viewer']);
    await screen.findByText('No resources found');
    expect(screen.queryByRole('link', { name: 'Add Health Check' })).toBeNull();
  });

  it('lists name, types, health summary, source and labels, linking each row to its editor', async () => {
    rows = [
      {
        id: 'c1',
        name: 'web',
        namespace: 'default',
        schedule: '@every 1m',
        source: 'resources/web.yaml',
        spec: { schedule: '@every 1m', http: [], tcp: [] },
        labels: { team: 'ops' },
        checks: { healthy: 2, unhealthy: 1, unknown: 0 },
        status: 'unhealthy',
        last_runtime: null,
        updated_at: '2026-01-01T00:00:00Z',
      },
    ];
    renderList(['admin']);
    const table = await screen.findByRole('table', { name: 'Health checks' });
    const link = await within(table).findByRole('link', { name: 'web' });
    expect(link.getAttribute('href')).toBe('/settings/canaries/c1');
    const row = link.closest('tr');
    expect(row?.textContent).toContain('http, tcp');
    expect(row?.textContent).toContain('2 healthy, 1 unhealthy');
    expect(row?.textContent).toContain('resources/web.yaml');
    expect(row?.textContent).toContain('Never run');
    expect(within(row as HTMLElement).getByRole('img', { name: 'unhealthy' })).toBeTruthy();
  });
});
