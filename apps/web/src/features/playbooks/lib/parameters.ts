import type { PlaybookParameter } from '@opsdeck/contracts';

/** Settings §5 messages. */
export const REQUIRED_MESSAGE = 'This field is required';
export const NUMBER_MESSAGE = 'This field must be a number';

/** Settings §5: lowercase alphanumerics and hyphens in dot-separated labels, each starting and ending alphanumeric. */
export const DNS1123_PATTERN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
export const BYTE_UNITS = ['Mi', 'Gi', 'Ti'] as const;

function numberOf(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}

/** The format a parameter's value takes: its type bytes/millicores, else `properties.format`. */
export function formatOf(parameter: PlaybookParameter): string | undefined {
  if (parameter.type === 'bytes' || parameter.type === 'millicores') return parameter.type;
  return parameter.properties?.format;
}

/**
 * The problem of one parameter value, by the same rules the server applies (settings §5), or
 * undefined. Bytes and millicores are checked on their number part (the unit is chosen apart).
 */
export function parameterProblem(parameter: PlaybookParameter, value: unknown): string | undefined {
  if (parameter.type === 'checkbox') return undefined;
  const empty = value === undefined || value === null || value === '';
  if (empty) return parameter.required ? REQUIRED_MESSAGE : undefined;
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const text = String(value);
  const properties = parameter.properties ?? {};
  const minLength = numberOf(properties.minLength);
  const maxLength = numberOf(properties.maxLength);
  if (minLength !== undefined && text.length < minLength) return `must be at least ${minLength} characters`;
  if (maxLength !== undefined && text.length > maxLength) return `must be at most ${maxLength} characters`;
  const min = numberOf(properties.min);
  const max = numberOf(properties.max);
  const format = formatOf(parameter);
  if (min !== undefined || max !== undefined || format === 'bytes' || format === 'millicores') {
    const number = numberOf(text);
    if (number === undefined) return NUMBER_MESSAGE;
    if (min !== undefined && number < min) return `must be at least ${min}`;
    if (max !== undefined && number > max) return `must be at most ${max}`;
  }
  if (properties.regex) {
    try {
      if (!new RegExp(`^(?:${properties.regex})$`).test(text)) return `must match ${properties.regex}`;
    } catch {
      return undefined;
    }
  }
  if (format === 'dns1123' && !DNS1123_PATTERN.test(text)) {
    return 'must be lowercase alphanumerics and hyphens in dot-separated labels, each starting and ending alphanumeric';
  }
  return undefined;
}

/** Splits a stored bytes value (`512Mi`) into its number and unit (default Mi). */
export function splitBytes(value: unknown): { number: string; unit: (typeof BYTE_UNITS)[number] } {
  const match = /^(\d+(?:\.\d+)?)(Mi|Gi|Ti)?$/.exec(typeof value === 'string' ? value : String(value ?? ''));
  if (!match) return { number: '', unit: 'Mi' };
  return { number: match[1], unit: (match[2] as (typeof BYTE_UNITS)[number] | undefined) ?? 'Mi' };
}

/** The form's values as the run request sends them: bytes with their unit, millicores with 'm'. */
export function requestParams(
  parameters: readonly PlaybookParameter[],
  values: Record<string, unknown>,
  units: Record<string, string>,
): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const parameter of parameters) {
    const value = values[parameter.name];
    if (value === undefined || value === '') continue;
    const format = formatOf(parameter);
    if (format === 'bytes') params[parameter.name] = `${String(value)}${units[parameter.name] ?? 'Mi'}`;
    else if (format === 'millicores') params[parameter.name] = `${String(value)}m`;
    else params[parameter.name] = value;
  }
  return params;
}

/** The form's starting value of a parameter (its rendered default). */
export function initialValue(parameter: PlaybookParameter): unknown {
  const value = parameter.default;
  if (parameter.type === 'checkbox') return value === true || value === 'true';
  if (formatOf(parameter) === 'bytes') return splitBytes(value).number;
  if (formatOf(parameter) === 'millicores' && typeof value === 'string') return value.replace(/m$/, '');
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
