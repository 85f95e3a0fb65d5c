import {
  INCIDENT_LINK_SEVERITIES,
  INCIDENT_TYPES,
  NEW_HYPOTHESIS_DEFAULTS,
  NEW_INCIDENT_DEFAULTS,
  type IncidentType,
} from '@opsdeck/contracts';

/**
 * What a link is about (spec core §3 "Evidence-link form fields"): exactly one resource, the
 * evidence kind it becomes (core §4) and how it is named in the dialog.
 */
export type IncidentLinkTarget =
  | { kind: 'check'; checkId: string; name: string }
  | { kind: 'config'; configId: string; name: string }
  | { kind: 'config_change'; configChangeId: string; configId?: string; name: string }
  | { kind: 'config_analysis'; configAnalysisId: string; configId?: string; name: string }
  | { kind: 'component'; componentId: string; name: string };

/** Spec settings §9: the link dialog offers these severities, in its order, with capitalised labels. */
export const LINK_SEVERITIES = INCIDENT_LINK_SEVERITIES.map((value) => ({
  value,
  label: value.charAt(0).toUpperCase() + value.slice(1),
}));
export type LinkSeverity = (typeof INCIDENT_LINK_SEVERITIES)[number];

/** The four messages of spec core §5. */
export const LINK_MESSAGES = {
  incident: 'Must select or create an incident',
  severity: 'Please select incident severity',
  type: 'Please select an incident type',
  hypothesis: 'Must select or create a hypothesis',
} as const;

export const LINK_SUCCESS_MESSAGE = 'Linked to incident successfully';

export interface IncidentLinkValues {
  /** An existing incident's id; empty when none is selected. */
  incidentId: string;
  /** Creating a new incident: its title (the incident field's "create" choice). */
  newIncidentTitle: string;
  creatingIncident: boolean;
  /** An existing hypothesis of the selected incident; empty when none. */
  hypothesisId: string;
  /** Creating a new hypothesis: its title. */
  newHypothesisTitle: string;
  creatingHypothesis: boolean;
  severity: string;
  type: string;
  description: string;
}

/** Spec settings §9 defaults: severity Low, type availability. */
export const EMPTY_LINK_FORM: IncidentLinkValues = {
  incidentId: '',
  newIncidentTitle: '',
  creatingIncident: false,
  hypothesisId: '',
  newHypothesisTitle: '',
  creatingHypothesis: false,
  severity: NEW_INCIDENT_DEFAULTS.severity,
  type: NEW_INCIDENT_DEFAULTS.type,
  description: '',
};

export type IncidentLinkErrors = Partial<Record<'incident' | 'severity' | 'type' | 'hypothesis', string>>;

/** What to write, in order: maybe an incident, maybe a hypothesis, then the evidence. */
export interface IncidentLinkPlan {
  incident:
    | { id: string }
    | { create: { title: string; severity: LinkSeverity; type: IncidentType; description: string } };
  hypothesis: { id: string } | { create: { title: string } & typeof NEW_HYPOTHESIS_DEFAULTS };
  evidence: Record<string, unknown>;
}

export type IncidentLinkResult =
  { ok: true; plan: IncidentLinkPlan } | { ok: false; errors: IncidentLinkErrors };

const isLinkSeverity = (value: string): value is LinkSeverity =>
  (INCIDENT_LINK_SEVERITIES as readonly string[]).includes(value);
const isType = (value: string): value is IncidentType =>
  (INCIDENT_TYPES as readonly string[]).includes(value);

/** The evidence row for a target (spec core §3 evidence fields and §4 evidence kinds). */
export function evidenceFor(target: IncidentLinkTarget, description: string): Record<string, unknown> {
  const base = { description: description || target.name, evidence: { name: target.name } };
  switch (target.kind) {
    case 'check':
      return { ...base, type: 'check', check_id: target.checkId };
    case 'config':
      return { ...base, type: 'config', config_id: target.configId };
    case 'config_change':
      return {
        ...base,
        type: 'config_change',
        config_change_id: target.configChangeId,
        config_id: target.configId ?? null,
      };
    case 'config_analysis':
      return {
        ...base,
        type: 'config_analysis',
        config_analysis_id: target.configAnalysisId,
        config_id: target.configId ?? null,
      };
    case 'component':
      return { ...base, type: 'topology', component_id: target.componentId };
  }
}

/**
 * Spec core §5: an incident must be selected or created; a new incident needs a severity and a
 * type; an existing incident needs a hypothesis selected or created. A new incident gets a new
 * root hypothesis named after its title when none is typed (core §4 defaults: possible, root).
 */
export function validateIncidentLink(
  values: IncidentLinkValues,
  target: IncidentLinkTarget,
): IncidentLinkResult {
  const errors: IncidentLinkErrors = {};
  const newTitle = values.newIncidentTitle.trim();
  const newHypothesis = values.newHypothesisTitle.trim();
  const description = values.description.trim();
  const creatingIncident = values.creatingIncident;
  if (creatingIncident ? !newTitle : !values.incidentId) errors.incident = LINK_MESSAGES.incident;
  if (creatingIncident && !isLinkSeverity(values.severity)) errors.severity = LINK_MESSAGES.severity;
  if (creatingIncident && !isType(values.type)) errors.type = LINK_MESSAGES.type;
  if (!creatingIncident && values.incidentId) {
    const hasHypothesis = values.creatingHypothesis ? Boolean(newHypothesis) : Boolean(values.hypothesisId);
    if (!hasHypothesis) errors.hypothesis = LINK_MESSAGES.hypothesis;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };

  const incident: IncidentLinkPlan['incident'] = creatingIncident
    ? {
        create: {
          title: newTitle,
          severity: values.severity as LinkSeverity,
          type: values.type as IncidentType,
          description,
        },
      }
    : { id: values.incidentId };
  const hypothesis: IncidentLinkPlan['hypothesis'] =
    !creatingIncident && !values.creatingHypothesis
      ? { id: values.hypothesisId }
      : {
          create: {
            title: newHypothesis || newTitle,
            status: NEW_HYPOTHESIS_DEFAULTS.status,
            type: NEW_HYPOTHESIS_DEFAULTS.type,
          },
        };
  return { ok: true, plan: { incident, hypothesis, evidence: evidenceFor(target, description) } };
}

/** Spec core §2: the hypothesis of an incident that has exactly one, else none. */
export function autoSelectedHypothesis(hypotheses: readonly { id: string }[]): string {
  return hypotheses.length === 1 ? hypotheses[0]!.id : '';
}
