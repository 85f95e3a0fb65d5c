import { parseTimeExpression, resolveTime, TimeParseError } from '../platform/time/index.js';

/**
 * Date math for the tri-state filter on timestamp columns, in the one time grammar
 * (`platform/time`, ADR 0010): `now`, `now-1h`, `now+2d`, `now-1mo` (or `now-1M`), `now-1d/d`
 * (rounded down to the unit, UTC), chains such as `now-1d-12h`, and a bare duration meaning that
 * long ago (`24h`). Anything else, absolute times included, is not date math and is left to
 * PostgreSQL's own timestamp input.
 */

export function isDateMath(text: string): boolean {
  return evaluateDateMath(text) !== null;
}

/** Evaluates `text` against `now`; returns null when `text` is not date math. */
export function evaluateDateMath(text: string, now: Date = new Date()): Date | null {
  try {
    const parsed = parseTimeExpression(text);
    return parsed.kind === 'relative' ? resolveTime(parsed, now) : null;
  } catch (error) {
    if (error instanceof TimeParseError) return null;
    throw error;
  }
}

/** The parameter text for a timestamp bound: evaluated date math, or the text as written. */
export function timestampParameter(text: string, now?: Date): string {
  const evaluated = evaluateDateMath(text, now);
  return evaluated ? evaluated.toISOString() : text;
}
