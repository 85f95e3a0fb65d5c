import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckRelationships, relatedItemPath } from './check-relationships';

afterEach(cleanup);

describe('CheckRelationships', () => {
  it('links components to topology and config items to the catalog', () => {
    render(
      <MemoryRouter>
        <CheckRelationships
          items={[
            { id: 'c-1', name: 'payments', type: 'Service', kind: 'component' },
            { id: 'i-1', name: 'payments-db', type: 'Kubernetes::Pod', kind: 'config' },
            { id: 'i-2', name: null, type: null, kind: 'config' },
          ]}
        />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'payments' }).getAttribute('href')).toBe('/topology/c-1');
    expect(screen.getByRole('link', { name: 'payments-db' }).getAttribute('href')).toBe('/catalog/i-1');
    // An item without a name shows its id.
    expect(screen.getByRole('link', { name: 'i-2' }).getAttribute('href')).toBe('/catalog/i-2');
    const kinds = screen
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.lastElementChild?.textContent);
    expect(kinds).toEqual(['Component', 'Config', 'Config']);
  });

  it("says 'No data available' without links", () => {
    render(
      <MemoryRouter>
        <CheckRelationships items={[]} />
      </MemoryRouter>,
    );
    expect(screen.getByText('No data available')).toBeTruthy();
  });

  it('builds the paths of core §2', () => {
    expect(relatedItemPath({ id: 'x', name: null, type: null, kind: 'component' })).toBe('/topology/x');
    expect(relatedItemPath({ id: 'x', name: null, type: null, kind: 'config' })).toBe('/catalog/x');
  });
});
