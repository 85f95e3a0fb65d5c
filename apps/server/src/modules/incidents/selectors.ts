import type { ResourceSelector } from './rule-spec.js';

/** What a selector is matched against: a check or a component. */
export interface SelectableResource {
  id: string;
  name: string;
  namespace: string | null;
  type: string | null;
  labels: Record<string, string>;
  /** Further fields a fieldSelector may name (status, severity, agent_id, ...). */
  fields?: Record<string, string | null | undefined>;
}

function globToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

/**
 * A comma-separated value list as the ecosystem's selectors write it: `a,b*` includes,
 * `!c` excludes; any exclusion that matches refuses, and with includes present one must match.
 */
export function matchesValueList(patterns: readonly string[], value: string | null | undefined): boolean {
  const entries = patterns
    .flatMap((pattern) => pattern.split(','))
    .map((entry) => entry.trim())
    .filter(Boolean);
  const includes = entries.filter((entry) => !entry.startsWith('!'));
  const excludes = entries.filter((entry) => entry.startsWith('!')).map((entry) => entry.slice(1));
  const text = value ?? '';
  if (excludes.some((pattern) => globToRegExp(pattern).test(text))) return false;
  if (includes.length === 0) return true;
  return includes.some((pattern) => pattern === '*' || globToRegExp(pattern).test(text));
}

/** Splits on commas outside parentheses: `a in (x,y),b` → [`a in (x,y)`, `b`]. */
function splitRequirements(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '(') depth += 1;
    if (char === ')') depth = Math.max(0, depth - 1);
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter(Boolean);
}

/** A Kubernetes label selector: `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`. */
export function matchesLabelSelector(
  selector: string,
  labels: Record<string, string | null | undefined>,
): boolean {
  for (const requirement of splitRequirements(selector)) {
    const set = /^([^\s!=]+)\s+(in|notin)\s+\((.*)\)$/.exec(requirement);
    if (set) {
      const values = set[3].split(',').map((value) => value.trim());
      const actual = labels[set[1]];
      const inside = actual !== undefined && actual !== null && values.includes(actual);
      if (set[2] === 'in' ? !inside : inside) return false;
      continue;
    }
    const comparison = /^([^\s!=]+)\s*(==|=|!=)\s*(.*)$/.exec(requirement);
    if (comparison) {
      const actual = labels[comparison[1]];
      const equal = actual !== undefined && actual !== null && actual === comparison[3].trim();
      if (comparison[2] === '!=' ? equal : !equal) return false;
      continue;
    }
    if (requirement.startsWith('!')) {
      if (labels[requirement.slice(1).trim()] !== undefined) return false;
      continue;
    }
    if (labels[requirement] === undefined) return false;
  }
  return true;
}

export function matchesSelector(selector: ResourceSelector, resource: SelectableResource): boolean {
  if (selector.id && selector.id !== resource.id) return false;
  if (selector.name && !matchesValueList([selector.name], resource.name)) return false;
  if (selector.namespace && !matchesValueList([selector.namespace], resource.namespace)) return false;
  if (selector.types && selector.types.length > 0 && !matchesValueList(selector.types, resource.type))
    return false;
  if (selector.labelSelector && !matchesLabelSelector(selector.labelSelector, resource.labels)) return false;
  if (selector.fieldSelector) {
    const fields: Record<string, string | null | undefined> = {
      id: resource.id,
      name: resource.name,
      namespace: resource.namespace,
      type: resource.type,
      ...resource.fields,
    };
    if (!matchesLabelSelector(selector.fieldSelector, fields)) return false;
  }
  if (selector.search) {
    const search = selector.search.toLowerCase();
    const pattern = search.includes('*') ? globToRegExp(search) : null;
    const name = resource.name.toLowerCase();
    if (pattern ? !pattern.test(name) : !name.includes(search)) return false;
  }
  return true;
}

/** Labels as stored (jsonb): keep string values, stringify scalars. */
export function labelsOf(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const labels: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
    if (typeof entry === 'string') labels[key] = entry;
    else if (typeof entry === 'number' || typeof entry === 'boolean') labels[key] = String(entry);
  }
  return labels;
}
