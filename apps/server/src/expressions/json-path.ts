import { JSONPath } from 'jsonpath-plus';
import { ExpressionError } from './expression-error.js';
import { toJsonValue, type JsonValue } from './values.js';

/**
 * Every value the path selects. Filter scripts (`?(@.x > 1)`) run in jsonpath-plus's own
 * interpreter ('safe'), never through the host's eval.
 */
export function queryJsonPath(path: string, json: unknown): JsonValue[] {
  const source = path.trim();
  if (source === '') throw new ExpressionError('jsonPath', path, 'the path is empty');
  let matches: unknown;
  try {
    matches = JSONPath({ path: source, json: toJsonValue(json) as null, wrap: true, eval: 'safe' });
  } catch (error) {
    throw new ExpressionError('jsonPath', path, error instanceof Error ? error.message : String(error));
  }
  return Array.isArray(matches) ? matches.map((match) => toJsonValue(match)) : [];
}

/**
 * A path used as an expression yields one value when it selects one, the list when it selects
 * several, and null when it selects nothing.
 */
export function evaluateJsonPath(path: string, json: unknown): JsonValue {
  const matches = queryJsonPath(path, json);
  if (matches.length === 0) return null;
  return matches.length === 1 ? matches[0] : matches;
}
