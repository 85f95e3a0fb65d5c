import type { PlaybookParameter } from '@opsdeck/contracts';
import { HttpError } from '../../platform/http/errors.js';

/** Settings §5: lowercase alphanumerics and hyphens in dot-separated labels, each starting and ending alphanumeric. */
const DNS1123 = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** Settings §5: a number with unit Mi, Gi or Ti. */
const BYTES = /^\d+(\.\d+)?(Mi|Gi|Ti)$/;
/** Settings §5: a number with suffix 'm'. */
const MILLICORES = /^\d+m$/;

function numberOf(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const parsed = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}

function isEmpty(value: unknown): boolean {
  return (
    value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)
  );
}

/**
 * Checks the submitted parameters with the rules of the run form (settings §5) and answers them
 * with the defaults filled in. A refusal is a 400 naming `params.<name>`.
 */
export function validateParameters(
  parameters: readonly PlaybookParameter[],
  submitted: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const known = new Set(parameters.map((parameter) => parameter.name));
  for (const name of Object.keys(submitted)) {
    if (!known.has(name))
      throw new HttpError(400, `params.${name}: is not a parameter of this playbook`, `params.${name}`);
  }
  const values: Record<string, unknown> = {};
  for (const parameter of parameters) {
    const field = `params.${parameter.name}`;
    const fail = (message: string): never => {
      throw new HttpError(400, `${field}: ${message}`, field);
    };
    let value = submitted[parameter.name];
    if (isEmpty(value) && parameter.default !== undefined) value = parameter.default;
    if (parameter.type === 'checkbox') {
      if (value === 'true') value = true;
      if (value === 'false') value = false;
      if (value !== undefined && typeof value !== 'boolean') fail('must be true or false');
      if (value === undefined) value = false;
      values[parameter.name] = value;
      continue;
    }
    if (isEmpty(value)) {
      if (parameter.required) fail('This field is required');
      continue;
    }
    const properties = parameter.properties ?? {};
    if (parameter.type === 'list' && properties.options && properties.options.length > 0) {
      const allowed = properties.options.map((option) => String(option.value));
      const chosen = Array.isArray(value) ? value.map(String) : [String(value)];
      for (const item of chosen) if (!allowed.includes(item)) fail(`"${item}" is not one of the options`);
    }
    if (typeof value === 'object') {
      values[parameter.name] = value;
      continue;
    }
    const text = String(value);
    const minLength = numberOf(properties.minLength);
    const maxLength = numberOf(properties.maxLength);
    if (minLength !== undefined && text.length < minLength) fail(`must be at least ${minLength} characters`);
    if (maxLength !== undefined && text.length > maxLength) fail(`must be at most ${maxLength} characters`);
    const min = numberOf(properties.min);
    const max = numberOf(properties.max);
    if (min !== undefined || max !== undefined) {
      const number = numberOf(text);
      if (number === undefined) fail('This field must be a number');
      if (min !== undefined && number! < min) fail(`must be at least ${min}`);
      if (max !== undefined && number! > max) fail(`must be at most ${max}`);
    }
    if (properties.regex) {
      let pattern: RegExp;
      try {
        pattern = new RegExp(`^(?:${properties.regex})$`);
      } catch {
        fail('the playbook gives an invalid regex for this parameter');
      }
      if (!pattern!.test(text)) fail(`must match ${properties.regex}`);
    }
    let stored: unknown = value;
    if (parameter.type === 'duration' && !/^(\d+(\.\d+)?(ms|s|m|h|d))+$/.test(text))
      fail('must be a duration such as 30s, 5m or 1h30m');
    switch (
      parameter.type === 'bytes' || parameter.type === 'millicores' ? parameter.type : properties.format
    ) {
      case 'dns1123':
        if (text.length > 253 || !DNS1123.test(text))
          fail(
            'must be lowercase alphanumerics and hyphens in dot-separated labels, each starting and ending alphanumeric',
          );
        break;
      case 'bytes':
        // The form stores the unit; a bare number is in Mi (the default unit).
        stored = /^\d+(\.\d+)?$/.test(text) ? `${text}Mi` : text;
        if (!BYTES.test(String(stored))) fail('must be a number with unit Mi, Gi or Ti');
        break;
      case 'millicores':
        stored = /^\d+$/.test(text) ? `${text}m` : text;
        if (!MILLICORES.test(String(stored))) fail("must be a number with suffix 'm'");
        break;
      default:
        break;
    }
    values[parameter.name] = stored;
  }
  return values;
}
