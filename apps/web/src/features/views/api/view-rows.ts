import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { fetchCounted } from '../../../lib/data-api';
import { viewRowsSearch, type ViewRowsPage } from '../lib/view-rows-search';
import { viewCallError } from './run-view';

export const useViewRows = (page: ViewRowsPage, enabled: boolean) => {
  const search = viewRowsSearch(page);
  return useQuery({
    queryKey: ['view-rows', page.table, search.toString()],
    queryFn: async ({ signal }) => {
      try {
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
