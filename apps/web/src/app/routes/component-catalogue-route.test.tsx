import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ComponentCatalogueRoute } from './component-catalogue-route';

beforeEach(() => {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ComponentCatalogueRoute', () => {
  it('shows every primitive family in its states', () => {
    render(
      <MemoryRouter>
        <ComponentCatalogueRoute />
      </MemoryRouter>,
    );
    for (const title of [
      'Buttons',
      'Badges and status',
      'Progress and uptime',
      'Selects',
      'Inputs',
      'Tabs and tooltips',
      'Dates and sizes',
      'Empty, loading and error states',
    ])
      expect(screen.getByRole('region', { name: title })).toBeTruthy();
    const selects = screen.getByRole('region', { name: 'Selects' });
    expect(within(selects).getByText('including 4 labels')).toBeTruthy();
    expect(within(selects).getByText('Start typing to search')).toBeTruthy();
    expect(within(selects).getByText('Please select incident severity')).toBeTruthy();
    expect(screen.getByRole('switch', { name: 'Hide Passing' })).toBeTruthy();
    expect(screen.getByText('Bytes: 5 GB')).toBeTruthy();
  });
});
