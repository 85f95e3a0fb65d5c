/**
 * Kubernetes label selectors as kubectl sends them in `labelSelector`: equality (`a=b`, `a==b`,
 * `a!=b`), sets (`a in (x,y)`, `a notin (x)`) and existence (`a`, `!a`), comma-separated, all
 * of which must hold.
 */

export type LabelRequirement =
  { key: string; op: 'in' | 'notin'; values: string[] } | { key: string; op: 'exists' | 'absent' };

export class LabelSelectorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LabelSelectorError';
  }
}

const KEY = /^([a-zA-Z0-9.-]+\/)?[a-zA-Z0-9]([a-zA-Z0-9._-]*[a-zA-Z0-9])?$/;

function checkedKey(key: string, selector: string): string {
  if (!KEY.test(key))
    throw new LabelSelectorError(`unable to parse requirement: invalid label key "${key}" in "${selector}"`);
  return key;
}

/** Splits on commas outside parentheses. */
function terms(selector: string): string[] {
  const result: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of selector) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (char === ',' && depth === 0) {
      result.push(current);
      current = '';
    } else current += char;
  }
  result.push(current);
  return result.map((term) => term.trim()).filter((term) => term !== '');
}

export function parseLabelSelector(selector: string): LabelRequirement[] {
  return terms(selector).map((term) => {
    const set = /^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(term);
    if (set) {
      const values = set[3]
        .split(',')
        .map((value) => value.trim())
        .filter((value) => value !== '');
      return { key: checkedKey(set[1], selector), op: set[2] as 'in' | 'notin', values };
    }
    const equality = /^([^!=\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(term);
    if (equality) {
      const key = checkedKey(equality[1], selector);
      return { key, op: equality[2] === '!=' ? 'notin' : 'in', values: [equality[3]] };
    }
    if (term.startsWith('!')) return { key: checkedKey(term.slice(1).trim(), selector), op: 'absent' };
    return { key: checkedKey(term, selector), op: 'exists' };
  });
}

export function matchesLabels(
  requirements: readonly LabelRequirement[],
  labels: Record<string, string>,
): boolean {
  return requirements.every((requirement) => {
    const present = Object.hasOwn(labels, requirement.key);
    switch (requirement.op) {
      case 'exists':
        return present;
      case 'absent':
        return !present;
      case 'in':
        return present && requirement.values.includes(labels[requirement.key]);
      case 'notin':
        return !present || !requirement.values.includes(labels[requirement.key]);
    }
  });
}
