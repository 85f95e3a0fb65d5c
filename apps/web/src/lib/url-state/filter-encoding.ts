/** A tri-state filter value: neutral (0), include (1) or exclude (-1) (settings §4). */
export type TriState = -1 | 0 | 1;

/** Included and excluded values of one filter; neutral values are simply absent. */
export type FilterStates = Record<string, Exclude<TriState, 0>>;

/** Suffix of the URL parameter holding a filter: `<filter>.filter` (settings §2.10). */
export const FILTER_PARAM_SUFFIX = '.filter';

/** URL parameter name of a filter. */
export function filterParamName(filter: string): string {
  return `${filter}${FILTER_PARAM_SUFFIX}`;
}

// The server's tri-state extension reads the same escapes (API.md): '____' for ':' and '||||' for ','.
const COLON_ESCAPE = '____';
const COMMA_ESCAPE = '||||';

/** Escapes the separators inside one value. */
export function escapeFilterValue(value: string): string {
  return value.replaceAll(':', COLON_ESCAPE).replaceAll(',', COMMA_ESCAPE);
}

/** Reverses {@link escapeFilterValue}. */
export function unescapeFilterValue(value: string): string {
  return value.replaceAll(COLON_ESCAPE, ':').replaceAll(COMMA_ESCAPE, ',');
}

/** The next state when a control is clicked: the active state returns to neutral (settings §4). */
export function nextTriState(current: TriState, clicked: Exclude<TriState, 0>): TriState {
  return current === clicked ? 0 : clicked;
}

/**
 * Encodes filter states as the comma-separated list 'value:1' (include) or 'value:-1' (exclude),
 * escaping commas and colons inside values. An empty set gives ''.
 */
export function encodeFilterStates(states: FilterStates): string {
  return Object.entries(states)
    .filter(([, state]) => state === 1 || state === -1)
    .map(([value, state]) => `${escapeFilterValue(value)}:${state}`)
    .join(',');
}

/**
 * Decodes {@link encodeFilterStates}. An entry without a state counts as included; entries with
 * any other state or an empty value are ignored.
 */
export function decodeFilterStates(encoded: string | null | undefined): FilterStates {
  const states: FilterStates = {};
  if (!encoded) return states;
  for (const entry of encoded.split(',')) {
    if (!entry) continue;
    const separator = entry.lastIndexOf(':');
    const rawValue = separator === -1 ? entry : entry.slice(0, separator);
    const rawState = separator === -1 ? '1' : entry.slice(separator + 1);
    if (!rawValue || (rawState !== '1' && rawState !== '-1')) continue;
    states[unescapeFilterValue(rawValue)] = rawState === '1' ? 1 : -1;
  }
  return states;
}

/** How a filter value is displayed: an exclude with a leading '!'. */
export function filterDisplayValue(value: string, state: TriState): string {
  return state === -1 ? `!${value}` : value;
}

/**
 * The value of the API's `<column>.filter=` parameter: 'a,!b' with the same escapes, or
 * undefined when nothing is selected.
 */
export function toTriStateQuery(states: FilterStates): string | undefined {
  const parts = Object.entries(states)
    .filter(([, state]) => state === 1 || state === -1)
    .map(([value, state]) => filterDisplayValue(escapeFilterValue(value), state));
  return parts.length > 0 ? parts.join(',') : undefined;
}
