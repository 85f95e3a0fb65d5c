import { parse } from 'yaml';

/** A resource form's name, labels (JSON) and spec (YAML) read as they are typed. */
export interface ResourceForm {
  ok: boolean;
  labels?: Record<string, string>;
  spec?: Record<string, unknown>;
  problems: { name?: string; labels?: string; spec?: string };
}

function readMapping(read: () => unknown): Record<string, unknown> | undefined {
  try {
    const value = read();
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    return value as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * Checks the shared editor's fields on mount, change and blur (settings §5): a name is required,
 * labels are a JSON object, the spec is a YAML mapping; each problem is named on its field.
 */
export function readResourceForm(name: string, labelsText: string, specText: string): ResourceForm {
  const problems: ResourceForm['problems'] = {};
  if (name.trim() === '') problems.name = 'Name is required';
  const labels = readMapping(() => JSON.parse(labelsText.trim() === '' ? '{}' : labelsText)) as
    Record<string, string> | undefined;
  if (!labels) problems.labels = 'Labels must be a JSON object';
  const spec = readMapping(() => parse(specText));
  if (!spec) problems.spec = 'Spec must be a YAML mapping';
  return { ok: Object.keys(problems).length === 0, labels, spec, problems };
}
