import { viewRowsPageSchema } from '@opsdeck/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { apiFetch } from '../../../lib/api-client';
import { viewPagesKey, viewRowsRequest } from '../lib/view-rows-request';
import type { ViewRowsPage } from '../lib/view-rows-search';
import { viewCallError } from './run-view';

/**
 * One page of a view's rows from `POST /api/view/{id}/rows`. Each page's `next` cursor is kept,
 * so the following page is read by keyset; a page reached by jumping is read by offset. The total
 * is exact, or the server's estimate when `totalExact` is false.
 */
export const useViewRows = (viewId: string, page: ViewRowsPage, enabled: boolean) => {
  const cursors = useRef(new Map<string, string>());
  const key = viewPagesKey(page);
  return useQuery({
    queryKey: ['view-rows', page.table, key, page.pageIndex],
    queryFn: async ({ signal }) => {
      const request = viewRowsRequest(page, cursors.current.get(`${key}#${page.pageIndex}`));
      try {
        const result = await apiFetch(
          `/api/view/${encodeURIComponent(viewId)}/rows`,
          { method: 'POST', body: JSON.stringify(request), signal },
          { schema: viewRowsPageSchema },
        );
        if (result.next !== null) cursors.current.set(`${key}#${page.pageIndex + 1}`, result.next);
        return result;
      } catch (error) {
        throw viewCallError(error);
      }
    },
    enabled,
    placeholderData: keepPreviousData,
  });
};
