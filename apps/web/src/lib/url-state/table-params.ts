import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { integerParam, useUpdateSearchParams, type UpdateOptions } from './search-param';

/** URL parameter names used by tables (settings §2.10). */
export const TABLE_PARAMS = {
  pageIndex: 'pageIndex',
  pageSize: 'pageSize',
  sortBy: 'sortBy',
  sortOrder: 'sortOrder',
} as const;

export const DEFAULT_PAGE_INDEX = 0;
export const DEFAULT_URL_PAGE_SIZE = 50;

export type SortOrder = 'asc' | 'desc';

export interface PaginationParams {
  /** Zero-based page, from `pageIndex` (default 0). */
  pageIndex: number;
  /** Rows per page, from `pageSize` (default 50 unless the caller passes another). */
  pageSize: number;
  setPageIndex(pageIndex: number, options?: UpdateOptions): void;
  /** Changes the page size and returns to the first page. */
  setPageSize(pageSize: number, options?: UpdateOptions): void;
}

/** Reads and writes `pageIndex` and `pageSize`. */
export function usePaginationParams(options: { defaultPageSize?: number } = {}): PaginationParams {
  const defaultPageSize = options.defaultPageSize ?? DEFAULT_URL_PAGE_SIZE;
  const [params] = useSearchParams();
  const update = useUpdateSearchParams();
  const pageIndex = integerParam.parse(params.get(TABLE_PARAMS.pageIndex) ?? '') ?? DEFAULT_PAGE_INDEX;
  const parsedSize = integerParam.parse(params.get(TABLE_PARAMS.pageSize) ?? '');
  const pageSize = parsedSize && parsedSize > 0 ? parsedSize : defaultPageSize;

  const setPageIndex = useCallback(
    (next: number, updateOptions?: UpdateOptions) =>
      update((draft) => {
        if (next <= 0) draft.delete(TABLE_PARAMS.pageIndex);
        else draft.set(TABLE_PARAMS.pageIndex, String(Math.floor(next)));
      }, updateOptions),
    [update],
  );
  const setPageSize = useCallback(
    (next: number, updateOptions?: UpdateOptions) =>
      update((draft) => {
        draft.set(TABLE_PARAMS.pageSize, String(Math.floor(next)));
        draft.delete(TABLE_PARAMS.pageIndex);
      }, updateOptions),
    [update],
  );
  return { pageIndex, pageSize, setPageIndex, setPageSize };
}

export interface SortParams {
  sortBy: string | undefined;
  sortOrder: SortOrder;
  /** Sorts by one column (or clears sorting with undefined) and returns to the first page. */
  setSort(sortBy: string | undefined, sortOrder?: SortOrder, options?: UpdateOptions): void;
}

/** Reads and writes `sortBy` and `sortOrder` (asc or desc). */
export function useSortParams(defaults: { sortBy?: string; sortOrder?: SortOrder } = {}): SortParams {
  const [params] = useSearchParams();
  const update = useUpdateSearchParams();
  const rawOrder = params.get(TABLE_PARAMS.sortOrder);
  const sortBy = params.get(TABLE_PARAMS.sortBy) || defaults.sortBy;
  const sortOrder: SortOrder =
    rawOrder === 'asc' || rawOrder === 'desc' ? rawOrder : (defaults.sortOrder ?? 'asc');

  const setSort = useCallback(
    (nextSortBy: string | undefined, nextOrder: SortOrder = 'asc', updateOptions?: UpdateOptions) =>
      update((draft) => {
        if (nextSortBy) {
          draft.set(TABLE_PARAMS.sortBy, nextSortBy);
          draft.set(TABLE_PARAMS.sortOrder, nextOrder);
        } else {
          draft.delete(TABLE_PARAMS.sortBy);
          draft.delete(TABLE_PARAMS.sortOrder);
        }
        draft.delete(TABLE_PARAMS.pageIndex);
      }, updateOptions),
    [update],
  );
  return { sortBy, sortOrder, setSort };
}
