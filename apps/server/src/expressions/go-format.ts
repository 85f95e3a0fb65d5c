/**
 * Go's fmt rendering for the values templates see (JSON data): `%v` prints lists as `[a b]` and
 * maps as `map[k:v]` with sorted keys; `printf` supports the verbs templates use in practice.
 */

export function typeName(value: unknown): string {
  if (value === null || value === undefined) return 'nil';
  if (Array.isArray(value)) return '[]interface {}';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(value) ? 'int' : 'float64';
    case 'bigint':
      return 'int';
    case 'object':
      return 'map[string]interface {}';
    default:
      return typeof value;
  }
}

export function formatGoValue(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (Array.isArray(value)) return `[${value.map(formatGoValue).join(' ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `map[${entries.map(([key, item]) => `${key}:${formatGoValue(item)}`).join(' ')}]`;
  }
  return String(value);
}

function goQuote(text: string): string {
  return JSON.stringify(text);
}

interface VerbSpec {
  minus: boolean;
  plus: boolean;
  zero: boolean;
  space: boolean;
  sharp: boolean;
  width?: number;
  precision?: number;
  verb: string;
}

function pad(text: string, spec: VerbSpec): string {
  if (spec.width === undefined || text.length >= spec.width) return text;
  const fill = spec.width - text.length;
  if (spec.minus) return text + ' '.repeat(fill);
  if (spec.zero && /^[+-]?\d/.test(text)) {
    const sign = /^[+-]/.test(text) ? text[0] : '';
    return sign + '0'.repeat(fill) + text.slice(sign.length);
  }
  return ' '.repeat(fill) + text;
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  return undefined;
}

function withSign(text: string, value: number, spec: VerbSpec): string {
  if (value >= 0 && spec.plus) return `+${text}`;
  if (value >= 0 && spec.space) return ` ${text}`;
  return text;
}

function badVerb(spec: VerbSpec, value: unknown): string {
  return `%!${spec.verb}(${typeName(value)}=${formatGoValue(value)})`;
}

function formatGoExponent(text: string): string {
  // JavaScript writes 1.5e+6; Go writes 1.5e+06.
  return text.replace(/e([+-])(\d)$/, 'e$10$2');
}

function formatOne(spec: VerbSpec, value: unknown): string {
  const number = toNumber(value);
  switch (spec.verb) {
    case 'v':
      return pad(formatGoValue(value), spec);
    case 's':
      if (typeof value === 'string') {
        return pad(spec.precision === undefined ? value : value.slice(0, spec.precision), spec);
      }
      return pad(formatGoValue(value), spec);
    case 'q':
      return pad(typeof value === 'string' ? goQuote(value) : badVerb(spec, value), spec);
    case 't':
      return pad(typeof value === 'boolean' ? String(value) : badVerb(spec, value), spec);
    case 'd':
      if (number === undefined || !Number.isInteger(number)) return badVerb(spec, value);
      return pad(withSign(String(number), number, spec), spec);
    case 'x':
    case 'X':
    case 'o':
    case 'b': {
      if (typeof value === 'string' && (spec.verb === 'x' || spec.verb === 'X')) {
        const hex = Buffer.from(value, 'utf8').toString('hex');
        return pad(spec.verb === 'X' ? hex.toUpperCase() : hex, spec);
      }
      if (number === undefined || !Number.isInteger(number)) return badVerb(spec, value);
      const radix = spec.verb === 'o' ? 8 : spec.verb === 'b' ? 2 : 16;
      let text = Math.abs(number).toString(radix);
      if (spec.verb === 'X') text = text.toUpperCase();
      if (spec.sharp && radix === 16) text = (spec.verb === 'X' ? '0X' : '0x') + text;
      return pad(withSign(number < 0 ? `-${text}` : text, number, spec), spec);
    }
    case 'c':
      return number === undefined ? badVerb(spec, value) : pad(String.fromCodePoint(number), spec);
    case 'f':
    case 'F':
      if (number === undefined) return badVerb(spec, value);
      return pad(withSign(number.toFixed(spec.precision ?? 6), number, spec), spec);
    case 'e':
    case 'E': {
      if (number === undefined) return badVerb(spec, value);
      const text = formatGoExponent(number.toExponential(spec.precision ?? 6));
      return pad(withSign(spec.verb === 'E' ? text.toUpperCase() : text, number, spec), spec);
    }
    case 'g':
    case 'G': {
      if (number === undefined) return badVerb(spec, value);
      const text =
        spec.precision === undefined
          ? String(number)
          : formatGoExponent(Number(number.toPrecision(spec.precision)).toString());
      return pad(withSign(spec.verb === 'G' ? text.toUpperCase() : text, number, spec), spec);
    }
    default:
      return `%!${spec.verb}(${typeName(value)}=${formatGoValue(value)})`;
  }
}

const VERB_PATTERN = /%([-+# 0]*)(\d+)?(?:\.(\d*))?([a-zA-Z%])/y;

/** Go's fmt.Sprintf for the common verbs, including its in-band error markers. */
export function goSprintf(format: string, args: readonly unknown[]): string {
  let out = '';
  let argIndex = 0;
  let index = 0;
  while (index < format.length) {
    const percent = format.indexOf('%', index);
    if (percent === -1) {
      out += format.slice(index);
      break;
    }
    out += format.slice(index, percent);
    VERB_PATTERN.lastIndex = percent;
    const match = VERB_PATTERN.exec(format);
    if (!match) {
      out += '%!(NOVERB)';
      index = percent + 1;
      continue;
    }
    index = VERB_PATTERN.lastIndex;
    const [, flags = '', width, precision, verb] = match;
    if (verb === '%') {
      out += '%';
      continue;
    }
    const spec: VerbSpec = {
      minus: flags.includes('-'),
      plus: flags.includes('+'),
      zero: flags.includes('0'),
      space: flags.includes(' '),
      sharp: flags.includes('#'),
      width: width === undefined ? undefined : Number(width),
      precision: precision === undefined ? undefined : precision === '' ? 0 : Number(precision),
      verb,
    };
    if (argIndex >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    out += formatOne(spec, args[argIndex]);
    argIndex += 1;
  }
  if (argIndex < args.length) {
    const extra = args.slice(argIndex).map((value) => `${typeName(value)}=${formatGoValue(value)}`);
    out += `%!(EXTRA ${extra.join(', ')})`;
  }
  return out;
}
