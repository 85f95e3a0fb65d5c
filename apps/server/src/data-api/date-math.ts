/**
 * Date math for the tri-state filter on timestamp columns: `now`, `now-1h`, `now+2d`,
 * `now-1d/d` (rounded down to the unit, UTC), chains such as `now-1d-12h`.
 * Units: s, m, h, d, w, M (months), y. Anything else is not date math and is left to
 * PostgreSQL's own timestamp input.
 */

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

const EXPRESSION = /^now((?:[+-]\d{1,9}[smhdwMy])*)(?:\/([smhdwMy]))?$/;
const STEP = /([+-])(\d{1,9})([smhdwMy])/g;

export function isDateMath(text: string): boolean {
  return EXPRESSION.test(text.trim());
}

/** Evaluates `text` against `now`; returns null when `text` is not date math. */
export function evaluateDateMath(text: string, now: Date = new Date()): Date | null {
  const match = EXPRESSION.exec(text.trim());
  if (!match) return null;
  const date = new Date(now.getTime());
  for (const step of match[1].matchAll(STEP)) {
    const sign = step[1] === '-' ? -1 : 1;
    const amount = Number(step[2]) * sign;
    const unit = step[3];
    if (unit === 'M') date.setUTCMonth(date.getUTCMonth() + amount);
    else if (unit === 'y') date.setUTCFullYear(date.getUTCFullYear() + amount);
    else date.setTime(date.getTime() + amount * UNIT_MS[unit]);
  }
  if (match[2]) roundDown(date, match[2]);
  if (Number.isNaN(date.getTime())) return null;
  return date;
}

function roundDown(date: Date, unit: string): void {
  switch (unit) {
    case 'y':
      date.setUTCMonth(0, 1);
      date.setUTCHours(0, 0, 0, 0);
      return;
    case 'M':
      date.setUTCDate(1);
      date.setUTCHours(0, 0, 0, 0);
      return;
    case 'w': {
      // ISO weeks start on Monday.
      const day = (date.getUTCDay() + 6) % 7;
      date.setUTCDate(date.getUTCDate() - day);
      date.setUTCHours(0, 0, 0, 0);
      return;
    }
    case 'd':
      date.setUTCHours(0, 0, 0, 0);
      return;
    case 'h':
      date.setUTCMinutes(0, 0, 0);
      return;
    case 'm':
      date.setUTCSeconds(0, 0);
      return;
    case 's':
      date.setUTCMilliseconds(0);
      return;
  }
}

/** The parameter text for a timestamp bound: evaluated date math, or the text as written. */
export function timestampParameter(text: string, now?: Date): string {
  const evaluated = evaluateDateMath(text, now);
  return evaluated ? evaluated.toISOString() : text;
}
