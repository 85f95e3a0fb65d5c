import { VIEW_PAGE_SIZE } from '@opsdeck/contracts';

export interface ViewRowsPage {
  table: string;
  fingerprint: string;
  columns: string[];
  pageIndex: number;
  pageSize: number;
  sortBy?: string;
  sortOrder: 'asc' | 'desc';
  /** Column → the values it must hold (one of). */
  filters: Record<string, string[]>;
}

function quoted(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * One page of a view's rows from its table through the data API, filtered by the request
 * fingerprint (core §7). Pages default to descending order with nulls last.
 */
export function viewRowsSearch(page: ViewRowsPage): URLSearchParams {
  const search = new URLSearchParams({
    select: page.columns.join(','),
    request_fingerprint: `eq.${page.fingerprint}`,
    limit: String(page.pageSize || VIEW_PAGE_SIZE),
    offset: String(page.pageIndex * (page.pageSize || VIEW_PAGE_SIZE)),
  });
  const chosen = page.sortBy !== undefined && page.columns.includes(page.sortBy);
  const sortBy = chosen ? page.sortBy : page.columns[0];
  if (sortBy) search.set('order', `${sortBy}.${chosen ? page.sortOrder : 'desc'}.nullslast`);
  for (const [column, values] of Object.entries(page.filters)) {
    if (values.length > 0 && page.columns.includes(column))
      search.set(column, `in.(${values.map(quoted).join(',')})`);
  }
  return search;
}
