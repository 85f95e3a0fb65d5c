/**
 * Limits on what a request body may hold, checked before any handler sees it: nesting depth
 * (deep JSON overflows the stack of recursive code and of PostgreSQL's jsonb parser), the number
 * of values (keys and elements; work grows with them), and NUL characters, which PostgreSQL
 * refuses in text and jsonb. Pure functions: the app's JSON parser, the data API and the YAML
 * resource reader share them and turn a problem into their own error shape.
 */

/** Arrays and objects inside one another, counting the outermost as 1. */
export const MAX_JSON_DEPTH = 100;
/** Keys and elements of one body (bulk writes of the data API have their own, larger limit). */
export const MAX_JSON_VALUES = 100_000;
/** Default size limit of a request body, in bytes (routes with larger legitimate bodies raise it). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface JsonLimits {
  maxDepth: number;
  maxValues: number;
}

export const DEFAULT_JSON_LIMITS: JsonLimits = { maxDepth: MAX_JSON_DEPTH, maxValues: MAX_JSON_VALUES };

export type InputLimit = 'depth' | 'values' | 'nul';

/** Why a body (or one of its fields) is refused; `field` is a path such as `spec.http[0].name`. */
export interface InputProblem {
  limit: InputLimit;
  /** The field's path, `''` for the whole body. */
  field: string;
  message: string;
}

function depthProblem(maxDepth: number, field = ''): InputProblem {
  return {
    limit: 'depth',
    field,
    message: `${field ? `${field}: ` : ''}the body is nested deeper than the limit of ${maxDepth} levels`,
  };
}

function valuesProblem(maxValues: number): InputProblem {
  return {
    limit: 'values',
    field: '',
    message: `the body holds more than the limit of ${maxValues.toLocaleString('en')} keys and elements`,
  };
}

function nulProblem(field: string, where: 'value' | 'key'): InputProblem {
  return {
    limit: 'nul',
    field,
    message: `${field ? `${field}: ` : ''}the ${where === 'key' ? 'key' : 'text'} holds a NUL character (\\u0000), which cannot be stored`,
  };
}

/**
 * The nesting depth of a JSON text, found without parsing (brackets outside strings), so that a
 * hostile text is refused before any recursive code meets it. Stops early past `maxDepth`.
 */
export function jsonTextDepthExceeds(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > maxDepth) return true;
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return false;
}

function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return /^[A-Za-z_$][\w$-]*$/.test(key)
    ? parent
      ? `${parent}.${key}`
      : key
    : `${parent}[${JSON.stringify(key)}]`;
}

/**
 * Walks a parsed value without recursion: the first NUL character (in a string or a key, with
 * its path), more values than `maxValues`, or deeper nesting than `maxDepth`.
 */
export function inspectJsonValue(
  value: unknown,
  limits: JsonLimits = DEFAULT_JSON_LIMITS,
): InputProblem | undefined {
  let count = 0;
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop() as { value: unknown; path: string; depth: number };
    const current = item.value;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return nulProblem(item.path, 'value');
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    const depth = item.depth + 1;
    if (depth > limits.maxDepth) return depthProblem(limits.maxDepth, item.path);
    if (Array.isArray(current)) {
      count += current.length;
      if (count > limits.maxValues) return valuesProblem(limits.maxValues);
      for (let i = current.length - 1; i >= 0; i--)
        stack.push({ value: current[i], path: childPath(item.path, i), depth });
    } else {
      const keys = Object.keys(current);
      count += keys.length;
      if (count > limits.maxValues) return valuesProblem(limits.maxValues);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i];
        const path = childPath(item.path, key);
        if (key.includes('\u0000')) return nulProblem(path, 'key');
        stack.push({ value: (current as Record<string, unknown>)[key], path, depth });
      }
    }
  }
  return undefined;
}

export type JsonParseResult = { ok: true; value: unknown } | { ok: false; problem?: InputProblem };

/**
 * Parses a JSON body within the limits: `{ok: false}` without a problem for text that is not
 * JSON, with one for JSON over a limit.
 */
export function parseJsonWithinLimits(
  text: string,
  limits: JsonLimits = DEFAULT_JSON_LIMITS,
): JsonParseResult {
  if (jsonTextDepthExceeds(text, limits.maxDepth))
    return { ok: false, problem: depthProblem(limits.maxDepth) };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false };
  }
  const problem = inspectJsonValue(value, limits);
  return problem ? { ok: false, problem } : { ok: true, value };
}

/** A NUL character, raw or percent-encoded. */
function holdsNul(text: string): boolean {
  return text.includes('\u0000') || /%00/i.test(text);
}

/**
 * The first query parameter (by name) or path segment of a raw URL that holds a NUL character
 * once decoded (`%00`), or undefined.
 */
export function nulInUrl(url: string): { field: string; message: string } | undefined {
  if (!holdsNul(url)) return undefined;
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (holdsNul(path)) {
    return { field: 'path', message: 'the URL path holds a NUL character (%00), which is not allowed' };
  }
  for (const pair of url.slice(q + 1).split('&')) {
    if (!holdsNul(pair)) continue;
    const eq = pair.indexOf('=');
    const rawName = eq < 0 ? pair : pair.slice(0, eq);
    let name: string;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' ')).replaceAll('\u0000', '\\u0000');
    } catch {
      name = rawName;
    }
    return {
      field: name,
      message: `query parameter ${name} holds a NUL character (%00), which is not allowed`,
    };
  }
  return undefined;
}
