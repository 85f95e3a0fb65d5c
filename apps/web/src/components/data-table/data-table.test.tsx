import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chooseMenuOption, selectMenuOptions, selectMenuText } from '../select-menu/select-menu-test-helpers';
import { DataTable, type DataTableColumn } from './data-table';
import { pageSizeStorageKey } from './page-size-storage';
import { useDataTableState } from './use-data-table-state';

interface Check {
  id: string;
  name: string;
  namespace: string;
  latency: number;
  children?: Check[];
}

const COLUMNS: DataTableColumn<Check>[] = [
  { accessorKey: 'name', header: 'Name' },
  { accessorKey: 'namespace', header: 'Namespace' },
  {
    accessorKey: 'latency',
    header: 'Latency',
    aggregationFn: 'max',
    aggregatedCell: ({ getValue }) => `max ${getValue<number>()}`,
  },
];

function makeChecks(count: number, offset = 0): Check[] {
  return Array.from({ length: count }, (_, index) => ({
    id: String(offset + index),
    name: `check-${String(offset + index).padStart(4, '0')}`,
    namespace: (offset + index) % 2 === 0 ? 'default' : 'monitoring',
    latency: offset + index,
  }));
}

function Location() {
  const location = useLocation();
  return <output aria-label="query">{location.search}</output>;
}

const query = () => new URLSearchParams(screen.getByRole('status', { name: 'query' }).textContent ?? '');

/** A page that fetches its rows the way real pages do: from the table state in the URL. */
function ServerPage({
  total,
  tableId = 'checks',
  virtual = false,
}: {
  total: number;
  tableId?: string;
  virtual?: boolean;
}) {
  const state = useDataTableState({ tableId });
  const all = makeChecks(total);
  const sorted = state.sortBy === 'name' && state.sortOrder === 'desc' ? [...all].reverse() : all;
  const start = virtual ? 0 : state.pageIndex * state.pageSize;
  const page = sorted.slice(start, start + state.pageSize);
  return (
    <>
      <DataTable
        tableId={tableId}
        label="Checks"
        columns={COLUMNS}
        data={page}
        totalRowCount={total}
        virtual={virtual}
        virtualHeight={400}
      />
      <Location />
    </>
  );
}

/** jsdom does no layout: give the virtual scroll box the height a browser would. */
function giveScrollBoxHeight(height: number) {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.dataset.testid === 'virtual-scroll' ? height : 0;
  });
}

function renderAt(url: string, node: React.ReactNode) {
  return render(<MemoryRouter initialEntries={[url]}>{node}</MemoryRouter>);
}

beforeEach(() => window.localStorage.clear());
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('DataTable', () => {
  it("shows 'No data available' when there are no rows", () => {
    renderAt('/', <DataTable tableId="empty" label="Checks" columns={COLUMNS} data={[]} totalRowCount={0} />);
    const table = screen.getByRole('table', { name: 'Checks' });
    expect(within(table).getByRole('status').textContent).toBe('No data available');
    expect((screen.getByRole('spinbutton', { name: 'Go to page' }) as HTMLInputElement).max).toBe('1');
  });

  it('shows a loading skeleton before the first data', () => {
    renderAt('/', <DataTable tableId="loading" label="Checks" columns={COLUMNS} data={[]} isLoading />);
    const table = screen.getByRole('table', { name: 'Checks' });
    expect(table.getAttribute('aria-busy')).toBe('true');
    expect(within(table).getByRole('status').textContent).toBe('Loading');
    expect(within(table).queryByText('No data available')).toBeNull();
  });

  it('pages on the server from the URL, 50 rows by default', () => {
    renderAt('/?pageIndex=1', <ServerPage total={120} />);
    const rows = within(screen.getByRole('table', { name: 'Checks' })).getAllByRole('row');
    expect(rows).toHaveLength(51);
    expect(rows[1].textContent).toContain('check-0050');
    expect(screen.getByText('51–100 of 120')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(query().get('pageIndex')).toBe('2');
    expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(21);
    expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'First page' }));
    expect(query().has('pageIndex')).toBe(false);
  });

  it('sorts through the URL: asc, desc, then removed', () => {
    renderAt('/', <ServerPage total={10} />);
    const header = () => screen.getByRole('columnheader', { name: 'Name' });
    fireEvent.click(within(header()).getByRole('button'));
    expect(query().get('sortBy')).toBe('name');
    expect(query().get('sortOrder')).toBe('asc');
    expect(header().getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(within(header()).getByRole('button'));
    expect(query().get('sortOrder')).toBe('desc');
    expect(header().getAttribute('aria-sort')).toBe('descending');
    expect(within(screen.getByRole('table')).getAllByRole('row')[1].textContent).toContain('check-0009');
    fireEvent.click(within(header()).getByRole('button'));
    expect(query().has('sortBy')).toBe(false);
    expect(header().getAttribute('aria-sort')).toBeNull();
  });

  it('offers the page sizes 5 to 1000 and remembers the choice per table', async () => {
    const first = renderAt('/', <ServerPage total={500} tableId="remembered" />);
    expect((await selectMenuOptions(document.body, 'Rows per page')).map(Number)).toEqual([
      5, 10, 25, 50, 100, 150, 200, 250, 300, 500, 1000,
    ]);
    expect(selectMenuText(document.body, 'Rows per page')).toBe('50');
    await chooseMenuOption(document.body, 'Rows per page', '100');
    expect(query().get('pageSize')).toBe('100');
    expect(window.localStorage.getItem(pageSizeStorageKey('remembered'))).toBe('100');
    first.unmount();

    renderAt('/', <ServerPage total={500} tableId="remembered" />);
    expect(selectMenuText(document.body, 'Rows per page')).toBe('100');
    expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(101);
    cleanup();
    renderAt('/', <ServerPage total={500} tableId="other" />);
    expect(selectMenuText(document.body, 'Rows per page')).toBe('50');
  });

  it('offers 50, 100 and 200 in the simple variant', async () => {
    renderAt(
      '/',
      <DataTable
        tableId="simple"
        label="Runs"
        columns={COLUMNS}
        data={makeChecks(3)}
        pageSizeVariant="simple"
      />,
    );
    expect(await selectMenuOptions(document.body, 'Rows per page')).toEqual(['50', '100', '200']);
  });

  it('keeps the go-to-page input between 1 and the page count', () => {
    renderAt('/', <ServerPage total={230} />);
    const input = screen.getByRole('spinbutton', { name: 'Go to page' }) as HTMLInputElement;
    expect(input.min).toBe('1');
    expect(input.max).toBe('5');
    fireEvent.change(input, { target: { value: '3' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(query().get('pageIndex')).toBe('2');
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Go to page' }), { target: { value: '99' } });
    fireEvent.keyDown(screen.getByRole('spinbutton', { name: 'Go to page' }), { key: 'Enter' });
    expect(query().get('pageIndex')).toBe('4');
    expect((screen.getByRole('spinbutton', { name: 'Go to page' }) as HTMLInputElement).value).toBe('5');
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Go to page' }), { target: { value: '0' } });
    fireEvent.blur(screen.getByRole('spinbutton', { name: 'Go to page' }));
    expect(query().has('pageIndex')).toBe(false);
    expect((screen.getByRole('spinbutton', { name: 'Go to page' }) as HTMLInputElement).value).toBe('1');
  });

  it('groups rows and expands and collapses groups', () => {
    renderAt(
      '/',
      <DataTable
        tableId="grouped"
        label="Checks"
        columns={COLUMNS}
        data={makeChecks(6)}
        groupBy={['namespace']}
      />,
    );
    const table = screen.getByRole('table', { name: 'Checks' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByText('default')).toBeTruthy();
    expect(within(table).getByText('max 5')).toBeTruthy();
    const [expandDefault] = within(table).getAllByRole('button', { name: 'Expand' });
    fireEvent.click(expandDefault);
    expect(within(table).getAllByRole('row')).toHaveLength(6);
    expect(within(table).getByText('check-0004')).toBeTruthy();
    fireEvent.click(within(table).getByRole('button', { name: 'Collapse' }));
    expect(within(table).queryByText('check-0004')).toBeNull();
  });

  it('expands rows with children and opens rows without', () => {
    const onRowClick = vi.fn();
    const data: Check[] = [
      { ...makeChecks(1)[0], name: 'group-a', children: makeChecks(2, 10) },
      ...makeChecks(1, 20),
    ];
    renderAt(
      '/',
      <DataTable
        tableId="tree"
        label="Checks"
        columns={COLUMNS}
        data={data}
        getSubRows={(row) => row.children}
        onRowClick={onRowClick}
      />,
    );
    fireEvent.click(screen.getByText('group-a'));
    expect(onRowClick).not.toHaveBeenCalled();
    expect(screen.getByText('check-0010')).toBeTruthy();
    fireEvent.click(screen.getByText('check-0020'));
    expect(onRowClick).toHaveBeenCalledWith(expect.objectContaining({ name: 'check-0020' }));
    fireEvent.keyDown(screen.getByText('check-0011').closest('tr') as HTMLElement, { key: 'Enter' });
    expect(onRowClick).toHaveBeenLastCalledWith(expect.objectContaining({ name: 'check-0011' }));
  });

  it('renders only a window of 5,000 rows in virtual mode', () => {
    giveScrollBoxHeight(400);
    renderAt(
      '/?pageSize=5000',
      <DataTable
        tableId="big"
        label="Configs"
        columns={COLUMNS}
        data={makeChecks(5000)}
        virtual
        virtualHeight={400}
      />,
    );
    const table = screen.getByRole('table', { name: 'Configs' });
    expect(table.getAttribute('aria-rowcount')).toBe('5000');
    const rows = within(table).getAllByRole('row');
    // 400 px / 40 px rows = 10 in view, plus overscan, plus the header row.
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(30);
    expect(rows[1].textContent).toContain('check-0000');
    // Only the window is rendered (the row count above); speed is measured by `npm run bench data-table`.
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
  });

  it('doubles the page size when the last row is reached in virtual mode', () => {
    giveScrollBoxHeight(400);
    renderAt('/', <ServerPage total={5000} virtual />);
    expect(query().has('pageSize')).toBe(false);
    const scroller = screen.getByTestId('virtual-scroll');
    // jsdom does not scroll: report the offset the browser would.
    let scrollTop = 0;
    Object.defineProperty(scroller, 'scrollTop', { configurable: true, get: () => scrollTop });
    act(() => {
      scrollTop = 50 * 40 - 400;
      fireEvent.scroll(scroller);
    });
    expect(query().get('pageSize')).toBe('100');
    const table = screen.getByRole('table', { name: 'Checks' });
    expect(table.getAttribute('aria-rowcount')).toBe('100');
    expect(within(table).getByText('check-0049')).toBeTruthy();
    act(() => {
      scrollTop = 100 * 40 - 400;
      fireEvent.scroll(scroller);
    });
    expect(query().get('pageSize')).toBe('200');
  });

  it('redraws only the rows entering the window when a virtual table scrolls', () => {
    giveScrollBoxHeight(400);
    const drawn: string[] = [];
    const columns: DataTableColumn<Check>[] = [
      {
        accessorKey: 'name',
        header: 'Name',
        size: 240,
        cell: ({ row }) => {
          drawn.push(row.original.name);
          return row.original.name;
        },
      },
      { accessorKey: 'namespace', header: 'Namespace' },
    ];
    const data = makeChecks(5000);
    renderAt(
      '/',
      <DataTable tableId="memo" label="Configs" columns={columns} data={data} virtual virtualHeight={400} />,
    );
    // Fixed column widths: the column's own size, the others share the rest.
    const table = screen.getByRole('table', { name: 'Configs' });
    expect(table.className).toContain('table-fixed');
    const widths = [...table.querySelectorAll('col')].map((col) => col.style.width);
    expect(widths).toEqual(['240px', '']);

    const scroller = screen.getByTestId('virtual-scroll');
    let scrollTop = 0;
    Object.defineProperty(scroller, 'scrollTop', { configurable: true, get: () => scrollTop });
    const before = new Set(drawn);
    drawn.length = 0;
    act(() => {
      scrollTop = 40;
      fireEvent.scroll(scroller);
    });
    // One row scrolled: only rows that were not on screen before are drawn again.
    expect(drawn.length).toBeGreaterThan(0);
    expect(drawn.filter((name) => before.has(name))).toEqual([]);
  });
});
