import { DurationValue } from './duration-value.js';

/** A JSON value: what every expression language receives and returns across its boundary. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Normalises host values (Dates, bigints, Maps, Buffers, undefined fields) into plain JSON so
 * every language sees the same variables. Cycles are cut rather than followed.
 */
export function toJsonValue(value: unknown, seen: WeakSet<object> = new WeakSet()): JsonValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'bigint':
      return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
    case 'function':
    case 'symbol':
      return null;
    default:
      break;
  }
  // A Go duration crosses into JSON (and JavaScript) as its whole nanoseconds.
  if (value instanceof DurationValue) return Number(value.nanoseconds);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  const objectValue = value as object;
  if (seen.has(objectValue)) return null;
  seen.add(objectValue);
  try {
    if (Array.isArray(objectValue)) return objectValue.map((item) => toJsonValue(item, seen));
    if (objectValue instanceof Map) {
      const out: Record<string, JsonValue> = {};
      for (const [key, item] of objectValue) out[String(key)] = toJsonValue(item, seen);
      return out;
    }
    if (objectValue instanceof Set) return [...objectValue].map((item) => toJsonValue(item, seen));
    const out: Record<string, JsonValue> = {};
    for (const [key, item] of Object.entries(objectValue)) {
      if (item === undefined || typeof item === 'function') continue;
      out[key] = toJsonValue(item, seen);
    }
    return out;
  } finally {
    seen.delete(objectValue);
  }
}

/**
 * The text form of an expression's result, used for `display` messages and for reading a
 * `test` outcome: strings as they are, scalars in their literal form, structures as JSON.
 */
export function stringifyResult(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return JSON.stringify(toJsonValue(value));
}

/**
 * Reads a `test` result the way the ecosystem does: a boolean, or text that parses as one
 * (Go's strconv.ParseBool spellings). Anything else is not a test outcome.
 */
export function parseTestOutcome(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  const text = stringifyResult(value).trim();
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  return undefined;
}
