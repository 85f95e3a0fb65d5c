import {
  namedRowSchema,
  relationRowSchemas,
  type IncidentPerson,
  type NamedRow,
  type RelationRow,
} from '@opsdeck/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ResponseSchema } from '../../../lib/api-client';
import { fetchEveryRow, fetchRows } from '../../../lib/data-api';
import { INCIDENTS_QUERY_KEY } from './incident-list';

export type PersonRef = IncidentPerson;

/** One incident from incident_summary (spec core §3 plus the view's people, counts, durations). */
export type IncidentSummary = RelationRow<'incident_summary'>;
export type Hypothesis = RelationRow<'hypotheses'>;
export type IncidentComment = RelationRow<'comments'>;
export type Evidence = RelationRow<'evidences'>;
export type Responder = RelationRow<'responders'>;
export type HistoryEntry = RelationRow<'incident_histories'>;
export type NamedRef = NamedRow;

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
  const all = <T>(path: string, schema: ResponseSchema<T>) => fetchEveryRow(path, signal, schema);
  const [incidents, hypotheses, comments, responders, histories] = await Promise.all([
    fetchRows(`/api/db/incident_summary?id=${eq(id)}`, signal, relationRowSchemas.incident_summary),
    all(`/api/db/hypotheses?incident_id=${eq(id)}&order=created_at.asc`, relationRowSchemas.hypotheses),
    all(`/api/db/comments?incident_id=${eq(id)}&order=created_at.asc`, relationRowSchemas.comments),
    all(
      `/api/db/responders?incident_id=${eq(id)}&deleted_at=is.null&order=created_at.asc`,
      relationRowSchemas.responders,
    ),
    all(
      `/api/db/incident_histories?incident_id=${eq(id)}&order=created_at.desc`,
      relationRowSchemas.incident_histories,
    ),
  ]);
  // Evidence hangs off hypotheses, not the incident.
  const evidences =
    hypotheses.length === 0
      ? []
      : await all(
          `/api/db/evidences?hypothesis_id=in.(${hypotheses.map((h) => h.id).join(',')})&order=created_at.asc`,
          relationRowSchemas.evidences,
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
      fetchEveryRow(
        '/api/db/people?select=id,name&deleted_at=is.null&order=name.asc,id.asc',
        signal,
        namedRowSchema,
      ),
  });

export const useTeams = () =>
  useQuery({
    queryKey: ['teams', 'names'],
    queryFn: ({ signal }) =>
      fetchEveryRow(
        '/api/db/teams?select=id,name&deleted_at=is.null&order=name.asc,id.asc',
        signal,
        namedRowSchema,
      ),
  });
