/**
 * The jsonb documents behind a `->>` equality's containment condition (planner/select-tree.ts
 * `withContainment`): a row whose column, read along `path` as text (`->>` last), equals `value`
 * contains (`@>`) one of them. A superset is fine (the equality is still evaluated); missing a
 * row is not.
 *
 * `->>` gives the text of any JSON value but null: a string's own text, and the JSON text of a
 * number, boolean, object or array. So besides the value as a JSON string, a value that is the
 * text of a non-string JSON value (`5`, `1.50`, `true`, `{…}`, `[…]`) also needs that value's
 * document. PostgreSQL prints jsonb numbers without exponent or leading zeros and keeps their
 * scale (`1.50`), so only such texts can be a number's; objects and arrays are covered by an
 * empty `{}` / `[]` (contained in every object / array).
 */
import type { JsonStep } from './query-tree.js';

/** The digits PostgreSQL's numeric output can give (no exponent, no leading zeros). */
const NUMERIC_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;
/** Longer numbers than this are left to the empty-container fallback (jsonb numeric limits). */
const MAX_NUMERIC_TEXT = 1000;

export function containmentDocuments(path: readonly JsonStep[], values: readonly string[]): string[] {
  const out = new Set<string>();
  for (const value of values) {
    for (const leaf of leaves(path, value)) out.add(leaf);
  }
  return [...out];
}

function leaves(path: readonly JsonStep[], value: string): string[] {
  if (path.length === 0) return [];
  // A value jsonb cannot hold as a string (NUL, lone surrogates): the equality decides alone,
  // under a document every row with that path's parent contains.
  if (
    value.includes('\u0000') ||
    /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value)
  ) {
    return [wrap(path.slice(0, -1), path[path.length - 1].isIndex ? '[]' : '{}')];
  }
  const out = [wrap(path, JSON.stringify(value))];
  if (value === 'true' || value === 'false') out.push(wrap(path, value));
  else if (NUMERIC_TEXT.test(value)) {
    out.push(
      value.length <= MAX_NUMERIC_TEXT
        ? wrap(path, value)
        : wrap(path.slice(0, -1), path[path.length - 1].isIndex ? '[]' : '{}'),
    );
  } else if (value.startsWith('{')) out.push(wrap(path, '{}'));
  else if (value.startsWith('[')) out.push(wrap(path, '[]'));
  return out;
}

/** `{"a": [ <leaf> ]}` for the path a, 0: an index step is any element of an array. */
function wrap(path: readonly JsonStep[], leaf: string): string {
  let json = leaf;
  for (let i = path.length - 1; i >= 0; i--) {
    json = path[i].isIndex ? `[${json}]` : `{${JSON.stringify(path[i].key)}:${json}}`;
  }
  return json;
}
