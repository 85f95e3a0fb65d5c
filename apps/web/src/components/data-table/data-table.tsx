import {
  flexRender,
  getCoreRowModel,
  getExpandedRowModel,
  getGroupedRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  useReactTable,
  type Cell,
  type ColumnDef,
  type ExpandedState,
  type Row,
  type SortingState,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import clsx from 'clsx';
import { ArrowDown, ArrowUp, ArrowUpDown, ChevronDown, ChevronRight } from 'lucide-react';
import {
  memo,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { pageCount as countPages } from '../../lib/format/pagination';
import { EmptyState, NO_DATA_MESSAGE } from '../empty-state/empty-state';
import { DataTablePagination } from './data-table-pagination';
import { useDataTableState, type PageSizeVariant } from './use-data-table-state';

const EXPANDER_COLUMN_ID = '__expander';
const SKELETON_ROWS = 8;

// TanStack column value types differ per column; a list of them can only be typed loosely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type DataTableColumn<TData> = ColumnDef<TData, any>;

export interface DataTableProps<TData> {
  /** Identifies the table for its remembered page size. */
  tableId: string;
  columns: DataTableColumn<TData>[];
  data: TData[];
  /** Accessible name of the table. */
  label: string;
  /**
   * Total rows on the server. When given, paging and sorting are server-side: `data` is the current
   * page and the page reads pageIndex/pageSize/sortBy/sortOrder with `useDataTableState`.
   * Without it, `data` is paged and sorted in the browser, still driven by the URL.
   */
  totalRowCount?: number;
  /** Shows the loading skeleton while there is no data yet. */
  isLoading?: boolean;
  getRowId?(row: TData, index: number): string;
  /** Children of hierarchical rows; such rows expand and collapse. */
  getSubRows?(row: TData): TData[] | undefined;
  /** Column ids to group the rows by; groups expand and collapse. */
  groupBy?: string[];
  /** Initially expanded groups: true for all. Default collapsed. */
  defaultExpanded?: ExpandedState;
  /** Called when a row without children is clicked or activated with Enter. */
  onRowClick?(row: TData): void;
  /** 'default' (5 … 1000) or 'simple' (50, 100, 200). */
  pageSizeVariant?: PageSizeVariant;
  defaultPageSize?: number;
  defaultSortBy?: string;
  defaultSortOrder?: 'asc' | 'desc';
  /** Default true. */
  enableSorting?: boolean;
  /**
   * Virtual rows in a scroll box instead of pages; reaching the last row doubles pageSize
   * (when more rows exist). Suited to thousands of rows.
   */
  virtual?: boolean;
  /** Height of the virtual scroll box in px. Default 600. */
  virtualHeight?: number;
  /** Row height used by virtual mode in px. Default 40. */
  rowHeight?: number;
  /** Default 'No data available'. */
  emptyMessage?: ReactNode;
  hidePagination?: boolean;
  className?: string;
}

function leafColumnIds<TData>(columns: readonly DataTableColumn<TData>[]): Set<string> {
  const ids = new Set<string>();
  for (const column of columns) {
    if ('columns' in column && column.columns) for (const id of leafColumnIds(column.columns)) ids.add(id);
    if (column.id) ids.add(column.id);
    else if ('accessorKey' in column && typeof column.accessorKey === 'string') ids.add(column.accessorKey);
  }
  return ids;
}

/** Widths the columns' own definitions set (`size`), by column id; TanStack's default is not one. */
function explicitColumnSizes<TData>(columns: readonly DataTableColumn<TData>[]): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const column of columns) {
    if ('columns' in column && column.columns)
      for (const [id, size] of explicitColumnSizes(column.columns)) sizes.set(id, size);
    const id =
      column.id ??
      ('accessorKey' in column && typeof column.accessorKey === 'string' ? column.accessorKey : undefined);
    if (id && column.size !== undefined) sizes.set(id, column.size);
  }
  return sizes;
}

/**
 * The console's table: URL-driven paging and sorting (server-side when `totalRowCount` is given),
 * grouping and hierarchical rows with expand/collapse, remembered page sizes, a go-to-page input,
 * a virtual mode, a loading skeleton and the 'No data available' empty state.
 */
export function DataTable<TData>(props: DataTableProps<TData>) {
  const {
    tableId,
    columns,
    data,
    label,
    totalRowCount,
    isLoading = false,
    getRowId,
    getSubRows,
    groupBy,
    defaultExpanded = {},
    onRowClick,
    pageSizeVariant = 'default',
    defaultPageSize,
    defaultSortBy,
    defaultSortOrder,
    enableSorting = true,
    virtual = false,
    virtualHeight = 600,
    rowHeight = 40,
    emptyMessage = NO_DATA_MESSAGE,
    hidePagination = false,
    className,
  } = props;

  const state = useDataTableState({
    tableId,
    pageSizeVariant,
    defaultPageSize,
    defaultSortBy,
    defaultSortOrder,
  });
  const serverSide = totalRowCount !== undefined;
  const expandable = Boolean(getSubRows) || (groupBy?.length ?? 0) > 0;
  const [expanded, setExpanded] = useState<ExpandedState>(defaultExpanded);

  const allColumns = useMemo<DataTableColumn<TData>[]>(
    () =>
      expandable
        ? [
            {
              id: EXPANDER_COLUMN_ID,
              header: () => <span className="sr-only">Expand</span>,
              enableSorting: false,
              cell: () => null,
            },
            ...columns,
          ]
        : columns,
    [columns, expandable],
  );
  const knownIds = useMemo(() => leafColumnIds(columns), [columns]);
  const sizes = useMemo(() => explicitColumnSizes(columns), [columns]);
  const sorting = useMemo<SortingState>(
    () =>
      state.sortBy && knownIds.has(state.sortBy)
        ? [{ id: state.sortBy, desc: state.sortOrder === 'desc' }]
        : [],
    [knownIds, state.sortBy, state.sortOrder],
  );

  // TanStack Table returns functions the React Compiler cannot memoise; this component opts out by design.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable<TData>({
    data,
    columns: allColumns,
    state: {
      sorting,
      pagination: { pageIndex: virtual ? 0 : state.pageIndex, pageSize: state.pageSize },
      grouping: groupBy ?? [],
      expanded,
    },
    manualSorting: serverSide,
    manualPagination: serverSide || virtual,
    pageCount: serverSide ? countPages(totalRowCount, state.pageSize) : undefined,
    enableSorting,
    onExpandedChange: setExpanded,
    getRowId,
    getSubRows,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: serverSide ? undefined : getSortedRowModel(),
    getGroupedRowModel: groupBy?.length ? getGroupedRowModel() : undefined,
    getExpandedRowModel: getExpandedRowModel(),
    getPaginationRowModel: serverSide || virtual ? undefined : getPaginationRowModel(),
    autoResetExpanded: false,
    autoResetPageIndex: false,
  });

  const rows = table.getRowModel().rows;
  const pages = serverSide
    ? countPages(totalRowCount, state.pageSize)
    : countPages(table.getPrePaginationRowModel().rows.length, state.pageSize);
  const showSkeleton = isLoading && data.length === 0;
  const visibleColumnCount = table.getVisibleLeafColumns().length;

  const toggleSort = (columnId: string) => {
    if (state.sortBy !== columnId) state.setSort(columnId, 'asc');
    else if (state.sortOrder === 'asc') state.setSort(columnId, 'desc');
    else state.setSort(undefined);
  };

  const activate = (row: Row<TData>) => {
    if (row.getCanExpand()) row.toggleExpanded();
    else if (!row.getIsGrouped()) onRowClick?.(row.original);
  };

  const header = (
    <thead className="sticky top-0 z-10 bg-gray-50">
      {table.getHeaderGroups().map((headerGroup) => (
        <tr key={headerGroup.id}>
          {headerGroup.headers.map((header) => {
            const canSort = header.column.getCanSort() && header.column.id !== EXPANDER_COLUMN_ID;
            const sorted = state.sortBy === header.column.id ? state.sortOrder : undefined;
            const content = header.isPlaceholder
              ? null
              : flexRender(header.column.columnDef.header, header.getContext());
            return (
              <th
                key={header.id}
                colSpan={header.colSpan}
                scope="col"
                aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                className={clsx(
                  'border-b border-gray-200 px-3 py-2 text-left text-xs font-semibold tracking-wide text-gray-600 uppercase',
                  header.column.id === EXPANDER_COLUMN_ID && 'w-8',
                )}
              >
                {canSort ? (
                  <button
                    type="button"
                    onClick={() => toggleSort(header.column.id)}
                    className="inline-flex items-center gap-1 hover:text-gray-900"
                  >
                    {content}
                    {sorted === 'asc' ? (
                      <ArrowUp className="size-3" aria-hidden />
                    ) : sorted === 'desc' ? (
                      <ArrowDown className="size-3" aria-hidden />
                    ) : (
                      <ArrowUpDown className="size-3 text-gray-300" aria-hidden />
                    )}
                  </button>
                ) : (
                  content
                )}
              </th>
            );
          })}
        </tr>
      ))}
    </thead>
  );

  // Rows get a handler that never changes, so a memoised row redraws only when its own data does.
  const activateRef = useRef(activate);
  useEffect(() => {
    activateRef.current = activate;
  });
  const onActivate = useCallback((row: Row<unknown>) => activateRef.current(row as Row<TData>), []);
  const clickable = Boolean(onRowClick);
  const renderRow = (row: Row<TData>, height?: number) => (
    <DataTableRow
      key={row.id}
      row={row as Row<unknown>}
      height={height}
      clickable={clickable}
      expanded={row.getIsExpanded()}
      columns={allColumns}
      onActivate={onActivate}
    />
  );

  return (
    <div className={clsx('flex min-h-0 flex-col', className)}>
      {virtual ? (
        <VirtualBody
          table={header}
          rows={rows}
          label={label}
          height={virtualHeight}
          rowHeight={rowHeight}
          renderRow={renderRow}
          columnCount={visibleColumnCount}
          columnWidths={table
            .getVisibleLeafColumns()
            .map((column) => (column.id === EXPANDER_COLUMN_ID ? 32 : sizes.get(column.id)))}
          showSkeleton={showSkeleton}
          emptyMessage={emptyMessage}
          onLastRowReached={() => {
            const loaded = data.length;
            const more = serverSide ? loaded < (totalRowCount ?? 0) : false;
            if (more && !isLoading && loaded >= state.pageSize) state.growPageSize(state.pageSize * 2);
          }}
        />
      ) : (
        <div className="min-h-0 overflow-auto">
          <table aria-label={label} aria-busy={showSkeleton || undefined} className="w-full border-collapse">
            {header}
            <tbody>
              {showSkeleton ? (
                <SkeletonRows columnCount={visibleColumnCount} />
              ) : rows.length === 0 ? (
                <EmptyRow columnCount={visibleColumnCount} message={emptyMessage} />
              ) : (
                rows.map((row) => renderRow(row))
              )}
            </tbody>
          </table>
        </div>
      )}
      {!virtual && !hidePagination && (
        <DataTablePagination
          pageIndex={state.pageIndex}
          pageCount={pages}
          pageSize={state.pageSize}
          pageSizeOptions={state.pageSizeOptions}
          totalRowCount={serverSide ? totalRowCount : table.getPrePaginationRowModel().rows.length}
          onPageIndexChange={state.setPageIndex}
          onPageSizeChange={state.setPageSize}
        />
      )}
    </div>
  );
}

interface DataTableRowProps {
  row: Row<unknown>;
  height?: number;
  clickable: boolean;
  /** Not read directly: a change of expansion or columns must redraw the row. */
  expanded: boolean;
  columns: unknown;
  onActivate(row: Row<unknown>): void;
}

/**
 * One row. Memoised: scrolling a virtual table re-renders the body on every scroll step, and only
 * the rows entering the window are drawn (issue: smooth with 5,000 rows).
 */
const DataTableRow = memo(function DataTableRow({ row, height, clickable, onActivate }: DataTableRowProps) {
  const interactive = clickable || row.getCanExpand();
  return (
    <tr
      style={height === undefined ? undefined : { height }}
      data-depth={row.depth}
      tabIndex={interactive ? 0 : undefined}
      onClick={() => onActivate(row)}
      onKeyDown={(event: KeyboardEvent<HTMLTableRowElement>) => {
        if (event.key === 'Enter' && event.target === event.currentTarget) onActivate(row);
      }}
      className={clsx(
        'border-b border-gray-100',
        interactive && 'cursor-pointer hover:bg-gray-50 focus:bg-blue-50 focus:outline-none',
        row.getIsGrouped() && 'bg-gray-50/60 font-medium',
      )}
    >
      {row.getVisibleCells().map((cell) => (
        <td key={cell.id} className="px-3 py-2 align-middle text-sm text-gray-800">
          {renderCell(row, cell)}
        </td>
      ))}
    </tr>
  );
});

function renderCell<TData>(row: Row<TData>, cell: Cell<TData, unknown>): ReactNode {
  if (cell.column.id === EXPANDER_COLUMN_ID) {
    if (!row.getCanExpand()) return null;
    const expanded = row.getIsExpanded();
    return (
      <button
        type="button"
        aria-label={expanded ? 'Collapse' : 'Expand'}
        aria-expanded={expanded}
        onClick={(event) => {
          event.stopPropagation();
          row.toggleExpanded();
        }}
        style={{ marginLeft: `${row.depth}rem` }}
        className="rounded p-0.5 text-gray-500 hover:bg-gray-200"
      >
        {expanded ? (
          <ChevronDown className="size-4" aria-hidden />
        ) : (
          <ChevronRight className="size-4" aria-hidden />
        )}
      </button>
    );
  }
  if (cell.getIsGrouped()) {
    return (
      <span className="inline-flex items-center gap-2">
        {flexRender(cell.column.columnDef.cell, cell.getContext())}
        <span className="text-xs font-normal text-gray-500">({row.subRows.length})</span>
      </span>
    );
  }
  if (cell.getIsAggregated()) {
    return flexRender(cell.column.columnDef.aggregatedCell ?? null, cell.getContext());
  }
  if (cell.getIsPlaceholder()) return null;
  return flexRender(cell.column.columnDef.cell, cell.getContext());
}

function SkeletonRows({ columnCount }: { columnCount: number }) {
  return (
    <>
      {Array.from({ length: SKELETON_ROWS }, (_, rowIndex) => (
        <tr key={rowIndex} aria-hidden className="border-b border-gray-100">
          {Array.from({ length: columnCount }, (_, columnIndex) => (
            <td key={columnIndex} className="px-3 py-3">
              <div className="h-3 animate-pulse rounded bg-gray-200" />
            </td>
          ))}
        </tr>
      ))}
      <tr className="sr-only">
        <td colSpan={columnCount} role="status">
          Loading
        </td>
      </tr>
    </>
  );
}

function EmptyRow({ columnCount, message }: { columnCount: number; message: ReactNode }) {
  return (
    <tr>
      <td colSpan={columnCount}>
        <EmptyState message={message} />
      </td>
    </tr>
  );
}

interface VirtualBodyProps<TData> {
  table: ReactNode;
  rows: Row<TData>[];
  label: string;
  height: number;
  rowHeight: number;
  columnCount: number;
  /** Width in px of each column that sets one (`size` in its definition); the rest share the space. */
  columnWidths: (number | undefined)[];
  showSkeleton: boolean;
  emptyMessage: ReactNode;
  renderRow(row: Row<TData>, height?: number): ReactNode;
  onLastRowReached(): void;
}

/** Only the rows in view (plus overscan) are in the DOM; spacer rows keep the scroll height right. */
function VirtualBody<TData>({
  table: header,
  rows,
  label,
  height,
  rowHeight,
  columnCount,
  columnWidths,
  showSkeleton,
  emptyMessage,
  renderRow,
  onLastRowReached,
}: VirtualBodyProps<TData>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // TanStack Virtual returns functions the React Compiler cannot memoise; this component opts out by design.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 10,
    initialRect: { width: 0, height },
  });
  const items = virtualizer.getVirtualItems();
  const lastVisible = items.length > 0 ? items[items.length - 1].index : -1;
  const reachedEnd = rows.length > 0 && lastVisible >= rows.length - 1;
  const onLastRowReachedRef = useRef(onLastRowReached);
  useEffect(() => {
    onLastRowReachedRef.current = onLastRowReached;
  });
  useEffect(() => {
    if (reachedEnd) onLastRowReachedRef.current();
  }, [reachedEnd, rows.length]);

  const paddingTop = items.length > 0 ? items[0].start : 0;
  const paddingBottom = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;

  return (
    <div ref={scrollRef} style={{ height }} className="min-h-0 overflow-auto" data-testid="virtual-scroll">
      {/* Fixed column widths: rows entering the window never make the browser re-measure the table. */}
      <table
        aria-label={label}
        aria-busy={showSkeleton || undefined}
        aria-rowcount={rows.length}
        className="w-full table-fixed border-collapse"
      >
        <colgroup>
          {columnWidths.map((width, index) => (
            <col key={index} style={width === undefined ? undefined : { width }} />
          ))}
        </colgroup>
        {header}
        <tbody>
          {showSkeleton ? (
            <SkeletonRows columnCount={columnCount} />
          ) : rows.length === 0 ? (
            <EmptyRow columnCount={columnCount} message={emptyMessage} />
          ) : (
            <>
              {paddingTop > 0 && (
                <tr aria-hidden style={{ height: paddingTop }}>
                  <td colSpan={columnCount} />
                </tr>
              )}
              {items.map((item) => renderRow(rows[item.index], rowHeight))}
              {paddingBottom > 0 && (
                <tr aria-hidden style={{ height: paddingBottom }}>
                  <td colSpan={columnCount} />
                </tr>
              )}
            </>
          )}
        </tbody>
      </table>
    </div>
  );
}
