import { relationRowSchemas } from '@opsdeck/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { fetchCounted } from '../../../lib/data-api';
import { resourceListSearch, type ResourceListPage } from '../../../lib/resource-api';

/** The columns of `integrations_with_status` the list reads. */
const integrationRowSchema = relationRowSchemas.integrations_with_status.pick({
  id: true,
  name: true,
  namespace: true,
  integration_type: true,
  source: true,
  job_status: true,
  job_time_start: true,
  job_last_failed: true,
  schedule: true,
  created_at: true,
});
export type IntegrationRow = z.infer<typeof integrationRowSchema>;

export const INTEGRATION_SORTABLE_COLUMNS = [
  'name',
  'namespace',
  'integration_type',
  'job_status',
  'job_time_start',
  'created_at',
];

export type IntegrationListPage = ResourceListPage;

/**
 * One server page of the view, which unions every integration table the server has (scrapers,
 * topologies, log backends): a type whose table is absent simply has no rows here.
 */
export const integrationListSearch = (page: IntegrationListPage): URLSearchParams =>
  resourceListSearch(
    {
      columns: Object.keys(integrationRowSchema.shape),
      sortable: INTEGRATION_SORTABLE_COLUMNS,
      defaultOrder: 'name.asc,id.asc',
    },
    page,
  );

/** The list's query key: the wizard's success invalidates it (settings §4 "Add integration"). */
export const INTEGRATIONS_KEY = ['integrations'] as const;

export const useIntegrationList = (page: IntegrationListPage) => {
  const search = integrationListSearch(page);
  return useQuery({
    queryKey: [...INTEGRATIONS_KEY, search.toString()],
    queryFn: ({ signal }) =>
      fetchCounted(`/api/db/integrations_with_status?${search.toString()}`, signal, integrationRowSchema),
    placeholderData: keepPreviousData,
    // Its rows are made and changed on other pages (the scraper and topology editors, the log
    // backends form), which do not know this list: read it afresh whenever it opens.
    refetchOnMount: 'always',
  });
};
