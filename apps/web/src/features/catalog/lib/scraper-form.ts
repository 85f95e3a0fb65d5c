import { parse as parseYaml, stringify } from 'yaml';

/** The scraper editor's fields (settings §2.4): name and namespace, labels as JSON, spec as YAML. */
export interface ScraperFormValues {
  name: string;
  namespace: string;
  labels: string;
  spec: string;
}

export interface ScraperInput {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  spec: unknown;
}

export type ScraperFormErrors = Partial<Record<keyof ScraperFormValues, string>>;
export type ScraperFormResult = { ok: true; value: ScraperInput } | { ok: false; errors: ScraperFormErrors };

export const REQUIRED_MESSAGE = 'This field is required';
export const LABELS_MESSAGE = 'Labels must be a JSON object';
export const SPEC_OBJECT_MESSAGE = 'Spec must be a YAML object';

/** The form of a saved scraper, or of a new one (no spec until a type is picked). */
export function scraperToForm(
  scraper:
    { name: string; namespace: string; labels: Record<string, string> | null; spec: unknown } | undefined,
): ScraperFormValues {
  return {
    name: scraper?.name ?? '',
    namespace: scraper?.namespace ?? 'default',
    labels: JSON.stringify(scraper?.labels ?? {}, null, 2),
    spec: scraper ? stringify(scraper.spec) : '',
  };
}

function readLabels(text: string): Record<string, string> | undefined {
  let labels: unknown;
  try {
    labels = text.trim() ? JSON.parse(text) : {};
  } catch {
    return undefined;
  }
  if (
    !labels ||
    typeof labels !== 'object' ||
    Array.isArray(labels) ||
    Object.values(labels).some((value) => typeof value !== 'string')
  )
    return undefined;
  return labels as Record<string, string>;
}

/**
 * Why the form cannot be sent, checked before the server sees it (settings §5): labels a JSON
 * object of strings, the spec a YAML object, and a name for a new scraper (a saved one keeps its).
 */
export function validateScraperForm(
  values: ScraperFormValues,
  { isNew }: { isNew: boolean },
): ScraperFormResult {
  const errors: ScraperFormErrors = {};
  const labels = readLabels(values.labels);
  if (!labels) errors.labels = LABELS_MESSAGE;
  let spec: unknown;
  try {
    spec = parseYaml(values.spec);
    if (!spec || typeof spec !== 'object' || Array.isArray(spec)) errors.spec = SPEC_OBJECT_MESSAGE;
  } catch (error) {
    errors.spec = `Spec is not valid YAML: ${(error as Error).message}`;
  }
  if (isNew && !values.name.trim()) errors.name = REQUIRED_MESSAGE;
  if (!labels || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: { name: values.name.trim(), namespace: values.namespace.trim(), labels, spec } };
}
