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

// ---------------------------------------------------------------------------------------------
// Rows of the incident relations the web app reads through the data API (`/api/db/...`), listed
// in rows.ts `relationRowSchemas`. Times are the data API's timestamp text.
// ---------------------------------------------------------------------------------------------

/** `incidents` (core §3 "Incident"). */
export const incidentRowSchema = z.object({
  id: z.string(),
  /** The short human-readable id the database gives (INC0000042). */
  incident_id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  type: incidentTypeSchema,
  status: incidentStatusSchema,
  severity: incidentSeveritySchema,
  created_by: z.string().nullable(),
  commander_id: z.string().nullable(),
  communicator_id: z.string().nullable(),
  incident_rule_id: z.string().nullable(),
  acknowledged: z.string().nullable(),
  resolved: z.string().nullable(),
  closed: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type IncidentRow = z.infer<typeof incidentRowSchema>;

/** A person as incident_summary embeds one (commander, communicator, creator). */
export const incidentPersonSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  avatar: z.string().nullable(),
});
export type IncidentPerson = z.infer<typeof incidentPersonSchema>;

/** `incident_summary`: an incident with its people, counts and durations (seconds). */
export const incidentSummaryRowSchema = incidentRowSchema.extend({
  commander: incidentPersonSchema.nullable(),
  communicator: incidentPersonSchema.nullable(),
  creator: incidentPersonSchema.nullable(),
  responders: z.unknown(),
  commenters: z.unknown(),
  responders_count: z.number(),
  hypotheses_count: z.number(),
  evidences_count: z.number(),
  comments_count: z.number(),
  acknowledged_at: z.string().nullable(),
  mitigated_at: z.string().nullable(),
  resolved_at: z.string().nullable(),
  closed_at: z.string().nullable(),
  time_to_acknowledge: z.number().nullable(),
  time_to_mitigate: z.number().nullable(),
  time_to_resolve: z.number().nullable(),
  time_to_close: z.number().nullable(),
  check_ids: z.array(z.string()).nullable(),
  component_ids: z.array(z.string()).nullable(),
  config_ids: z.array(z.string()).nullable(),
  responder_person_ids: z.array(z.string()).nullable(),
});
export type IncidentSummaryRow = z.infer<typeof incidentSummaryRowSchema>;

/** `hypotheses`. */
export const hypothesisRowSchema = z.object({
  id: z.string(),
  incident_id: z.string(),
  parent_id: z.string().nullable(),
  title: z.string(),
  type: hypothesisTypeSchema,
  status: hypothesisStatusSchema,
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** `comments`: a comment, or (with `status`, migration 0040) a status update. */
export const commentRowSchema = z.object({
  id: z.string(),
  incident_id: z.string(),
  hypothesis_id: z.string().nullable(),
  responder_id: z.string().nullable(),
  comment: z.string(),
  external_id: z.string().nullable(),
  external_created_by: z.string().nullable(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  status: incidentStatusSchema.nullable(),
  mentions: z.array(z.string()),
});

/** `evidences`: what supports a hypothesis (a check, item, change, component, a note). */
export const evidenceRowSchema = z.object({
  id: z.string(),
  hypothesis_id: z.string(),
  type: evidenceTypeSchema,
  description: z.string().nullable(),
  evidence: z.unknown(),
  properties: z.record(z.string(), z.unknown()).nullable(),
  config_id: z.string().nullable(),
  config_analysis_id: z.string().nullable(),
  config_change_id: z.string().nullable(),
  component_id: z.string().nullable(),
  check_id: z.string().nullable(),
  definition_of_done: z.boolean().nullable(),
  done: z.boolean().nullable(),
  script: z.string().nullable(),
  script_result: z.string().nullable(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** `responders`: a person or a team responding to an incident (soft-deleted). */
export const responderRowSchema = z.object({
  id: z.string(),
  incident_id: z.string(),
  type: responderTypeSchema,
  person_id: z.string().nullable(),
  team_id: z.string().nullable(),
  external_id: z.string().nullable(),
  properties: z.unknown(),
  acknowledged: z.string().nullable(),
  resolved: z.string().nullable(),
  closed: z.string().nullable(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().nullable(),
});

/** `incident_histories`: the incident's timeline. */
export const incidentHistoryRowSchema = z.object({
  id: z.string(),
  incident_id: z.string(),
  type: incidentEventTypeSchema,
  description: z.string().nullable(),
  hypothesis_id: z.string().nullable(),
  evidence_id: z.string().nullable(),
  comment_id: z.string().nullable(),
  responder_id: z.string().nullable(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** `incident_rules` (settings §7): an IncidentRule resource. */
export const incidentRuleRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  labels: z.record(z.string(), z.string()).nullable(),
  spec: z.record(z.string(), z.unknown()),
  source: z.string(),
  agent_id: z.string(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().nullable(),
});

/**
 * The `id,name` of a row the incident pages pick from (people, teams, components). Those
 * relations belong to other areas; their full row schemas are theirs to add to rows.ts.
 */
export const namedRowSchema = z.object({ id: z.string(), name: z.string() });
export type NamedRow = z.infer<typeof namedRowSchema>;
