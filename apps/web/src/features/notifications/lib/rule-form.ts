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

/** Where the spec's map sits in the YAML: the root, or `spec` of a whole Notification document. */
function specPath(document: ReturnType<typeof parseDocument>): string[] | null {
  if (document.errors.length > 0 || !isMap(document.contents)) return null;
  return document.get('kind') === 'Notification' && isMap(document.get('spec')) ? ['spec'] : [];
}

/**
 * The playbook recipient (`to.playbook`) the YAML names, as `namespace/name` (a bare name is in
 * `default`, as the server reads it); '' for none; null when the YAML does not parse as a map.
 */
export function playbookRecipientOf(yaml: string): string | null {
  const document = parseDocument(yaml);
  const path = specPath(document);
  if (!path) return null;
  const value: unknown = document.getIn([...path, 'to', 'playbook']);
  if (typeof value !== 'string' || !value.trim()) return '';
  const text = value.trim();
  return text.includes('/') ? text : `default/${text}`;
}

/**
 * The YAML with its `to.playbook` set to `playbook` (`namespace/name`), or removed for '' (and an
 * emptied `to` with it); comments and the other recipients stay. Unparseable YAML is returned as is.
 */
export function withPlaybookRecipient(yaml: string, playbook: string): string {
  const document = parseDocument(yaml);
  const path = specPath(document);
  if (!path) return yaml;
  if (playbook) {
    if (!isMap(document.getIn([...path, 'to']))) document.setIn([...path, 'to'], document.createNode({}));
    document.setIn([...path, 'to', 'playbook'], playbook);
  } else {
    document.deleteIn([...path, 'to', 'playbook']);
    const to = document.getIn([...path, 'to']);
    if (isMap(to) && to.items.length === 0) document.deleteIn([...path, 'to']);
  }
  return document.toString();
}
