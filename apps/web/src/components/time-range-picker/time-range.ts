import {
  parseTimeExpression,
  RELATIVE_TIME_RANGE_PRESETS,
  TimeParseError,
  type ParsedTime,
} from '@opsdeck/contracts';
import type { Dayjs } from 'dayjs';
import { DATE_TIME_FORMAT } from '../../lib/format/date';
import { dayjs, toZoned, type DateInput } from '../../lib/format/dayjs';
import type { TimeRange } from '../../lib/url-state/time-range-params';

export type { TimeRange } from '../../lib/url-state/time-range-params';

/** The future range without an end. */
export const INDEFINITELY = 'indefinitely';

/** Relative presets looking ahead: the same amounts plus Indefinitely (settings §9). */
export const FUTURE_RELATIVE_PRESETS = [
  ...RELATIVE_TIME_RANGE_PRESETS.map((preset) => `+${preset}`),
  INDEFINITELY,
] as const;

type RangeUnit = 's' | 'm' | 'h' | 'd' | 'w' | 'M' | 'y';

const UNIT_NAMES: Record<RangeUnit, string> = {
  s: 'second',
  m: 'minute',
  h: 'hour',
  d: 'day',
  w: 'week',
  M: 'month',
  y: 'year',
};
const DAYJS_UNITS: Record<RangeUnit, 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year'> = {
  s: 'second',
  m: 'minute',
  h: 'hour',
  d: 'day',
  w: 'week',
  M: 'month',
  y: 'year',
};

export interface RelativeRange {
  amount: number;
  unit: RangeUnit;
  future: boolean;
}

/**
 * The offset of a relative range in the one time grammar (`@opsdeck/contracts` `time.ts`): a
 * duration, '6M' or '3mo' for calendar months, '1h30m', with '+' for a future range. Undefined
 * when it is not one (or is zero).
 */
function relativeRangeStep(range: string): { months: number; ms: number; future: boolean } | undefined {
  const text = range.trim();
  const future = text.startsWith('+');
  const body = text.replace(/^[+-]/, '');
  if (body.startsWith('now')) return undefined;
  let parsed: ParsedTime;
  try {
    parsed = parseTimeExpression(body);
  } catch (error) {
    if (error instanceof TimeParseError) return undefined;
    throw error;
  }
  if (parsed.kind !== 'relative' || parsed.steps.length !== 1) return undefined;
  // A bare duration is that long ago: the step is negative.
  const months = -parsed.steps[0].months;
  const ms = -parsed.steps[0].ms;
  if (months <= 0 && ms <= 0) return undefined;
  return { months, ms, future };
}

/**
 * Parses a relative range for display: '15m', '6M' (months; 'mo' is accepted too), '+1h' for a
 * future range, or 'indefinitely'. A range the time grammar accepts in another form ('1h30m')
 * has no single unit and gives undefined here; {@link resolveTimeRange} still resolves it.
 */
export function parseRelativeRange(range: string): RelativeRange | typeof INDEFINITELY | undefined {
  if (range.toLowerCase() === INDEFINITELY) return INDEFINITELY;
  if (!relativeRangeStep(range)) return undefined;
  const match = /^([+-]?)(\d+)(mo|[smhdwMy])$/.exec(range.trim());
  if (!match) return undefined;
  const unit = (match[3] === 'mo' ? 'M' : match[3]) as RangeUnit;
  return { amount: Number.parseInt(match[2], 10), unit, future: match[1] === '+' };
}

/** 'Last 15 minutes', 'Next 1 hour', 'Indefinitely'; the range itself when it does not parse. */
export function relativeRangeDisplay(range: string): string {
  const parsed = parseRelativeRange(range);
  if (parsed === INDEFINITELY) return 'Indefinitely';
  if (!parsed) return range;
  const unit = `${UNIT_NAMES[parsed.unit]}${parsed.amount === 1 ? '' : 's'}`;
  return `${parsed.future ? 'Next' : 'Last'} ${parsed.amount} ${unit}`;
}

/** A relative time range with its display text. */
export function relativeTimeRange(range: string): TimeRange {
  return { type: 'relative', range, display: relativeRangeDisplay(range) };
}

/** Mapped quick ranges (settings §9), with date-math ends rounded to day, week, month or year. */
export const MAPPED_RANGES = [
  { display: 'Yesterday', from: 'now-1d/d', to: 'now-1d/d' },
  { display: 'Day before yesterday', from: 'now-2d/d', to: 'now-2d/d' },
  { display: 'This day last week', from: 'now-7d/d', to: 'now-7d/d' },
  { display: 'Previous week', from: 'now-1w/w', to: 'now-1w/w' },
  { display: 'Previous month', from: 'now-1M/M', to: 'now-1M/M' },
  { display: 'Previous year', from: 'now-1y/y', to: 'now-1y/y' },
  { display: 'Today', from: 'now/d', to: 'now/d' },
  { display: 'Today so far', from: 'now/d', to: 'now' },
  { display: 'This week', from: 'now/w', to: 'now/w' },
  { display: 'This week so far', from: 'now/w', to: 'now' },
  { display: 'This month', from: 'now/M', to: 'now/M' },
  { display: 'This month so far', from: 'now/M', to: 'now' },
  { display: 'This year', from: 'now/y', to: 'now/y' },
  { display: 'This year so far', from: 'now/y', to: 'now' },
] as const satisfies readonly { display: string; from: string; to: string }[];

export function mappedTimeRange(mapped: (typeof MAPPED_RANGES)[number]): TimeRange {
  return { type: 'mapped', from: mapped.from, to: mapped.to, display: mapped.display };
}

/**
 * Resolves a time in the one time grammar (`@opsdeck/contracts` `time.ts`): date math such as
 * 'now', 'now-1d', 'now-1mo', 'now-1d/d' or 'now/w', a bare duration (that long ago), or an
 * absolute time, against `now`. Steps and rounding follow `now`'s time zone; rounding goes to the
 * start of the unit for a range start and to its end for a range end.
 */
export function resolveDateMath(expression: string, now: Dayjs, roundToEnd: boolean): Dayjs | undefined {
  let parsed: ParsedTime;
  try {
    parsed = parseTimeExpression(expression);
  } catch (error) {
    if (error instanceof TimeParseError) return undefined;
    throw error;
  }
  if (parsed.kind === 'absolute') return dayjs(parsed.time);
  let value = now;
  for (const step of parsed.steps) value = value.add(step.months, 'month').add(step.ms, 'millisecond');
  const round = parsed.round;
  if (round) value = roundToEnd ? value.endOf(DAYJS_UNITS[round]) : value.startOf(DAYJS_UNITS[round]);
  return value;
}

export interface ResolvedTimeRange {
  from: Date;
  /** null for a future range without end (Indefinitely). */
  to: Date | null;
}

export const INVALID_RELATIVE_RANGE = 'Invalid relative time range';
export const INVALID_MAPPED_RANGE = 'Invalid mapped time range';

/**
 * Turns a time range into instants, judging day/week/month/year boundaries in `timezone`.
 * An invalid relative range logs 'Invalid relative time range' and gives undefined; an invalid
 * mapped range logs 'Invalid mapped time range' and throws (settings §8).
 */
export function resolveTimeRange(
  range: TimeRange,
  options: { now?: DateInput; timezone?: string } = {},
): ResolvedTimeRange | undefined {
  const now = toZoned(options.now ?? new Date(), options.timezone);
  switch (range.type) {
    case 'absolute': {
      const from = dayjs(range.from);
      const to = dayjs(range.to);
      return from.isValid() && to.isValid() ? { from: from.toDate(), to: to.toDate() } : undefined;
    }
    case 'relative': {
      if (range.range.toLowerCase() === INDEFINITELY) return { from: now.toDate(), to: null };
      const step = relativeRangeStep(range.range);
      if (!step) {
        // eslint-disable-next-line no-console -- the spec asks for this log entry (settings §8)
        console.error(INVALID_RELATIVE_RANGE, range);
        return undefined;
      }
      const sign = step.future ? 1 : -1;
      const other = now.add(sign * step.months, 'month').add(sign * step.ms, 'millisecond');
      return step.future
        ? { from: now.toDate(), to: other.toDate() }
        : { from: other.toDate(), to: now.toDate() };
    }
    case 'mapped': {
      const from = resolveDateMath(range.from, now, false);
      const to = resolveDateMath(range.to, now, true);
      if (!from || !to) {
        // eslint-disable-next-line no-console -- the spec asks for this log entry (settings §8)
        console.error(INVALID_MAPPED_RANGE, range);
        throw new Error(INVALID_MAPPED_RANGE);
      }
      return { from: from.toDate(), to: to.toDate() };
    }
  }
}

/** The button text of a range: its display, or the absolute ends as YYYY-MM-DD HH:mm. */
export function timeRangeLabel(range: TimeRange | undefined, timezone?: string): string | undefined {
  if (!range) return undefined;
  if (range.display) return range.display;
  if (range.type === 'relative') return relativeRangeDisplay(range.range);
  if (range.type === 'mapped') return `${range.from} to ${range.to}`;
  return `${toZoned(range.from, timezone).format(DATE_TIME_FORMAT)} to ${toZoned(range.to, timezone).format(DATE_TIME_FORMAT)}`;
}
