import { namedRowSchema, relationRowSchemas } from '@opsdeck/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  incidentListSearch,
  type IncidentListFilters,
  type IncidentListPage,
} from '../lib/incident-list-query';
import { fetchCounted, fetchRows } from '../../../lib/data-api';

/** The columns of incident_summary the list selects (incidentListSearch). */
const incidentListItemSchema = relationRowSchemas.incident_summary.pick({
  id: true,
  incident_id: true,
  title: true,
  severity: true,
  type: true,
  status: true,
  created_at: true,
  updated_at: true,
  commander: true,
  creator: true,
  responders_count: true,
  hypotheses_count: true,
  comments_count: true,
  time_to_resolve: true,
});

/** A row of incident_summary as the list selects it. */
export type IncidentListItem = z.infer<typeof incidentListItemSchema>;

export const INCIDENTS_QUERY_KEY = ['incidents'] as const;

export const incidentListQueryOptions = (filters: IncidentListFilters, page: IncidentListPage) => {
  const search = incidentListSearch(filters, page);
  return queryOptions({
    queryKey: [...INCIDENTS_QUERY_KEY, 'list', search.toString()],
    queryFn: ({ signal }) =>
      fetchCounted(`/api/db/incident_summary?${search.toString()}`, signal, incidentListItemSchema),
    placeholderData: keepPreviousData,
  });
};

export const useIncidentList = (filters: IncidentListFilters, page: IncidentListPage) =>
  useQuery(incidentListQueryOptions(filters, page));

/** Components to filter the list by (those the topology lists; hidden when they cannot be read). */
export const useComponentOptions = () =>
  useQuery({
    queryKey: ['components', 'names'],
    retry: false,
    queryFn: ({ signal }) =>
      fetchRows(
        '/api/db/components?select=id,name&deleted_at=is.null&order=name.asc&limit=1000',
        signal,
        namedRowSchema,
      ),
  });
