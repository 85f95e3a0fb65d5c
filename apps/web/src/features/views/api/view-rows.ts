import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { fetchCounted, fetchRows } from '../../../lib/data-api';
import { viewRowsSearch, type ViewRowsPage } from '../lib/view-rows-search';
import { viewCallError } from './run-view';

/**
 * One page of a view's rows. `rowCount` is the fingerprint's row count from its refresh: an
 * unfiltered page uses it as the total instead of having the server count the rows again.
 */
export const useViewRows = (page: ViewRowsPage, enabled: boolean, rowCount?: number | null) => {
  const search = viewRowsSearch(page);
  const filtered = Object.values(page.filters).some((values) => values.length > 0);
  const knownTotal = !filtered && typeof rowCount === 'number' ? rowCount : null;
  return useQuery({
    queryKey: ['view-rows', page.table, search.toString(), knownTotal],
    queryFn: async ({ signal }) => {
      try {
        if (knownTotal !== null)
          return {
            rows: await fetchRows<Record<string, unknown>>(
              `/api/db/${page.table}?${search.toString()}`,
              signal,
            ),
            total: knownTotal,
          };
        return await fetchCounted<Record<string, unknown>>(
          `/api/db/${page.table}?${search.toString()}`,
          signal,
        );
      } catch (error) {
        throw viewCallError(error);
      }
    },
    enabled,
    placeholderData: keepPreviousData,
  });
};
