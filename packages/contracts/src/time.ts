import { z } from 'zod';
/**
 * The one duration grammar and the one relative-time grammar of Opsdeck (ADR 0010), shared by
 * the server and the web app. Pure TypeScript: no Node or DOM APIs.
 *
 * Duration: Go's `time.ParseDuration` (ns, us/µs, ms, s, m, h; combinable `1h30m`; fractional
 * `1.5h`; an optional sign; a bare `0`) plus d (24h), w (7d) and y (365d).
 *
 * Time: `now`; `now` followed by steps `-1h`, `+2d`, `-1mo`, `-1d-12h` (each step a duration
 * that may also use `mo`/`M` for calendar months) and an optional rounding `/d` (s, m, h, d, w,
 * M/mo, y; UTC; weeks start on Monday); a bare duration meaning that long ago (`24h`, `1mo`);
 * epoch milliseconds (10 digits or more); or an absolute time (ISO 8601 / RFC 3339).
 *
 * Months (`mo`, or `M` as in date math) exist only in times, never in durations: a month has no
 * fixed length. `now-1mo` is the same day and time of the previous calendar month, clamped to
 * that month's last day (March 31 - 1mo = February 28/29). In a time, `y` is a calendar year
 * (12 months); in a duration it is 365 days.
 */

/** A value that is not a duration or a time; the message says what is wrong, without a field. */
export class TimeParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TimeParseError';
  }
}

/** Times Opsdeck accepts: years 1 to 9999, what an ISO 8601 time can write. */
export const TIME_RANGE_TEXT = 'between 0001-01-01 and 9999-12-31';
const MIN_TIME_MS = Date.parse('0001-01-01T00:00:00Z');
const MAX_TIME_MS = Date.parse('9999-12-31T23:59:59.999Z');

export function isTimeInRange(date: Date): boolean {
  const time = date.getTime();
  return time >= MIN_TIME_MS && time <= MAX_TIME_MS;
}

const DAY_MS = 86_400_000;

/** Milliseconds of each fixed-length unit. */
export const DURATION_UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3, // U+00B5 micro sign, as Go accepts
  μs: 1e-3, // U+03BC Greek mu, as Go accepts
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: DAY_MS,
  w: 7 * DAY_MS,
  y: 365 * DAY_MS,
};

const MONTH_UNITS = new Set(['mo', 'M']);
const UNITS_TEXT = 'ns, us, ms, s, m, h, d, w, y';
const DURATION_EXAMPLES = 'such as 30s, 5m, 1h30m or 7d';
/** Longer than any distance between two times in range: beyond it a value is a typo. */
const MAX_DURATION_MS = 10_000 * 365 * DAY_MS;

/**
 * A non-negative duration as one regular expression (for JSON Schema `pattern`s); it accepts the
 * texts {@link parseDuration} accepts without `allowNegative`, except over-long values.
 */
export const DURATION_PATTERN = /^(?:\+?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h|d|w|y))+|\+?0)$/;

const TERM = /(\d+(?:\.\d*)?|\.\d+)([a-zA-Zµμ]+)/y;

interface Terms {
  /** Fixed-length part, in milliseconds. */
  ms: number;
  /** Calendar months (a year in a time counts 12). */
  months: number;
}

function quote(text: string): string {
  return `"${text.length > 100 ? `${text.slice(0, 100)}…` : text}"`;
}

/** Reads `1h30m`-style terms from `text` (no sign); months only when `calendar`. */
function readTerms(text: string, whole: string, calendar: boolean): Terms {
  const what = calendar ? 'time' : 'duration';
  let ms = 0;
  let months = 0;
  let position = 0;
  if (text === '')
    throw new TimeParseError(`${quote(whole)} is not a ${what}: a number with a unit is missing`);
  while (position < text.length) {
    TERM.lastIndex = position;
    const match = TERM.exec(text);
    if (!match) {
      if (/^\d+(?:\.\d*)?$/.test(text.slice(position)))
        throw new TimeParseError(
          `${quote(whole)} is not a ${what}: a number needs a unit (${UNITS_TEXT}), e.g. 5m`,
        );
      throw new TimeParseError(`${quote(whole)} is not a ${what}: expected a duration ${DURATION_EXAMPLES}`);
    }
    const amount = Number(match[1]);
    const unit = match[2];
    if (MONTH_UNITS.has(unit) || (calendar && unit === 'y')) {
      if (!calendar)
        throw new TimeParseError(
          `${quote(whole)} is not a duration: months have no fixed length; use days (30d), or a time such as now-1mo`,
        );
      if (!Number.isInteger(amount))
        throw new TimeParseError(`${quote(whole)} is not a time: months and years must be whole numbers`);
      months += unit === 'y' ? amount * 12 : amount;
    } else {
      const unitMs = DURATION_UNIT_MS[unit];
      if (unitMs === undefined) {
        const allowed = calendar ? `${UNITS_TEXT}, mo` : UNITS_TEXT;
        throw new TimeParseError(`${quote(whole)} is not a ${what}: unknown unit "${unit}" (use ${allowed})`);
      }
      ms += amount * unitMs;
    }
    position = TERM.lastIndex;
  }
  if (!(ms <= MAX_DURATION_MS) || months > 12 * 10_000)
    throw new TimeParseError(`${quote(whole)} is too long`);
  return { ms, months };
}

export interface DurationOptions {
  /** Accept a leading `-` (Go does; most Opsdeck fields mean a length and refuse it). */
  allowNegative?: boolean;
}

/**
 * Milliseconds of a duration (`500ms`, `1h30m`, `1.5h`, `7d`, `2w`, `1y`, `0`); fractions of a
 * millisecond are kept. Throws {@link TimeParseError}.
 */
export function parseDuration(text: string, options: DurationOptions = {}): number {
  const source = text.trim();
  if (source === '') throw new TimeParseError(`the duration is empty; expected one ${DURATION_EXAMPLES}`);
  let sign = 1;
  let body = source;
  if (source[0] === '-' || source[0] === '+') {
    sign = source[0] === '-' ? -1 : 1;
    body = source.slice(1);
  }
  if (sign < 0 && !options.allowNegative)
    throw new TimeParseError(`${quote(source)} is not a duration: it cannot be negative`);
  if (body === '0') return 0;
  return sign * readTerms(body, source, false).ms;
}

/** True when `text` is a duration {@link parseDuration} accepts (sign allowed). */
export function isDuration(text: string): boolean {
  try {
    parseDuration(text, { allowNegative: true });
    return true;
  } catch {
    return false;
  }
}

/** Units a time may be rounded down to with `/unit`. */
export type TimeRoundUnit = 's' | 'm' | 'h' | 'd' | 'w' | 'M' | 'y';
const ROUND_UNITS: Readonly<Record<string, TimeRoundUnit>> = {
  s: 's',
  m: 'm',
  h: 'h',
  d: 'd',
  w: 'w',
  M: 'M',
  mo: 'M',
  y: 'y',
};

/** One `+`/`-` step of a relative time: calendar months first, then fixed milliseconds. */
export interface TimeStep {
  months: number;
  ms: number;
}

/** A parsed time, before it is resolved against a `now`. */
export type ParsedTime =
  { kind: 'absolute'; time: Date } | { kind: 'relative'; steps: TimeStep[]; round?: TimeRoundUnit };

const STEP_START = /[+-]/g;

/** Parses a time without resolving it (the web app resolves it with its own time zone). */
export function parseTimeExpression(text: string): ParsedTime {
  const source = text.trim();
  if (source === '') throw new TimeParseError('the time is empty');
  if (source.startsWith('now')) return parseNowExpression(source);
  if (/^\d{10,}$/.test(source)) return absolute(new Date(Number(source)), source);
  if (/^(?:\d+(?:\.\d*)?|\.\d+)[a-zA-Zµμ]/.test(source) && !/^\d{4}-\d/.test(source)) {
    const terms = readTerms(source, source, true);
    return { kind: 'relative', steps: [{ months: 0 - terms.months, ms: 0 - terms.ms }] };
  }
  // An ISO 8601 year alone (`2024`) is a time; any other bare number is missing its unit.
  if (/^\d{4}$/.test(source)) return absolute(new Date(Date.parse(source)), source);
  if (/^[+-]?\d+(?:\.\d*)?$/.test(source))
    throw new TimeParseError(
      `${quote(source)} is not a time: a number needs a unit (e.g. 24h, meaning that long ago) or must be epoch milliseconds`,
    );
  const parsed = Date.parse(source);
  if (Number.isNaN(parsed))
    throw new TimeParseError(
      `${quote(source)} is not a time: use now, now-1h, a duration such as 24h (that long ago) or an ISO 8601 time such as 2026-01-02T15:04:05Z`,
    );
  return absolute(new Date(parsed), source);
}

function absolute(time: Date, source: string): ParsedTime {
  if (!isTimeInRange(time))
    throw new TimeParseError(`${quote(source)} is out of range: times must be ${TIME_RANGE_TEXT}`);
  return { kind: 'absolute', time };
}

function parseNowExpression(source: string): ParsedTime {
  let body = source.slice('now'.length);
  let round: TimeRoundUnit | undefined;
  const slash = body.indexOf('/');
  if (slash >= 0) {
    const unit = body.slice(slash + 1);
    round = ROUND_UNITS[unit];
    if (!round)
      throw new TimeParseError(
        `${quote(source)} is not a time: "/${unit}" must round to s, m, h, d, w, M or y`,
      );
    body = body.slice(0, slash);
  }
  const steps: TimeStep[] = [];
  if (body !== '' && body[0] !== '+' && body[0] !== '-')
    throw new TimeParseError(`${quote(source)} is not a time: after "now" comes +, - or /, e.g. now-1h`);
  const starts = [...body.matchAll(STEP_START)].map((match) => match.index);
  starts.forEach((start, index) => {
    const sign = body[start] === '-' ? -1 : 1;
    const terms = readTerms(body.slice(start + 1, starts[index + 1] ?? body.length), source, true);
    steps.push({ months: sign * terms.months + 0, ms: sign * terms.ms + 0 }); // + 0: no -0
  });
  return { kind: 'relative', steps, round };
}

/** Adds calendar months in UTC, clamping the day to the target month's last day. */
export function addUtcMonths(date: Date, months: number): Date {
  if (months === 0) return new Date(date.getTime());
  const result = new Date(date.getTime());
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

function roundDownUtc(date: Date, unit: TimeRoundUnit): void {
  switch (unit) {
    case 'y':
      date.setUTCMonth(0, 1);
      date.setUTCHours(0, 0, 0, 0);
      return;
    case 'M':
      date.setUTCDate(1);
      date.setUTCHours(0, 0, 0, 0);
      return;
    case 'w':
      // ISO weeks start on Monday.
      date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7));
      date.setUTCHours(0, 0, 0, 0);
      return;
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

/** Resolves a parsed time against `now` in UTC. Throws when the result is out of range. */
export function resolveTime(parsed: ParsedTime, now: Date, source = ''): Date {
  if (parsed.kind === 'absolute') return parsed.time;
  let date = new Date(now.getTime());
  for (const step of parsed.steps) {
    date = addUtcMonths(date, step.months);
    date.setTime(date.getTime() + step.ms);
  }
  if (parsed.round && isTimeInRange(date)) roundDownUtc(date, parsed.round);
  if (Number.isNaN(date.getTime()) || !isTimeInRange(date))
    throw new TimeParseError(
      `${source ? `${quote(source)} is` : 'the time is'} out of range: times must be ${TIME_RANGE_TEXT}`,
    );
  return date;
}

/**
 * Reads a time (`now`, `now-1h`, `now+2d`, `now-1mo`, `now-1d/d`, `24h`, `1mo`, epoch
 * milliseconds, `2026-01-02T15:04:05Z`) against `now`. Throws {@link TimeParseError}.
 */
export function parseTime(text: string, now: Date = new Date()): Date {
  return resolveTime(parseTimeExpression(text), now, text.trim());
}

// ---------------------------------------------------------------------------------------------
// Time parameters of requests (route schemas): the grammar above, one message per field.

const timeExpected = (field: string) => `${field}: must be a time such as now-1h, 24h or an ISO 8601 time`;

/** A time parameter's value read (not resolved against now); a bad one throws TimeParseError. */
function readTimeValue(value: string | number): ParsedTime {
  if (typeof value === 'string') return parseTimeExpression(value);
  const time = new Date(value);
  if (!isTimeInRange(time))
    throw new TimeParseError(`${value} is out of range: times must be ${TIME_RANGE_TEXT}`);
  return { kind: 'absolute', time };
}

/**
 * A time request parameter that is checked and kept as sent: `now`, `now-1h`, `now-1mo/d`, a
 * duration meaning that long ago (`24h`), an ISO 8601 time, or epoch milliseconds (a number in a
 * JSON body). Empty or null means none. A bad value is refused with `<field>: <what is wrong>`.
 */
export function timeParameterSchema(field: string) {
  return z
    .union([z.string(), z.number()], { error: timeExpected(field) })
    .nullish()
    .superRefine((value, context) => {
      if (value === undefined || value === null || value === '') return;
      try {
        readTimeValue(value);
      } catch (error) {
        if (!(error instanceof TimeParseError)) throw error;
        context.addIssue({ code: 'custom', message: `${field}: ${error.message}`, input: value });
      }
    });
}

/**
 * The same parameter read into a `ParsedTime` (undefined when absent or empty), not resolved: the
 * server resolves it against its `now`, so identical requests stay identical (the health summary
 * shares one read among them).
 */
export function parsedTimeParameterSchema(field: string) {
  return z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    z
      .union([z.string(), z.number()], { error: timeExpected(field) })
      .transform((value, context): ParsedTime => {
        try {
          return readTimeValue(value);
        } catch (error) {
          if (!(error instanceof TimeParseError)) throw error;
          context.addIssue({ code: 'custom', message: `${field}: ${error.message}`, input: value });
          return z.NEVER;
        }
      })
      .optional(),
  );
}
