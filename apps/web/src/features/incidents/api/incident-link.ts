import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client';
import type { IncidentLinkPlan } from '../lib/incident-link-form';
import { insertRow } from '../../../lib/data-api';

export interface IncidentOption {
  id: string;
  title: string;
  status: string;
}

export interface HypothesisOption {
  id: string;
  title: string;
  type: string;
}

/** A plain-filter `ilike` pattern (PostgREST keeps quotes literally outside lists and or()). */
const ilike = (text: string) => `*${text}*`;

/** Incidents whose title matches the search (newest first), for the link dialog. */
export function useIncidentOptions(search: string, enabled: boolean) {
  const text = search.trim();
  return useQuery({
    queryKey: ['incidents', 'link-options', text],
    enabled,
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({
        select: 'id,title,status',
        order: 'created_at.desc',
        limit: '50',
      });
      if (text) params.set('title', `ilike.${ilike(text)}`);
      return apiFetch<IncidentOption[]>(`/api/db/incidents?${params.toString()}`, { signal });
    },
  });
}

/** The hypotheses of one incident, oldest first. */
export function useHypothesisOptions(incidentId: string) {
  return useQuery({
    queryKey: ['incidents', 'link-hypotheses', incidentId],
    enabled: Boolean(incidentId),
    queryFn: ({ signal }) =>
      apiFetch<HypothesisOption[]>(
        `/api/db/hypotheses?select=id,title,type&incident_id=eq.${encodeURIComponent(incidentId)}&order=created_at.asc`,
        { signal },
      ),
  });
}

/**
 * Writes a link (spec core §7): POST /incidents when a new incident is asked for, POST
 * /hypotheses when a new hypothesis is, then POST /evidences. Returns the incident's id.
 */
export async function linkToIncident(
  plan: IncidentLinkPlan,
): Promise<{ incidentId: string; evidenceId: string }> {
  const incidentId =
    'id' in plan.incident
      ? plan.incident.id
      : (await insertRow<{ id: string }>('incidents', plan.incident.create)).id;
  const hypothesisId =
    'id' in plan.hypothesis
      ? plan.hypothesis.id
      : (
          await insertRow<{ id: string }>('hypotheses', {
            incident_id: incidentId,
            ...plan.hypothesis.create,
          })
        ).id;
  const evidence = await insertRow<{ id: string }>('evidences', {
    ...plan.evidence,
    hypothesis_id: hypothesisId,
  });
  return { incidentId, evidenceId: evidence.id };
}
