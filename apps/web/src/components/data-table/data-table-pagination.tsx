import clsx from 'clsx';
import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { SelectMenu } from '../select-menu/select-menu';

export interface DataTablePaginationProps {
  /** Zero-based. */
  pageIndex: number;
  pageCount: number;
  pageSize: number;
  pageSizeOptions: readonly number[];
  /** Total rows, when known, for the 'a–b of total' line. */
  totalRowCount?: number;
  onPageIndexChange(pageIndex: number): void;
  onPageSizeChange(pageSize: number): void;
  className?: string;
}

/** Clamps a typed page number into 1…pageCount; non-numbers give undefined. */
export function clampPageNumber(typed: string, pageCount: number): number | undefined {
  const value = Number.parseInt(typed, 10);
  if (!Number.isFinite(value)) return undefined;
  return Math.min(Math.max(1, value), Math.max(1, pageCount));
}

/** Page navigation: first/previous/next/last, a go-to-page input (min 1, max page count) and the page size. */
export function DataTablePagination({
  pageIndex,
  pageCount,
  pageSize,
  pageSizeOptions,
  totalRowCount,
  onPageIndexChange,
  onPageSizeChange,
  className,
}: DataTablePaginationProps) {
  const lastIndex = Math.max(0, pageCount - 1);
  const options = pageSizeOptions.includes(pageSize)
    ? pageSizeOptions
    : [...pageSizeOptions, pageSize].sort((a, b) => a - b);
  const firstRow = totalRowCount ? pageIndex * pageSize + 1 : 0;
  const lastRow = totalRowCount ? Math.min(totalRowCount, (pageIndex + 1) * pageSize) : 0;

  return (
    <nav
      aria-label="Pagination"
      className={clsx(
        'flex flex-wrap items-center justify-between gap-3 px-2 py-2 text-sm text-gray-700',
        className,
      )}
    >
      <div className="flex items-center gap-2">
        <div className="flex items-center gap-2">
          <span aria-hidden>Rows per page</span>
          <SelectMenu
            compact
            floating
            aria-label="Rows per page"
            value={String(pageSize)}
            onChange={(choice) => onPageSizeChange(Number(choice))}
            options={options.map((option) => ({ value: String(option), label: String(option) }))}
          />
        </div>
        {totalRowCount !== undefined && (
          <span className="text-gray-500">
            {firstRow}–{lastRow} of {totalRowCount}
          </span>
        )}
      </div>
      <div className="flex items-center gap-1">
        <PageButton label="First page" disabled={pageIndex <= 0} onClick={() => onPageIndexChange(0)}>
          <ChevronsLeft className="size-4" aria-hidden />
        </PageButton>
        <PageButton
          label="Previous page"
          disabled={pageIndex <= 0}
          onClick={() => onPageIndexChange(pageIndex - 1)}
        >
          <ChevronLeft className="size-4" aria-hidden />
        </PageButton>
        {/* Keyed by page so the typed text resets whenever the page changes from elsewhere. */}
        <GoToPage
          key={pageIndex}
          pageIndex={pageIndex}
          pageCount={pageCount}
          onPageIndexChange={onPageIndexChange}
        />
        <PageButton
          label="Next page"
          disabled={pageIndex >= lastIndex}
          onClick={() => onPageIndexChange(pageIndex + 1)}
        >
          <ChevronRight className="size-4" aria-hidden />
        </PageButton>
        <PageButton
          label="Last page"
          disabled={pageIndex >= lastIndex}
          onClick={() => onPageIndexChange(lastIndex)}
        >
          <ChevronsRight className="size-4" aria-hidden />
        </PageButton>
      </div>
    </nav>
  );
}

function PageButton({
  label,
  disabled,
  onClick,
  children,
}: {
  label: string;
  disabled: boolean;
  onClick(): void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      disabled={disabled}
      onClick={onClick}
      className="rounded p-1 text-gray-600 hover:bg-gray-100 disabled:cursor-not-allowed disabled:opacity-40"
    >
      {children}
    </button>
  );
}

function GoToPage({
  pageIndex,
  pageCount,
  onPageIndexChange,
}: Pick<DataTablePaginationProps, 'pageIndex' | 'pageCount' | 'onPageIndexChange'>) {
  const [typed, setTyped] = useState(String(pageIndex + 1));
  const commit = () => {
    const page = clampPageNumber(typed, pageCount);
    setTyped(String(page ?? pageIndex + 1));
    if (page !== undefined && page - 1 !== pageIndex) onPageIndexChange(page - 1);
  };
  return (
    <label className="flex items-center gap-1 px-1">
      <span>Page</span>
      <input
        type="number"
        inputMode="numeric"
        aria-label="Go to page"
        min={1}
        max={Math.max(1, pageCount)}
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit();
        }}
        className="w-16 rounded-md border border-gray-300 px-2 py-1 text-right"
      />
      <span>of {Math.max(1, pageCount)}</span>
    </label>
  );
}
