import {
  INCIDENT_SEVERITY_LEVELS,
  INCIDENT_TYPES,
  NEW_INCIDENT_DEFAULTS,
  type IncidentSeverity,
  type IncidentType,
} from '@opsdeck/contracts';
import { z } from 'zod';

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

/**
 * The create form (spec core §7 create body) over the contract's severity and type lists; the
 * messages for severity and type are the spec's (core §5). The selects hold text, so each value
 * is a string first and one of the contract's values second.
 */
export const incidentFormSchema = z.object({
  title: z.string().trim().min(1, 'Title is required'),
  severity: z.string().pipe(z.enum(INCIDENT_SEVERITY_LEVELS, { error: 'Please select incident severity' })),
  type: z.string().pipe(z.enum(INCIDENT_TYPES, { error: 'Please select an incident type' })),
  description: z.string().trim(),
}) satisfies z.ZodType<NewIncident, IncidentFormValues>;

/** The schema's verdict as a value or the first message per field. */
export function validateIncidentForm(values: IncidentFormValues): IncidentFormResult {
  const result = incidentFormSchema.safeParse(values);
  if (result.success) return { ok: true, value: result.data };
  const errors: IncidentFormErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof IncidentFormValues;
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}

/** A hypothesis, comment or evidence text: required after trimming. */
export function requiredText(value: string): string | undefined {
  const text = value.trim();
  return text ? text : undefined;
}
