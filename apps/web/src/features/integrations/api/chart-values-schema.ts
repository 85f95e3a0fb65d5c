import { chartValuesSchemaResponseSchema, type GitopsChart } from '@opsdeck/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';

/** A GitOps chart's values schema: the registry's, or the bundled copy with the reason. */
export const chartValuesSchemaQueryOptions = (chart: GitopsChart) =>
  queryOptions({
    queryKey: ['integrations', 'chart-values-schema', chart],
    queryFn: ({ signal }) =>
      apiFetch(
        `/api/integrations/charts/${encodeURIComponent(chart)}/values-schema`,
        { signal },
        { schema: chartValuesSchemaResponseSchema },
      ),
    staleTime: 10 * 60_000,
  });

export const useChartValuesSchema = (chart: GitopsChart) => useQuery(chartValuesSchemaQueryOptions(chart));
