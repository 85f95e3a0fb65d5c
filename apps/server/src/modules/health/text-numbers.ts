/**
 * Integers read straight from the one-text results the summary's statements return (a line per
 * check, fields separated by ',' or ' '): charCode arithmetic instead of split() and Number(),
 * which allocated a string per field.
 */

/** Reads the integers of one text left to right; each read starts where the previous one stopped. */
export class NumberReader {
  /** Where the next read starts: just past the separator that ended the last number read. */
  at: number;

  constructor(
    readonly text: string,
    at = 0,
  ) {
    this.at = at;
  }

  /** The integer at `at`, up to the next ' ', ',' or line end (NaN when empty); moves `at` past that separator. */
  next(): number {
    const { text } = this;
    let value = 0;
    let digits = 0;
    let negative = false;
    let index = this.at;
    for (; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      if (code === 32 || code === 44 || code === 10) break;
      if (code === 45) negative = true;
      else {
        value = value * 10 + (code - 48);
        digits += 1;
      }
    }
    this.at = index + 1;
    if (digits === 0) return NaN;
    return negative ? -value : value;
  }

  /** next(), null when the field is empty. */
  nextOrNull(): number | null {
    const value = this.next();
    return Number.isNaN(value) ? null : value;
  }

  /** Whether the last number read was ended by a ',' (another field of the same line follows). */
  endedByComma(): boolean {
    return this.text.charCodeAt(this.at - 1) === 44;
  }
}
