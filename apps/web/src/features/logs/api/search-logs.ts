import { logsResponseSchema, type LogsRequest, type LogsResponse } from '@opsdeck/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** `POST /api/logs`: one search; the key holds the whole request so a new range or query refetches. */
export const searchLogsQueryOptions = (request: LogsRequest | undefined) =>
  queryOptions({
    queryKey: ['logs', 'search', request],
    queryFn: ({ signal }): Promise<LogsResponse> =>
      apiFetch(
        '/api/logs',
        { method: 'POST', body: JSON.stringify(request), signal },
        { schema: logsResponseSchema },
      ),
    enabled: request !== undefined,
    // Logs move: a search is fresh for a short while only, and is never retried on a 4xx.
    staleTime: 10_000,
    retry: false,
    placeholderData: keepPreviousData,
  });

export const useSearchLogs = (request: LogsRequest | undefined) => useQuery(searchLogsQueryOptions(request));
