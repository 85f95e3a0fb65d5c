import { VIEW_PAGE_SIZE, type ViewRowsRequest } from '@opsdeck/contracts';
import type { ViewRowsPage } from './view-rows-search';

/** What identifies a page's sequence (everything but the page index): cursors belong to one. */
export function viewPagesKey(page: ViewRowsPage): string {
  const filters = Object.entries(page.filters)
    .filter(([column, values]) => values.length > 0 && page.columns.includes(column))
    .sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([page.fingerprint, page.sortBy ?? null, page.sortOrder, page.pageSize, filters]);
}

/**
 * The body of `POST /api/view/{id}/rows` for a page: after the previous page's `next` cursor when
 * the table has read that page (keyset paging, as cheap on page 2,000 as on page 1), else by
 * offset (a page reached by jumping). Pages default to the first column descending.
 */
export function viewRowsRequest(page: ViewRowsPage, cursor: string | undefined): ViewRowsRequest {
  const size = page.pageSize || VIEW_PAGE_SIZE;
  const chosen = page.sortBy !== undefined && page.columns.includes(page.sortBy);
  const filters = Object.fromEntries(
    Object.entries(page.filters).filter(
      ([column, values]) => values.length > 0 && page.columns.includes(column),
    ),
  );
  return {
    requestFingerprint: page.fingerprint,
    ...(chosen ? { sortBy: page.sortBy, sortOrder: page.sortOrder } : { sortOrder: 'desc' as const }),
    limit: size,
    ...(page.pageIndex === 0
      ? {}
      : cursor !== undefined
        ? { after: cursor }
        : { offset: page.pageIndex * size }),
    ...(Object.keys(filters).length > 0 ? { filters } : {}),
  };
}
