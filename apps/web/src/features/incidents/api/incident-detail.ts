import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import { fetchEveryRow } from '../../../lib/data-api';
import type { HypothesisStatus, HypothesisType } from '@opsdeck/contracts';
import { INCIDENTS_QUERY_KEY } from './incident-list';

export interface PersonRef {
  id: string;
  name: string | null;
  avatar: string | null;
}

/** One incident from incident_summary (spec core §3 plus the view's people, counts, durations). */
export interface IncidentSummary {
  id: string;
  /** The short human-readable id the database gives (INC0000042). */
  incident_id: string;
  title: string;
  description: string | null;
  severity: string;
  type: string;
  status: string;
  created_by: string | null;
  commander_id: string | null;
  communicator_id: string | null;
  created_at: string;
  updated_at: string;
  commander: PersonRef | null;
  communicator: PersonRef | null;
  creator: PersonRef | null;
  time_to_acknowledge: number | null;
  time_to_mitigate: number | null;
  time_to_resolve: number | null;
}

export interface Hypothesis {
  id: string;
  incident_id: string;
  parent_id: string | null;
  title: string;
  type: HypothesisType;
  status: HypothesisStatus;
  created_by: string | null;
  created_at: string;
}

export interface IncidentComment {
  id: string;
  hypothesis_id: string | null;
  comment: string;
  /** Set on a status update (migration 0040): the status it moved the incident to. */
  status: string | null;
  mentions: string[];
  created_by: string | null;
  external_created_by: string | null;
  created_at: string;
}

export interface Evidence {
  id: string;
  hypothesis_id: string;
  type: string;
  description: string | null;
  definition_of_done: boolean;
  done: boolean;
  check_id: string | null;
  config_id: string | null;
  component_id: string | null;
  config_change_id: string | null;
  properties: Record<string, unknown> | null;
  script: string | null;
  created_at: string;
}

export interface Responder {
  id: string;
  type: string;
  person_id: string | null;
  team_id: string | null;
  created_at: string;
}

export interface HistoryEntry {
  id: string;
  type: string;
  description: string | null;
  comment_id: string | null;
  created_by: string | null;
  created_at: string;
}

export interface NamedRef {
  id: string;
  name: string;
}

export interface IncidentDetail {
  incident: IncidentSummary | undefined;
  hypotheses: Hypothesis[];
  comments: IncidentComment[];
  evidences: Evidence[];
  responders: Responder[];
  histories: HistoryEntry[];
}

export const incidentDetailKey = (id: string) => [...INCIDENTS_QUERY_KEY, 'detail', id] as const;

const eq = (id: string) => `eq.${encodeURIComponent(id)}`;

async function fetchIncidentDetail(id: string, signal: AbortSignal): Promise<IncidentDetail> {
  // The server caps each answer (DATA_API_MAX_ROWS): a long incident's lists are read in pages
  // (one request while they fit; the timeline keeps its order, ties as the database gives them).
  const all = <T>(path: string) => fetchEveryRow<T>(path, signal);
  const [incidents, hypotheses, comments, responders, histories] = await Promise.all([
    apiFetch<IncidentSummary[]>(`/api/db/incident_summary?id=${eq(id)}`, { signal }),
    all<Hypothesis>(`/api/db/hypotheses?incident_id=${eq(id)}&order=created_at.asc`),
    all<IncidentComment>(`/api/db/comments?incident_id=${eq(id)}&order=created_at.asc`),
    all<Responder>(`/api/db/responders?incident_id=${eq(id)}&deleted_at=is.null&order=created_at.asc`),
    all<HistoryEntry>(`/api/db/incident_histories?incident_id=${eq(id)}&order=created_at.desc`),
  ]);
  // Evidence hangs off hypotheses, not the incident.
  const evidences =
    hypotheses.length === 0
      ? []
      : await all<Evidence>(
          `/api/db/evidences?hypothesis_id=in.(${hypotheses.map((h) => h.id).join(',')})&order=created_at.asc`,
        );
  return { incident: incidents[0], hypotheses, comments, evidences, responders, histories };
}

export const incidentDetailQueryOptions = (id: string) =>
  queryOptions({
    queryKey: incidentDetailKey(id),
    queryFn: ({ signal }) => fetchIncidentDetail(id, signal),
  });

export const useIncidentDetail = (id: string) => useQuery(incidentDetailQueryOptions(id));

/** People and teams, to name actors and to pick responders, commander and communicator. */
export const usePeople = () =>
  useQuery({
    queryKey: ['people', 'names'],
    queryFn: ({ signal }) =>
      fetchEveryRow<NamedRef>(
        '/api/db/people?select=id,name&deleted_at=is.null&order=name.asc,id.asc',
        signal,
      ),
  });

export const useTeams = () =>
  useQuery({
    queryKey: ['teams', 'names'],
    queryFn: ({ signal }) =>
      fetchEveryRow<NamedRef>(
        '/api/db/teams?select=id,name&deleted_at=is.null&order=name.asc,id.asc',
        signal,
      ),
  });
