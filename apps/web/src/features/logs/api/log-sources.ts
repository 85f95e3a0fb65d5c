import { logSourcesResponseSchema } from '@opsdeck/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** `GET /api/logs/sources`: the backends, and the components and config items that have logs. */
export const logSourcesQueryOptions = () =>
  queryOptions({
    queryKey: ['logs', 'sources'],
    queryFn: ({ signal }) => apiFetch('/api/logs/sources', { signal }, { schema: logSourcesResponseSchema }),
  });

export const useLogSources = () => useQuery(logSourcesQueryOptions());
