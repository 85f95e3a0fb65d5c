/**
 * String helpers of the ecosystem's CEL beside the CEL strings extension: case conversions,
 * `.title()`, `.trimPrefix()`, `.trimSuffix()`, `.repeat()`, `.abbrev()`, `.squote()`,
 * `.quote()`, `.shellQuote()`, `.slug()`, `.wordWrap()`, `.contains()` stays built in.
 */
import { CelScalar, celMethod, type CelFunc } from '@bufbuild/cel';

const STRING = CelScalar.STRING;
const INT = CelScalar.INT;

function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '');
}

function stringMethod(name: string, operate: (text: string) => string): CelFunc {
  return celMethod(name, STRING, [], STRING, function (this: string) {
    return operate(this);
  });
}

export const STRING_FUNCTIONS: CelFunc[] = [
  stringMethod('title', (text) =>
    text.replace(
      /(^|[^\p{L}\p{N}'])(\p{L})/gu,
      (_m, before: string, letter: string) => before + letter.toUpperCase(),
    ),
  ),
  stringMethod('camelCase', (text) =>
    words(text)
      .map((word, index) =>
        index === 0 ? word.toLowerCase() : word[0].toUpperCase() + word.slice(1).toLowerCase(),
      )
      .join(''),
  ),
  stringMethod('kebabCase', (text) =>
    words(text)
      .map((word) => word.toLowerCase())
      .join('-'),
  ),
  stringMethod('snakeCase', (text) =>
    words(text)
      .map((word) => word.toLowerCase())
      .join('_'),
  ),
  stringMethod('slug', (text) =>
    words(text)
      .map((word) => word.toLowerCase())
      .join('-'),
  ),
  stringMethod('squote', (text) => `'${text.replace(/'/g, "''")}'`),
  stringMethod('quote', (text) => JSON.stringify(text)),
  stringMethod('shellQuote', (text) => `'${text.replace(/'/g, "'\\''")}'`),
  stringMethod('trimSpace', (text) => text.trim()),
  celMethod('trimPrefix', STRING, [STRING], STRING, function (this: string, prefix: string) {
    return this.startsWith(prefix) ? this.slice(prefix.length) : this;
  }),
  celMethod('trimSuffix', STRING, [STRING], STRING, function (this: string, suffix: string) {
    return suffix !== '' && this.endsWith(suffix) ? this.slice(0, -suffix.length) : this;
  }),
  celMethod('repeat', STRING, [INT], STRING, function (this: string, count: bigint) {
    if (count < 0n || count > 10_000n) throw new Error('repeat count must be between 0 and 10000');
    return this.repeat(Number(count));
  }),
  celMethod('abbrev', STRING, [INT], STRING, function (this: string, width: bigint) {
    const limit = Number(width);
    if (limit < 4) throw new Error('abbrev width must be at least 4');
    return this.length <= limit ? this : `${this.slice(0, limit - 3)}...`;
  }),
];
