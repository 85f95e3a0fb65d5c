import { applicationListSchema, applicationReportSchema } from '@opsdeck/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** `GET /api/application`: every application with health and counts. */
export const applicationListQueryOptions = () =>
  queryOptions({
    queryKey: ['applications', 'list'],
    queryFn: ({ signal }) => apiFetch('/api/application', { signal }, { schema: applicationListSchema }),
  });

export const useApplicationList = () => useQuery(applicationListQueryOptions());

/** `GET /api/application/{namespace}/{name}?range=`: the audit report. */
export const applicationReportQueryOptions = (namespace: string, name: string, range: string) =>
  queryOptions({
    queryKey: ['applications', 'report', namespace, name, range],
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/application/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}?${new URLSearchParams({ range }).toString()}`,
        { signal },
        { schema: applicationReportSchema },
      ),
    placeholderData: keepPreviousData,
  });

export const useApplicationReport = (namespace: string, name: string, range: string) =>
  useQuery(applicationReportQueryOptions(namespace, name, range));
