import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import {
  incidentListSearch,
  type IncidentListFilters,
  type IncidentListPage,
} from '../lib/incident-list-query';
import type { PersonRef } from './incident-detail';
import { fetchCounted } from '../../../lib/data-api';

/** A row of incident_summary as the list selects it. */
export interface IncidentListItem {
  id: string;
  /** The short human-readable id the database gives (INC0000042). */
  incident_id: string;
  title: string;
  severity: string;
  type: string;
  status: string;
  created_at: string;
  updated_at: string;
  commander: PersonRef | null;
  creator: PersonRef | null;
  responders_count: number;
  hypotheses_count: number;
  comments_count: number;
  time_to_resolve: number | null;
}

export const INCIDENTS_QUERY_KEY = ['incidents'] as const;

export const incidentListQueryOptions = (filters: IncidentListFilters, page: IncidentListPage) => {
  const search = incidentListSearch(filters, page);
  return queryOptions({
    queryKey: [...INCIDENTS_QUERY_KEY, 'list', search.toString()],
    queryFn: ({ signal }) =>
      fetchCounted<IncidentListItem>(`/api/db/incident_summary?${search.toString()}`, signal),
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
      apiFetch<{ id: string; name: string }[]>(
        '/api/db/components?select=id,name&deleted_at=is.null&order=name.asc&limit=1000',
        { signal },
      ),
  });
