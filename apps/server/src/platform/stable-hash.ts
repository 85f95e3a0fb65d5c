import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every depth, so that two equal values always give the same
 * text whatever order their keys were written or stored in. `undefined` members are dropped,
 * as JSON.stringify drops them.
 */
export function stableStringify(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && value !== null) {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const member = (value as Record<string, unknown>)[key];
      if (member !== undefined) sorted[key] = sortKeys(member);
    }
    return sorted;
  }
  return value;
}

/** SHA-256 (hex) of the stable JSON of a value: equal values, equal hashes. */
export function stableHash(value: unknown): string {
  return createHash('sha256').update(stableStringify(value)).digest('hex');
}
