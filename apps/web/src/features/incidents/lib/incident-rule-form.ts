import { isMap, parseDocument, stringify } from 'yaml';

/** A row of `incident_rules` (settings §3 "Managed resources": Rule, name and spec). */
export interface IncidentRuleRow {
  id: string;
  name: string;
  namespace: string;
  labels: Record<string, string> | null;
  spec: Record<string, unknown>;
  source: string;
  created_at: string;
  updated_at: string;
}

export interface IncidentRuleFormValues {
  name: string;
  namespace: string;
  /** JSON object text. */
  labels: string;
  /** YAML: the spec, or a whole IncidentRule document (apiVersion, kind, metadata, spec). */
  spec: string;
}

export type IncidentRuleField = keyof IncidentRuleFormValues;
export type IncidentRuleErrors = Partial<Record<IncidentRuleField, string>>;

export interface IncidentRuleInput {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  spec: Record<string, unknown>;
}

export type IncidentRuleFormResult =
  { ok: true; value: IncidentRuleInput } | { ok: false; errors: IncidentRuleErrors };

/** A starting spec for a new rule (the IncidentRule YAML of the ecosystem). */
export const NEW_RULE_SPEC = `# Opens an incident when a selected check starts failing.
priority: 1
breakOnMatch: false
filter:
  status: [unhealthy]
checks:
  - name: '*'
template:
  title: '{{ .check.name }} is unhealthy'
  severity: high
  type: availability
autoResolve:
  timeout: 10m
`;

export const EMPTY_RULE_FORM: IncidentRuleFormValues = {
  name: '',
  namespace: 'default',
  labels: '{}',
  spec: NEW_RULE_SPEC,
};

export function ruleToForm(row: IncidentRuleRow): IncidentRuleFormValues {
  return {
    name: row.name,
    namespace: row.namespace,
    labels: JSON.stringify(row.labels ?? {}, null, 2),
    spec: Object.keys(row.spec ?? {}).length === 0 ? '' : stringify(row.spec),
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The checks the server applies to a rule's spec (migration 0041, the IncidentRule kind):
 * returns the first problem as `path: message`, or undefined.
 */
export function incidentRuleSpecProblem(spec: Record<string, unknown>): string | undefined {
  const priority = spec.priority;
  if (
    priority !== undefined &&
    !(typeof priority === 'number' && Number.isInteger(priority) && priority >= 0)
  ) {
    return 'priority must be a non-negative integer';
  }
  if (spec.breakOnMatch !== undefined && typeof spec.breakOnMatch !== 'boolean') {
    return 'breakOnMatch must be true or false';
  }
  for (const field of ['filter', 'template', 'autoResolve', 'autoClose']) {
    if (spec[field] !== undefined && !isRecord(spec[field])) return `${field} must be an object`;
  }
  for (const field of ['checks', 'components']) {
    if (spec[field] !== undefined && !Array.isArray(spec[field])) return `${field} must be a list`;
  }
  return undefined;
}

/**
 * Validates the editor (settings §2.4 fields): Name required ('Name is required'), labels a
 * JSON object of strings, spec YAML that parses to an object. A pasted IncidentRule document
 * gives its spec, and its metadata fills a blank name and namespace and empty labels.
 */
export function validateIncidentRuleForm(values: IncidentRuleFormValues): IncidentRuleFormResult {
  const errors: IncidentRuleErrors = {};
  let labels: Record<string, string> = {};
  try {
    const parsed: unknown = values.labels.trim() ? JSON.parse(values.labels) : {};
    if (!isRecord(parsed) || Object.values(parsed).some((value) => typeof value !== 'string')) {
      errors.labels = 'Labels must be a JSON object of strings';
    } else {
      labels = parsed as Record<string, string>;
    }
  } catch {
    errors.labels = 'Labels must be valid JSON';
  }

  let spec: Record<string, unknown> = {};
  let metadata: Record<string, unknown> = {};
  const document = parseDocument(values.spec);
  if (document.errors.length > 0) {
    errors.spec = `Invalid YAML: ${document.errors[0]!.message.split('\n')[0]}`;
  } else if (document.contents !== null && !isMap(document.contents)) {
    errors.spec = 'The spec must be a YAML mapping';
  } else {
    const parsed = (document.toJS() ?? {}) as Record<string, unknown>;
    if (parsed.kind === 'IncidentRule' && isRecord(parsed.spec)) {
      spec = parsed.spec;
      metadata = isRecord(parsed.metadata) ? parsed.metadata : {};
    } else if (parsed.kind !== undefined && parsed.kind !== 'IncidentRule') {
      errors.spec = `Expected kind IncidentRule, got ${String(parsed.kind)}`;
    } else {
      spec = parsed;
    }
    const problem = errors.spec ? undefined : incidentRuleSpecProblem(spec);
    if (problem) errors.spec = problem;
  }

  const name = values.name.trim() || (typeof metadata.name === 'string' ? metadata.name : '');
  const namespace =
    values.namespace.trim() ||
    (typeof metadata.namespace === 'string' ? metadata.namespace : '') ||
    'default';
  if (Object.keys(labels).length === 0 && isRecord(metadata.labels)) {
    labels = Object.fromEntries(Object.entries(metadata.labels).map(([key, value]) => [key, String(value)]));
  }
  if (!name) errors.name = 'Name is required';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: { name, namespace, labels, spec } };
}
