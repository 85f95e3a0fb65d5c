import {
  INCIDENT_SEVERITY_LEVELS,
  INCIDENT_TYPES,
  NEW_INCIDENT_DEFAULTS,
  type IncidentSeverity,
  type IncidentType,
} from '@opsdeck/contracts';

export interface IncidentFormValues {
  title: string;
  severity: string;
  type: string;
  description: string;
}

export interface NewIncident {
  title: string;
  severity: IncidentSeverity;
  type: IncidentType;
  description: string;
}

export type IncidentFormErrors = Partial<Record<keyof IncidentFormValues, string>>;

export type IncidentFormResult = { ok: true; value: NewIncident } | { ok: false; errors: IncidentFormErrors };

/** Spec core §4 link-dialog defaults: severity low, type availability. */
export const EMPTY_INCIDENT_FORM: IncidentFormValues = {
  title: '',
  severity: NEW_INCIDENT_DEFAULTS.severity,
  type: NEW_INCIDENT_DEFAULTS.type,
  description: '',
};

const isSeverity = (value: string): value is IncidentSeverity =>
  (INCIDENT_SEVERITY_LEVELS as readonly string[]).includes(value);
const isType = (value: string): value is IncidentType =>
  (INCIDENT_TYPES as readonly string[]).includes(value);

/** Messages for severity and type are the spec's (core §5); the title is required by the schema. */
export function validateIncidentForm(values: IncidentFormValues): IncidentFormResult {
  const errors: IncidentFormErrors = {};
  const title = values.title.trim();
  if (!title) errors.title = 'Title is required';
  if (!isSeverity(values.severity)) errors.severity = 'Please select incident severity';
  if (!isType(values.type)) errors.type = 'Please select an incident type';
  if (Object.keys(errors).length > 0 || !isSeverity(values.severity) || !isType(values.type)) {
    return { ok: false, errors };
  }
  return {
    ok: true,
    value: { title, severity: values.severity, type: values.type, description: values.description.trim() },
  };
}

/** A hypothesis, comment or evidence text: required after trimming. */
export function requiredText(value: string): string | undefined {
  const text = value.trim();
  return text ? text : undefined;
}
