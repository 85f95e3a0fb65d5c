import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { DataTableColumn } from '../data-table/data-table';
import { ResourceListPage, resourceNameColumn } from './resource-list-page';

afterEach(cleanup);

interface Thing {
  id: string;
  name: string | null;
  kind: string;
}

const thingPath = (id: string) => `/things/${id}`;
const COLUMNS: DataTableColumn<Thing>[] = [
  resourceNameColumn<Thing>(thingPath),
  { id: 'kind', header: 'Kind', accessorKey: 'kind' },
];

function Location() {
  return <output aria-label="location">{useLocation().pathname}</output>;
}

function renderList(props: { rows?: Thing[]; error?: Error; add?: boolean }) {
  return render(
    <MemoryRouter initialEntries={['/things']}>
      <ResourceListPage
        title="Things"
        table={{ tableId: 'test-things', defaultSortOrder: 'asc' }}
        columns={COLUMNS}
        query={{
          data: props.rows ? { rows: props.rows, total: props.rows.length } : undefined,
          isPending: !props.rows && !props.error,
          isError: Boolean(props.error),
          error: props.error,
        }}
        editorPath={thingPath}
        add={props.add ? { label: 'Add Thing', to: '/things/new' } : undefined}
        emptyMessage="No resources found"
      />
      <Location />
    </MemoryRouter>,
  );
}

describe('ResourceListPage', () => {
  it('lists rows whose name links to the editor, and a row click opens it', () => {
    renderList({
      rows: [
        { id: 't1', name: 'alpha', kind: 'file' },
        { id: 't2', name: null, kind: 'http' },
      ],
      add: true,
    });
    const section = screen.getByRole('region', { name: 'Things' });
    expect(within(section).getByRole('heading', { name: 'Things' })).toBeTruthy();
    expect(within(section).getByRole('link', { name: 'Add Thing' }).getAttribute('href')).toBe('/things/new');
    const table = within(section).getByRole('table', { name: 'Things' });
    expect(within(table).getByRole('link', { name: 'alpha' }).getAttribute('href')).toBe('/things/t1');
    // A row without a name shows its id.
    expect(within(table).getByRole('link', { name: 't2' })).toBeTruthy();
    fireEvent.click(within(table).getByText('http'));
    expect(screen.getByRole('status', { name: 'location' }).textContent).toBe('/things/t2');
  });

  it('offers no Add without write access, and says when there is nothing', () => {
    renderList({ rows: [] });
    expect(screen.queryByRole('link', { name: 'Add Thing' })).toBeNull();
    expect(screen.getByText('No resources found')).toBeTruthy();
  });

  it('throws a failed first load to the error boundary', () => {
    expect(() => renderList({ error: new Error('boom') })).toThrow('boom');
  });
});
