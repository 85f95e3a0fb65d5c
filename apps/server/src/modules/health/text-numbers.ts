/**
 * Integers read straight from the one-text results the summary's statements return (a line per
 * check, fields separated by ',' or ' '): charCode arithmetic instead of split() and Number(),
 * which allocated a string per field.
 */

/** Where numberAt() stopped: just past the separator that ended the number it read. */
export let cursor = 0;

/** The integer at `at` in `text`, up to the next ' ', ',' or line end (NaN when empty); sets `cursor`. */
export function numberAt(text: string, at: number): number {
  let value = 0;
  let digits = 0;
  let negative = false;
  let index = at;
  for (; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 32 || code === 44 || code === 10) break;
    if (code === 45) negative = true;
    else {
      value = value * 10 + (code - 48);
      digits += 1;
    }
  }
  cursor = index + 1;
  if (digits === 0) return NaN;
  return negative ? -value : value;
}
