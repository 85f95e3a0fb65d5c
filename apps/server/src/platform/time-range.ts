/**
 * Times a request may name: years 1 to 9999, what an ISO 8601 time can write. JavaScript's dates
 * and PostgreSQL's timestamps reach further in different directions, so a time outside this range
 * would fail somewhere (a RangeError, or PostgreSQL's 22008) instead of being refused up front.
 * The range lives with the one time grammar in `@opsdeck/contracts` (`time.ts`).
 */
export { isTimeInRange, TIME_RANGE_TEXT } from '@opsdeck/contracts';
