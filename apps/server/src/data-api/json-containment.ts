/**
 * The jsonb documents behind a `->>` equality's containment condition (planner/select-tree.ts
 * `withContainment`). Two properties make that condition exact:
 *
 * - a row whose column, read along `path` as text (`->>` last), equals `value` contains (`@>`)
 *   one of the documents (a superset is fine: the equality still decides);
 * - a row containing one of them has a non-null JSON value at `path` (every document's leaf is
 *   a string, number, boolean, `{}` or `[]`, never null), so its `->>` text is not NULL.
 *
 * `->>` gives the text of any JSON value but null: a string's own text, and the JSON text of a
 * number, boolean, object or array. So besides the value as a JSON string, a value that is the
 * text of a non-string JSON value (`5`, `1.50`, `true`, `{…}`, `[…]`) also needs that value's
 * document. PostgreSQL prints jsonb numbers without exponent or leading zeros and keeps their
 * scale (`1.50`), so only such texts can be a number's; objects and arrays are covered by an
 * empty `{}` / `[]` (contained in every object / array).
 *
 * The path's steps are object keys: an array index (`->0`) is not written with a containment
 * (an array containing the value anywhere would not mean a non-null element at the index).
 */
import type { JsonStep } from './query-tree.js';

/** The texts PostgreSQL's numeric output can give (no exponent, no leading zeros). */
const NUMERIC_TEXT = /^-?(?:0|[1-9](\d*))(?:\.(\d+))?$/;
/** numeric's limits: digits before and after the decimal point. */
const MAX_INTEGER_DIGITS = 131072;
const MAX_FRACTION_DIGITS = 16383;

export function containmentDocuments(path: readonly JsonStep[], values: readonly string[]): string[] {
  const out = new Set<string>();
  for (const value of values) {
    for (const leaf of leaves(value)) out.add(wrap(path, leaf));
  }
  return [...out];
}

function leaves(raw: string): string[] {
  // As the value reaches PostgreSQL: UTF-8, lone surrogates replaced (U+FFFD). A NUL fails the
  // statement on the value's own parameter, which comes first; dropped here so this one parses.
  const value = Buffer.from(raw.replaceAll('\u0000', ''), 'utf8').toString('utf8');
  const out = [JSON.stringify(value)];
  if (value === 'true' || value === 'false') out.push(value);
  else if (value.startsWith('{')) out.push('{}');
  else if (value.startsWith('[')) out.push('[]');
  else {
    const numeric = NUMERIC_TEXT.exec(value);
    // Longer than numeric allows: no jsonb number prints so.
    if (
      numeric &&
      (numeric[1]?.length ?? 0) < MAX_INTEGER_DIGITS &&
      (numeric[2]?.length ?? 0) <= MAX_FRACTION_DIGITS
    )
      out.push(value);
  }
  return out;
}

/** `{"a": {"b": <leaf>}}` for the path a, b. */
function wrap(path: readonly JsonStep[], leaf: string): string {
  let json = leaf;
  for (let i = path.length - 1; i >= 0; i--) json = `{${JSON.stringify(path[i].key)}:${json}}`;
  return json;
}
