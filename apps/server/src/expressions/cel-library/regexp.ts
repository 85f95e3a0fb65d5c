/**
 * `regexp.Match`, `regexp.Find`, `regexp.FindAll`, `regexp.Replace`, `regexp.ReplaceLiteral`,
 * `regexp.QuoteMeta`, `regexp.Split` (arguments in the ecosystem's order: expression first, input
 * last), and CEL's `.matches()` stays built in. Patterns use RE2 syntax, which JavaScript reads
 * the same for the common subset; `(?P<name>...)` groups are accepted.
 */
import { CelScalar, celFunc, listType, type CelFunc } from '@bufbuild/cel';

const STRING = CelScalar.STRING;
const INT = CelScalar.INT;

function compile(pattern: string, flags = ''): RegExp {
  const source = pattern.replace(/\(\?P</g, '(?<');
  const inline = /^\(\?([imsU]+)\)/.exec(source);
  const extra = inline ? inline[1].replace('U', '').replace(/[^ims]/g, '') : '';
  return new RegExp(inline ? source.slice(inline[0].length) : source, [...new Set(flags + extra)].join(''));
}

/** Go's `$1`/`${name}` expansion becomes JavaScript's `$1`/`$<name>`. */
function expansion(replacement: string): string {
  return replacement.replace(/\$\{([A-Za-z_]\w*)\}/g, (_match, name: string) =>
    /^\d+$/.test(name) ? `$${name}` : `$<${name}>`,
  );
}

export const REGEXP_FUNCTIONS: CelFunc[] = [
  celFunc('regexp.Match', [STRING, STRING], CelScalar.BOOL, (pattern: string, input: string) =>
    compile(pattern).test(input),
  ),
  celFunc(
    'regexp.Find',
    [STRING, STRING],
    STRING,
    (pattern: string, input: string) => compile(pattern).exec(input)?.[0] ?? '',
  ),
  celFunc('regexp.FindAll', [STRING, STRING], listType(STRING), (pattern: string, input: string) =>
    [...input.matchAll(compile(pattern, 'g'))].map((match) => match[0]),
  ),
  celFunc(
    'regexp.FindAll',
    [STRING, INT, STRING],
    listType(STRING),
    (pattern: string, limit: bigint, input: string) => {
      const all = [...input.matchAll(compile(pattern, 'g'))].map((match) => match[0]);
      return limit < 0n ? all : all.slice(0, Number(limit));
    },
  ),
  celFunc(
    'regexp.Replace',
    [STRING, STRING, STRING],
    STRING,
    (pattern: string, replacement: string, input: string) =>
      input.replace(compile(pattern, 'g'), expansion(replacement)),
  ),
  celFunc(
    'regexp.ReplaceLiteral',
    [STRING, STRING, STRING],
    STRING,
    (pattern: string, replacement: string, input: string) =>
      input.replace(compile(pattern, 'g'), () => replacement),
  ),
  celFunc('regexp.QuoteMeta', [STRING], STRING, (text: string) =>
    text.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&'),
  ),
  celFunc(
    'regexp.Split',
    [STRING, INT, STRING],
    listType(STRING),
    (pattern: string, limit: bigint, input: string) => {
      const parts = input.split(compile(pattern));
      if (limit < 0n || parts.length <= Number(limit)) return parts;
      if (limit === 0n) return [];
      const kept = parts.slice(0, Number(limit) - 1);
      const separators = [...input.matchAll(compile(pattern, 'g'))];
      const cut = separators[Number(limit) - 2];
      const restStart = cut ? (cut.index ?? 0) + cut[0].length : 0;
      return [...kept, input.slice(restStart)];
    },
  ),
];
