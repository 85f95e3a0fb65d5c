import { useCallback, useMemo } from 'react';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS, SIMPLE_PAGE_SIZE_OPTIONS } from '../../lib/format/pagination';
import { usePaginationParams, useSortParams, type SortOrder } from '../../lib/url-state/table-params';
import { rememberedPageSize, rememberPageSize } from './page-size-storage';

/** 'default': 5 … 1000; 'simple': 50, 100, 200 (core §9). */
export type PageSizeVariant = 'default' | 'simple';

export function pageSizeOptionsFor(variant: PageSizeVariant): readonly number[] {
  return variant === 'simple' ? SIMPLE_PAGE_SIZE_OPTIONS : PAGE_SIZE_OPTIONS;
}

export interface DataTableStateOptions {
  /** Identifies the table for the remembered page size. */
  tableId: string;
  /** Default 'default'. */
  pageSizeVariant?: PageSizeVariant;
  /** Used when neither the URL nor the memory has a page size. Default 50. */
  defaultPageSize?: number;
  defaultSortBy?: string;
  defaultSortOrder?: SortOrder;
}

export interface DataTableState {
  pageIndex: number;
  pageSize: number;
  sortBy: string | undefined;
  sortOrder: SortOrder;
  pageSizeOptions: readonly number[];
  setPageIndex(pageIndex: number): void;
  /** Chosen by the user: stored in the URL and remembered for this table. */
  setPageSize(pageSize: number): void;
  /** Grows the page without remembering it (virtual mode). */
  growPageSize(pageSize: number): void;
  setSort(sortBy: string | undefined, sortOrder?: SortOrder): void;
}

/**
 * Paging and sorting of one table, from the URL (pageIndex, pageSize, sortBy, sortOrder). Without
 * a pageSize in the URL the table's remembered size applies, then the default. Pages call this
 * with the same options as their DataTable to build the server query.
 */
export function useDataTableState(options: DataTableStateOptions): DataTableState {
  const { tableId, pageSizeVariant = 'default', defaultSortBy, defaultSortOrder } = options;
  const pageSizeOptions = pageSizeOptionsFor(pageSizeVariant);
  const fallbackPageSize = useMemo(
    () => rememberedPageSize(tableId, pageSizeOptions) ?? options.defaultPageSize ?? DEFAULT_PAGE_SIZE,
    [tableId, pageSizeOptions, options.defaultPageSize],
  );
  const pagination = usePaginationParams({ defaultPageSize: fallbackPageSize });
  const sort = useSortParams({ sortBy: defaultSortBy, sortOrder: defaultSortOrder });
  const { setPageSize: writePageSize, setPageIndex: writePageIndex } = pagination;
  const { setSort: writeSort } = sort;

  const setPageSize = useCallback(
    (pageSize: number) => {
      rememberPageSize(tableId, pageSize);
      writePageSize(pageSize);
    },
    [tableId, writePageSize],
  );
  // Growing in virtual mode replaces the history entry: scrolling is not a navigation.
  const growPageSize = useCallback(
    (pageSize: number) => writePageSize(pageSize, { replace: true }),
    [writePageSize],
  );
  const setPageIndex = useCallback((pageIndex: number) => writePageIndex(pageIndex), [writePageIndex]);
  const setSort = useCallback(
    (sortBy: string | undefined, sortOrder?: SortOrder) => writeSort(sortBy, sortOrder),
    [writeSort],
  );

  return {
    pageIndex: pagination.pageIndex,
    pageSize: pagination.pageSize,
    sortBy: sort.sortBy,
    sortOrder: sort.sortOrder,
    pageSizeOptions,
    setPageIndex,
    setPageSize,
    growPageSize,
    setSort,
  };
}
