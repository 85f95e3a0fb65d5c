import {
  NEW_HYPOTHESIS_DEFAULTS,
  relationRowSchemas,
  type HypothesisType,
  type ResponderType,
} from '@opsdeck/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NewIncident } from '../lib/incident-form';
import { deleteRow, insertRow, updateRow } from '../../../lib/data-api';
import { INCIDENTS_QUERY_KEY } from './incident-list';

// Writes read back the new row's id only (`.pick({ id: true })` of the relation's row schema):
// the pages refetch the rows they show after every write.

/** The server fills status open, commander, communicator and created_by (spec core §4, §6). */
export function useCreateIncident() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (incident: NewIncident) =>
      insertRow('incidents', { ...incident }, relationRowSchemas.incidents.pick({ id: true })),
    onSuccess: () => client.invalidateQueries({ queryKey: INCIDENTS_QUERY_KEY }),
  });
}

/** Every write on an incident's page refreshes that page (and the list's counts). */
export function useIncidentWrite<TInput>(write: (input: TInput) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSettled: () => client.invalidateQueries({ queryKey: INCIDENTS_QUERY_KEY }),
  });
}

export const updateIncident = (input: { id: string; changes: Record<string, unknown> }) =>
  updateRow('incidents', input.id, input.changes);

export const addHypothesis = (input: {
  incidentId: string;
  parentId: string | null;
  type: HypothesisType;
  title: string;
}) =>
  insertRow(
    'hypotheses',
    {
      incident_id: input.incidentId,
      parent_id: input.parentId,
      title: input.title,
      type: input.type,
      status: NEW_HYPOTHESIS_DEFAULTS.status,
    },
    relationRowSchemas.hypotheses.pick({ id: true }),
  );

export const updateHypothesisStatus = (input: { id: string; status: string }) =>
  updateRow('hypotheses', input.id, { status: input.status });

export const deleteHypothesis = (id: string) => deleteRow('hypotheses', id);

export const addComment = (input: { incidentId: string; hypothesisId: string; comment: string }) =>
  insertRow(
    'comments',
    {
      incident_id: input.incidentId,
      hypothesis_id: input.hypothesisId,
      comment: input.comment,
    },
    relationRowSchemas.comments.pick({ id: true }),
  );

export const addEvidence = (input: {
  hypothesisId: string;
  description: string;
  definitionOfDone: boolean;
}) =>
  insertRow(
    'evidences',
    {
      hypothesis_id: input.hypothesisId,
      type: 'comment',
      description: input.description,
      definition_of_done: input.definitionOfDone,
    },
    relationRowSchemas.evidences.pick({ id: true }),
  );

/** The resources an evidence can point at, and the evidence type and column of each. */
export type ResourceEvidenceKind = 'check' | 'config' | 'component';
const RESOURCE_EVIDENCE: Record<ResourceEvidenceKind, { type: string; column: string }> = {
  check: { type: 'check', column: 'check_id' },
  config: { type: 'config', column: 'config_id' },
  component: { type: 'topology', column: 'component_id' },
};

/** Links a check, config or component to a hypothesis; the resource's name is the description. */
export const addResourceEvidence = (input: {
  hypothesisId: string;
  kind: ResourceEvidenceKind;
  id: string;
  name: string;
}) =>
  insertRow(
    'evidences',
    {
      hypothesis_id: input.hypothesisId,
      type: RESOURCE_EVIDENCE[input.kind].type,
      [RESOURCE_EVIDENCE[input.kind].column]: input.id,
      description: input.name,
    },
    relationRowSchemas.evidences.pick({ id: true }),
  );

export const updateEvidence = (input: {
  id: string;
  changes: { done?: boolean; definition_of_done?: boolean };
}) => updateRow('evidences', input.id, input.changes);

export const addResponder = (input: { incidentId: string; kind: ResponderType; id: string }) =>
  insertRow(
    'responders',
    {
      incident_id: input.incidentId,
      type: input.kind,
      person_id: input.kind === 'person' ? input.id : null,
      team_id: input.kind === 'team' ? input.id : null,
    },
    relationRowSchemas.responders.pick({ id: true }),
  );

/** Responders are soft-deleted: people who responded stay on record (migration 0007). */
export const removeResponder = (id: string) =>
  updateRow('responders', id, { deleted_at: new Date().toISOString() });

/**
 * A status update (migration 0040): a public comment on the incident carrying its new status;
 * the server moves the incident to that status as the same person.
 */
export const postStatusUpdate = (input: { incidentId: string; status: string; message: string }) =>
  insertRow(
    'comments',
    { incident_id: input.incidentId, comment: input.message, status: input.status },
    relationRowSchemas.comments.pick({ id: true }),
  );
