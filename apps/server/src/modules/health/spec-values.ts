// Loose readers for values taken from a canary's stored spec (jsonb): the runner, the sync and
// webhook pushes read labels, owners and endpoints the same way.

/** The value when it is a plain object, else an empty one. */
export function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** Non-empty text, or a number as text; null otherwise. */
export function textOrNull(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number') return String(value);
  return null;
}

/** An object's string, number and boolean entries as strings (labels); others are dropped. */
export function stringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(asRecord(value))) {
    if (typeof item === 'string') out[key] = item;
    else if (typeof item === 'number' || typeof item === 'boolean') out[key] = String(item);
  }
  return out;
}
