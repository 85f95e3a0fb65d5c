import { isMap, parseDocument, stringify } from 'yaml';
import type { ValidationResult } from '../../../components/form-field/validation-resolver';
import type { RuleInput } from '../api/notifications';

export interface RuleFormValues {
  name: string;
  namespace: string;
  /** YAML: the spec, or a whole Notification document (apiVersion, kind, metadata, spec). */
  spec: string;
}

/** A starting spec for a new rule (the ecosystem's Notification YAML). */
export const NEW_NOTIFICATION_SPEC = `# Sends an email when a health check fails.
events:
  - check.failed
title: 'Check {{.check.name}} has failed'
template: |
  {{.check.name}} failed: {{.check.error}}
to:
  email: oncall@example.com
repeatInterval: 1h
`;

export const EMPTY_RULE_FORM: RuleFormValues = {
  name: '',
  namespace: 'default',
  spec: NEW_NOTIFICATION_SPEC,
};

export function ruleToForm(row: {
  name: string;
  namespace: string;
  spec: Record<string, unknown> | null;
}): RuleFormValues {
  return { name: row.name, namespace: row.namespace, spec: stringify(row.spec ?? {}) };
}

/** Parses the form: the YAML must be a map; a whole document gives its `spec` (and name if empty). */
export function validateRuleForm(values: RuleFormValues): ValidationResult<RuleInput, keyof RuleFormValues> {
  const document = parseDocument(values.spec);
  if (document.errors.length > 0) return { ok: false, errors: { spec: document.errors[0].message } };
  if (!isMap(document.contents)) return { ok: false, errors: { spec: 'The spec must be a YAML map' } };
  let spec = document.toJS() as Record<string, unknown>;
  let name = values.name.trim();
  let namespace = values.namespace.trim() || 'default';
  if (spec.kind === 'Notification' && typeof spec.spec === 'object' && spec.spec !== null) {
    const metadata = (spec.metadata ?? {}) as { name?: string; namespace?: string };
    name = name || metadata.name || '';
    namespace = values.namespace.trim() || metadata.namespace || 'default';
    spec = spec.spec as Record<string, unknown>;
  }
  if (!name) return { ok: false, errors: { name: 'Name is required' } };
  if (!Array.isArray(spec.events) || spec.events.length === 0) {
    return { ok: false, errors: { spec: 'events: list at least one event, such as check.failed' } };
  }
  return { ok: true, value: { name, namespace, spec } };
}
