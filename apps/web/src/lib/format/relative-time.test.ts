import { describe, expect, it } from 'vitest';
import { formatRelativeTime, TIME_GROUPS, timeGroupOf } from './relative-time';

const NOW = '2026-11-18T12:00:00.000Z';
const ago = (milliseconds: number) => new Date(Date.parse(NOW) - milliseconds).toISOString();
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('formatRelativeTime', () => {
  it('shows seconds as Ns below a minute', () => {
    expect(formatRelativeTime(NOW, { now: NOW })).toBe('0s');
    expect(formatRelativeTime(ago(45 * SECOND), { now: NOW })).toBe('45s');
    expect(formatRelativeTime(ago(59 * SECOND + 999), { now: NOW })).toBe('59s');
  });

  it('shows 1m, then Nm below an hour', () => {
    expect(formatRelativeTime(ago(MINUTE), { now: NOW })).toBe('1m');
    expect(formatRelativeTime(ago(119 * SECOND), { now: NOW })).toBe('1m');
    expect(formatRelativeTime(ago(5 * MINUTE), { now: NOW })).toBe('5m');
    expect(formatRelativeTime(ago(HOUR - 1), { now: NOW })).toBe('59m');
  });

  it('shows Nh below a day and Nd below a month', () => {
    expect(formatRelativeTime(ago(HOUR), { now: NOW })).toBe('1h');
    expect(formatRelativeTime(ago(23 * HOUR + 59 * MINUTE), { now: NOW })).toBe('23h');
    expect(formatRelativeTime(ago(DAY), { now: NOW })).toBe('1d');
    expect(formatRelativeTime('2026-10-19T12:00:00.000Z', { now: NOW })).toBe('30d');
  });

  it('shows calendar months as Nmo and years as Ny', () => {
    expect(formatRelativeTime('2026-10-18T12:00:00.000Z', { now: NOW })).toBe('1mo');
    expect(formatRelativeTime('2026-09-01T00:00:00.000Z', { now: NOW })).toBe('2mo');
    expect(formatRelativeTime('2025-12-18T12:00:00.000Z', { now: NOW })).toBe('11mo');
    expect(formatRelativeTime('2025-11-18T12:00:00.000Z', { now: NOW })).toBe('1y');
    expect(formatRelativeTime('2023-01-01T00:00:00.000Z', { now: NOW })).toBe('3y');
  });

  it('treats the zero date 0001-01-01, missing and unparsable values as empty', () => {
    expect(formatRelativeTime('0001-01-01T00:00:00Z', { now: NOW })).toBe('');
    expect(formatRelativeTime('0001-01-01', { now: NOW })).toBe('');
    expect(formatRelativeTime(null, { now: NOW })).toBe('');
    expect(formatRelativeTime(undefined, { now: NOW })).toBe('');
    expect(formatRelativeTime('', { now: NOW })).toBe('');
    expect(formatRelativeTime('not a date', { now: NOW })).toBe('');
  });

  it('adds a suffix on request, for the past and the future', () => {
    expect(formatRelativeTime(ago(5 * MINUTE), { now: NOW, withSuffix: true })).toBe('5m ago');
    expect(formatRelativeTime(ago(-2 * HOUR), { now: NOW, withSuffix: true })).toBe('in 2h');
    expect(formatRelativeTime(ago(-2 * HOUR), { now: NOW })).toBe('2h');
  });

  it('accepts dates and epoch numbers', () => {
    expect(formatRelativeTime(new Date(ago(3 * DAY)), { now: NOW })).toBe('3d');
    expect(formatRelativeTime(Date.parse(ago(10 * SECOND)), { now: NOW })).toBe('10s');
  });
});

describe('timeGroupOf', () => {
  // 2026-11-18 is a Wednesday; the week starts on Sunday 2026-11-15.
  const options = { now: NOW, timezone: 'UTC' };

  it('lists the groups newest first', () => {
    expect(TIME_GROUPS).toEqual(['today', 'this week', 'this month', 'this year', 'previous year']);
  });

  it('buckets by calendar day, week, month and year', () => {
    expect(timeGroupOf('2026-11-18T00:00:00.000Z', options)).toBe('today');
    expect(timeGroupOf('2026-11-17T23:59:59.999Z', options)).toBe('this week');
    expect(timeGroupOf('2026-11-15T00:00:00.000Z', options)).toBe('this week');
    expect(timeGroupOf('2026-11-14T23:00:00.000Z', options)).toBe('this month');
    expect(timeGroupOf('2026-11-01T00:00:00.000Z', options)).toBe('this month');
    expect(timeGroupOf('2026-10-31T23:00:00.000Z', options)).toBe('this year');
    expect(timeGroupOf('2026-01-01T00:00:00.000Z', options)).toBe('this year');
    expect(timeGroupOf('2025-12-31T23:59:59.000Z', options)).toBe('previous year');
    expect(timeGroupOf('2019-06-01T00:00:00.000Z', options)).toBe('previous year');
  });

  it('counts future values as today', () => {
    expect(timeGroupOf('2026-11-19T10:00:00.000Z', options)).toBe('today');
  });

  it('judges boundaries in the chosen time zone', () => {
    // 23:30 UTC on the 17th is 05:00 on the 18th in India.
    expect(timeGroupOf('2026-11-17T23:30:00.000Z', options)).toBe('this week');
    expect(timeGroupOf('2026-11-17T23:30:00.000Z', { now: NOW, timezone: 'Asia/Kolkata' })).toBe('today');
  });
});
