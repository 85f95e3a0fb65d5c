import { relationRowSchemas } from '@opsdeck/contracts';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { IncidentLinkPlan } from '../lib/incident-link-form';
import { fetchRows, insertRow } from '../../../lib/data-api';

const incidentOptionSchema = relationRowSchemas.incidents.pick({ id: true, title: true, status: true });
export type IncidentOption = z.infer<typeof incidentOptionSchema>;

const hypothesisOptionSchema = relationRowSchemas.hypotheses.pick({ id: true, title: true, type: true });
export type HypothesisOption = z.infer<typeof hypothesisOptionSchema>;

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
      return fetchRows(`/api/db/incidents?${params.toString()}`, signal, incidentOptionSchema);
    },
  });
}

/** The hypotheses of one incident, oldest first. */
export function useHypothesisOptions(incidentId: string) {
  return useQuery({
    queryKey: ['incidents', 'link-hypotheses', incidentId],
    enabled: Boolean(incidentId),
    queryFn: ({ signal }) =>
      fetchRows(
        `/api/db/hypotheses?select=id,title,type&incident_id=eq.${encodeURIComponent(incidentId)}&order=created_at.asc`,
        signal,
        hypothesisOptionSchema,
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
      : (await insertRow('incidents', plan.incident.create, relationRowSchemas.incidents.pick({ id: true })))
          .id;
  const hypothesisId =
    'id' in plan.hypothesis
      ? plan.hypothesis.id
      : (
          await insertRow(
            'hypotheses',
            { incident_id: incidentId, ...plan.hypothesis.create },
            relationRowSchemas.hypotheses.pick({ id: true }),
          )
        ).id;
  const evidence = await insertRow(
    'evidences',
    { ...plan.evidence, hypothesis_id: hypothesisId },
    relationRowSchemas.evidences.pick({ id: true }),
  );
  return { incidentId, evidenceId: evidence.id };
}
