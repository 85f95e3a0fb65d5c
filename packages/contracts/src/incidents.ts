import { z } from 'zod';

// The values an incident, a hypothesis and an evidence take (spec core §4, settings §9), in the
// spec's order. Migrations 0007 and 0040 hold the same sets as CHECK constraints.

export const INCIDENT_STATUSES = ['new', 'open', 'investigating', 'mitigated', 'resolved', 'closed'] as const;
export const incidentStatusSchema = z.enum(INCIDENT_STATUSES);
export type IncidentStatus = z.infer<typeof incidentStatusSchema>;

/**
 * Every severity an incident may have, lowest first: the five levels of core §4 after info and
 * warning, which the incident link dialog also offers (the order of migration 0007).
 */
export const INCIDENT_SEVERITIES = [
  'info',
  'warning',
  'low',
  'medium',
  'high',
  'critical',
  'blocker',
] as const;
export const incidentSeveritySchema = z.enum(INCIDENT_SEVERITIES);
export type IncidentSeverity = z.infer<typeof incidentSeveritySchema>;

/** The five levels the incident pages offer (core §4: low, medium, high, critical, blocker). */
export const INCIDENT_SEVERITY_LEVELS = incidentSeveritySchema.exclude(['info', 'warning']).options;

/**
 * The incident link dialog's severities in the order settings §9 lists them (blocker before
 * critical, unlike core §4): the same values as INCIDENT_SEVERITIES, shown in another order.
 */
export const INCIDENT_LINK_SEVERITIES = [
  'info',
  'warning',
  'low',
  'medium',
  'high',
  'blocker',
  'critical',
] as const satisfies readonly IncidentSeverity[];

export const INCIDENT_TYPES = [
  'cost',
  'availability',
  'performance',
  'security',
  'integration',
  'compliance',
  'technicalDebt',
  'reliability',
] as const;
export const incidentTypeSchema = z.enum(INCIDENT_TYPES);
export type IncidentType = z.infer<typeof incidentTypeSchema>;

/** What a new incident takes when nothing else is chosen (core §4, settings §9). */
export const NEW_INCIDENT_DEFAULTS = {
  status: 'open',
  severity: 'low',
  type: 'availability',
} as const satisfies { status: IncidentStatus; severity: IncidentSeverity; type: IncidentType };

export const HYPOTHESIS_STATUSES = [
  'proven',
  'likely',
  'possible',
  'unlikely',
  'improbable',
  'disproven',
] as const;
export const hypothesisStatusSchema = z.enum(HYPOTHESIS_STATUSES);
export type HypothesisStatus = z.infer<typeof hypothesisStatusSchema>;

/** Hypothesis types in their hierarchy: a root has factors, a factor has solutions. */
export const HYPOTHESIS_TYPES = ['root', 'factor', 'solution'] as const;
export const hypothesisTypeSchema = z.enum(HYPOTHESIS_TYPES);
export type HypothesisType = z.infer<typeof hypothesisTypeSchema>;

/** Core §4: a new hypothesis is a possible root. */
export const NEW_HYPOTHESIS_DEFAULTS = {
  status: 'possible',
  type: 'root',
} as const satisfies { status: HypothesisStatus; type: HypothesisType };

/** Evidence kinds (core §4). */
export const EVIDENCE_TYPES = [
  'log',
  'config',
  'topology',
  'check',
  'config_analysis',
  'config_change',
  'comment',
] as const;
export const evidenceTypeSchema = z.enum(EVIDENCE_TYPES);
export type EvidenceType = z.infer<typeof evidenceTypeSchema>;

/** Core §3: a responder is a person or a team (`responders.type`). */
export const RESPONDER_TYPES = ['person', 'team'] as const;
export const responderTypeSchema = z.enum(RESPONDER_TYPES);
export type ResponderType = z.infer<typeof responderTypeSchema>;

/** The incident timeline's event names (core §4; `incident_histories.type`). */
export const INCIDENT_EVENT_TYPES = [
  'incident.created',
  'responder.created',
  'evidence.created',
  'incident.status_updated',
  'evidence.done_definition_added',
  'incident_status.updated',
  'responder.commented',
  'hypothesis.created',
  'hypothesis.status_updated',
] as const;
export const incidentEventTypeSchema = z.enum(INCIDENT_EVENT_TYPES);
export type IncidentEventType = z.infer<typeof incidentEventTypeSchema>;
