import { isTimeInRange, parseTime, TIME_RANGE_TEXT, TimeParseError } from '@opsdeck/contracts';

/**
 * The server's door to the one duration and time grammar (`@opsdeck/contracts` `time.ts`,
 * ADR 0010): every request parameter, spec field and setting that holds a duration or a time is
 * read through these functions, so `start=1mo` means the same thing on every endpoint.
 */
export {
  addUtcMonths,
  DURATION_PATTERN,
  isDuration,
  isTimeInRange,
  parseDuration,
  parseTime,
  parseTimeExpression,
  resolveTime,
  TIME_RANGE_TEXT,
  TimeParseError,
  type ParsedTime,
} from '@opsdeck/contracts';

/**
 * Reads a request's time parameter named `field`: a string in the time grammar, or a number of
 * epoch milliseconds. Undefined, null or empty gives undefined. Anything else throws the error
 * `toError` makes from a message that starts with the field's name.
 */
export function readTimeParameter(
  value: unknown,
  field: string,
  toError: (message: string) => Error,
  now: Date = new Date(),
): Date | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  try {
    if (typeof value === 'number') {
      const date = new Date(value);
      if (!isTimeInRange(date))
        throw new TimeParseError(`${value} is out of range: times must be ${TIME_RANGE_TEXT}`);
      return date;
    }
    if (typeof value !== 'string')
      throw new TimeParseError('must be a time such as now-1h, 24h or an ISO 8601 time');
    return parseTime(value, now);
  } catch (error) {
    if (error instanceof TimeParseError) throw toError(`${field}: ${error.message}`);
    throw error;
  }
}
