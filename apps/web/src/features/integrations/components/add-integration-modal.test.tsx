import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AccessProvider } from '../../../lib/permissions';
import { BUNDLED_NOTE_PREFIX } from './gitops-form';
import { AddIntegrationModal } from './add-integration-modal';

const BUNDLED = {
  chart: 'kubernetes',
  source: 'bundled',
  url: 'https://registry.example/kubernetes.json',
  problem: 'Could not fetch https://registry.example/kubernetes.json: the registry answered 404',
  schema: { type: 'object', properties: { clusterName: { type: 'string' } } },
};

function stubServer(properties: Record<string, string | null>[]) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url.startsWith('/api/properties')) return Response.json(properties);
      if (url.startsWith('/api/integrations/charts/kubernetes/values-schema')) return Response.json(BUNDLED);
      return new Response('not found', { status: 404 });
    }),
  );
}

function Where() {
  const location = useLocation();
  return <p data-testid="location">{location.pathname + location.search}</p>;
}

function renderWizard(onSuccess = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AccessProvider value={{ status: 'signed-in', roles: ['admin'], permissions: [] }}>
        <MemoryRouter initialEntries={['/settings/integrations']}>
          <Routes>
            <Route
              path="*"
              element={
                <>
                  <Where />
                  <AddIntegrationModal open onClose={() => undefined} onSuccess={onSuccess} />
                </>
              }
            />
          </Routes>
        </MemoryRouter>
      </AccessProvider>
    </QueryClientProvider>,
  );
  return onSuccess;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('AddIntegrationModal', () => {
  it('hides Log Backends while the logs feature is disabled', async () => {
    stubServer([{ name: 'logs.disable', value: 'true', source: 'database', type: null, description: null }]);
    renderWizard();
    const direct = await screen.findByRole('region', { name: 'Add Directly' });
    await within(direct).findByRole('button', { name: 'Custom Topology' });
    // The properties arrive after the first render: wait until Log Backends is gone.
    await vi.waitFor(() => expect(within(direct).queryByRole('button', { name: 'Log Backends' })).toBeNull());
    expect(within(direct).getByRole('button', { name: 'Catalog Scraper' })).toBeTruthy();
  });

  it('offers Log Backends, which opens its page, while logs are enabled', async () => {
    stubServer([]);
    renderWizard();
    fireEvent.click(await screen.findByRole('button', { name: 'Log Backends' }));
    expect(screen.getByTestId('location').textContent).toBe('/settings/log-backends');
  });

  it('sends Catalog Scraper to the scraper create form', async () => {
    stubServer([]);
    renderWizard();
    fireEvent.click(await screen.findByRole('button', { name: 'Catalog Scraper' }));
    expect(screen.getByTestId('location').textContent).toBe('/catalog/scrapers/new');
  });

  it('says the bundled schema is used, checks the values against it, and finishes with Done', async () => {
    stubServer([]);
    const onSuccess = renderWizard();
    fireEvent.click(await screen.findByRole('button', { name: 'Kubernetes' }));
    expect(await screen.findByRole('dialog', { name: 'Add Integration - Kubernetes' })).toBeTruthy();
    const note = await screen.findByRole('status', { name: 'Values schema' });
    await vi.waitFor(() => expect(note.textContent).toContain(BUNDLED_NOTE_PREFIX));
    expect(note.textContent).toContain('the registry answered 404');
    const done = screen.getByRole('button', { name: 'Done' });
    expect((done as HTMLButtonElement).disabled).toBe(false);
    fireEvent.change(screen.getByLabelText('Namespace'), { target: { value: '' } });
    expect(screen.getByText('Namespace is required')).toBeTruthy();
    expect((done as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Namespace'), { target: { value: 'ops' } });
    fireEvent.click(done);
    expect(onSuccess).toHaveBeenCalledOnce();
  });

  it('Back returns to the options', async () => {
    stubServer([]);
    renderWizard();
    fireEvent.click(await screen.findByRole('button', { name: 'Flux' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('region', { name: 'Add via GitOps' })).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Add Integration' })).toBeTruthy();
  });
});
