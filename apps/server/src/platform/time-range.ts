/**
 * Times a request may name: years 1 to 9999, what an ISO 8601 time can write. JavaScript's dates
 * and PostgreSQL's timestamps reach further in different directions, so a time outside this range
 * would fail somewhere (a RangeError, or PostgreSQL's 22008) instead of being refused up front.
 */
export const TIME_RANGE_TEXT = 'between 0001-01-01 and 9999-12-31';

const MIN_TIME_MS = Date.parse('0001-01-01T00:00:00Z');
const MAX_TIME_MS = Date.parse('9999-12-31T23:59:59.999Z');

export function isTimeInRange(date: Date): boolean {
  const time = date.getTime();
  return time >= MIN_TIME_MS && time <= MAX_TIME_MS;
}
