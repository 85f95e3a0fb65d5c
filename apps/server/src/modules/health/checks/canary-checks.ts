/** The checks a canary spec declares (what canary sync stores as `checks` rows). */
import { CANARY_SETTING_KEYS, findCheckType, UNSUPPORTED_CHECK_TYPES } from './registry.js';

export interface CanaryCheckEntry {
  /** The key under the canary's spec, e.g. 'http'. */
  specKey: string;
  /** The check type name ('http'), or the spec key for types that do not run. */
  type: string;
  /** Position within the spec key's list. */
  index: number;
  name: string;
  supported: boolean;
  spec: unknown;
}

function entryName(raw: unknown, specKey: string, index: number): string {
  if (raw && typeof raw === 'object' && 'name' in raw) {
    const name = (raw as { name?: unknown }).name;
    if (typeof name === 'string' && name.trim() !== '') return name;
    if (typeof name === 'number') return String(name);
  }
  return `${specKey}-${index + 1}`;
}

/**
 * The checks a canary spec declares, in spec order: supported types, the ecosystem's other types
 * and any unknown list-of-objects key (both marked unsupported). Canary settings are skipped.
 */
export function listCanaryChecks(canarySpec: unknown): CanaryCheckEntry[] {
  if (!canarySpec || typeof canarySpec !== 'object' || Array.isArray(canarySpec)) return [];
  const entries: CanaryCheckEntry[] = [];
  for (const [specKey, value] of Object.entries(canarySpec as Record<string, unknown>)) {
    if (CANARY_SETTING_KEYS.includes(specKey)) continue;
    const items = Array.isArray(value) ? value : value && typeof value === 'object' ? [value] : [];
    const checkType = findCheckType(specKey);
    const known = checkType !== undefined || UNSUPPORTED_CHECK_TYPES.includes(specKey);
    if (!known && !items.every((item) => item !== null && typeof item === 'object' && !Array.isArray(item)))
      continue;
    items.forEach((raw: unknown, index) => {
      entries.push({
        specKey,
        type: checkType?.type ?? specKey,
        index,
        name: entryName(raw, specKey, index),
        supported: checkType !== undefined,
        spec: raw,
      });
    });
  }
  return entries;
}
