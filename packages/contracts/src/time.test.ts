import { describe, expect, it } from 'vitest';
import {
  addUtcMonths,
  DURATION_PATTERN,
  isDuration,
  parseDuration,
  parseTime,
  parseTimeExpression,
  TimeParseError,
} from './time.js';

const S = 1_000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('parseDuration', () => {
  it.each<[string, number]>([
    // Go's time.ParseDuration
    ['0', 0],
    ['+0', 0],
    ['1ns', 1e-6],
    ['1us', 1e-3],
    ['1µs', 1e-3],
    ['1μs', 1e-3],
    ['250ms', 250],
    ['30s', 30 * S],
    ['1.5s', 1.5 * S],
    ['.5s', 0.5 * S],
    ['5m', 5 * M],
    ['1h', H],
    ['1.5h', 1.5 * H],
    ['1h30m', 90 * M],
    ['2h45m10s', 2 * H + 45 * M + 10 * S],
    ['1m30s500ms', 90 * S + 500],
    ['+5m', 5 * M],
    [' 15m ', 15 * M],
    // Opsdeck's additions: d, w, y
    ['1d', D],
    ['7d', 7 * D],
    ['1d12h', 36 * H],
    ['2w', 14 * D],
    ['1y', 365 * D],
    // forms the old grammars accepted: auth settings (24h, 2w), retention ages (90s, 1h30m),
    // incident rules (1w), check specs (500ms, 1.5s, 0), @every (2h45m10s), resources (1h30m)
    ['24h', D],
    ['90s', 90 * S],
  ])('%j is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBeCloseTo(ms, 9);
    expect(isDuration(text)).toBe(true);
    expect(DURATION_PATTERN.test(text.trim())).toBe(true);
  });

  it('reads a sign only when asked to', () => {
    expect(parseDuration('-1h30m', { allowNegative: true })).toBe(-90 * M);
    expect(() => parseDuration('-5s')).toThrow('"-5s" is not a duration: it cannot be negative');
    expect(DURATION_PATTERN.test('-5s')).toBe(false);
  });

  it.each<[string, string]>([
    ['', 'the duration is empty'],
    ['   ', 'the duration is empty'],
    ['10', '"10" is not a duration: a number needs a unit'],
    ['1.5', '"1.5" is not a duration: a number needs a unit'],
    ['m', '"m" is not a duration: expected a duration such as 30s'],
    ['5x', '"5x" is not a duration: unknown unit "x"'],
    ['5 m', '"5 m" is not a duration'],
    ['1h 30m', '"1h 30m" is not a duration'],
    ['5H', 'unknown unit "H"'],
    ['soon', '"soon" is not a duration'],
    ['1mo', '"1mo" is not a duration: months have no fixed length'],
    ['1M', '"1M" is not a duration: months have no fixed length'],
    ['1h1mo', 'months have no fixed length'],
    ['99999999999y', 'is too long'],
    ['now-1h', '"now-1h" is not a duration'],
    ['--5s', 'is not a duration'],
  ])('refuses %j', (text, message) => {
    expect(() => parseDuration(text, { allowNegative: true })).toThrow(TimeParseError);
    expect(() => parseDuration(text, { allowNegative: true })).toThrow(message);
    expect(isDuration(text)).toBe(false);
    expect(DURATION_PATTERN.test(text.trim()) && !text.includes('99999')).toBe(false);
  });
});

describe('parseTime', () => {
  const NOW = new Date('2024-05-15T13:45:30.250Z');
  const iso = (text: string, now = NOW) => parseTime(text, now).toISOString();

  it.each<[string, string]>([
    ['now', '2024-05-15T13:45:30.250Z'],
    // relative to now: fixed units
    ['now-1h', '2024-05-15T12:45:30.250Z'],
    ['now+30m', '2024-05-15T14:15:30.250Z'],
    ['now+2d', '2024-05-17T13:45:30.250Z'],
    ['now-7d', '2024-05-08T13:45:30.250Z'],
    ['now-1w', '2024-05-08T13:45:30.250Z'],
    ['now-90s', '2024-05-15T13:44:00.250Z'],
    ['now-1h30m', '2024-05-15T12:15:30.250Z'],
    ['now-1.5h', '2024-05-15T12:15:30.250Z'],
    ['now-1d-12h', '2024-05-14T01:45:30.250Z'],
    ['now-1d+1h', '2024-05-14T14:45:30.250Z'],
    // calendar months and years
    ['now-1mo', '2024-04-15T13:45:30.250Z'],
    ['now-1M', '2024-04-15T13:45:30.250Z'],
    ['now-13mo', '2023-04-15T13:45:30.250Z'],
    ['now+1mo', '2024-06-15T13:45:30.250Z'],
    ['now-1y', '2023-05-15T13:45:30.250Z'],
    ['now-1mo-1d', '2024-04-14T13:45:30.250Z'],
    // rounding (UTC; ISO weeks start on Monday; 2024-05-15 is a Wednesday)
    ['now/d', '2024-05-15T00:00:00.000Z'],
    ['now-1d/d', '2024-05-14T00:00:00.000Z'],
    ['now/h', '2024-05-15T13:00:00.000Z'],
    ['now/m', '2024-05-15T13:45:00.000Z'],
    ['now/s', '2024-05-15T13:45:30.000Z'],
    ['now/w', '2024-05-13T00:00:00.000Z'],
    ['now/M', '2024-05-01T00:00:00.000Z'],
    ['now/mo', '2024-05-01T00:00:00.000Z'],
    ['now-1M/M', '2024-04-01T00:00:00.000Z'],
    ['now/y', '2024-01-01T00:00:00.000Z'],
    // bare durations: that long ago (health's `1h`, `7d`, `1mo`; catalog's `2d`)
    ['1h', '2024-05-15T12:45:30.250Z'],
    ['24h', '2024-05-14T13:45:30.250Z'],
    ['7d', '2024-05-08T13:45:30.250Z'],
    ['1h30m', '2024-05-15T12:15:30.250Z'],
    ['1mo', '2024-04-15T13:45:30.250Z'],
    ['6M', '2023-11-15T13:45:30.250Z'],
    ['1y', '2023-05-15T13:45:30.250Z'],
    ['500ms', '2024-05-15T13:45:29.750Z'],
    // absolute times
    ['2024-01-02T03:04:05Z', '2024-01-02T03:04:05.000Z'],
    ['2024-01-02T03:04:05.678+02:00', '2024-01-02T01:04:05.678Z'],
    ['2024-01-02', '2024-01-02T00:00:00.000Z'],
    ['2024', '2024-01-01T00:00:00.000Z'],
    ['1704164645000', '2024-01-02T03:04:05.000Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
  ])('%j is %s', (text, expected) => {
    expect(iso(text)).toBe(expected);
  });

  it('clamps a month step to the last day of the target month', () => {
    expect(iso('now-1mo', new Date('2024-03-31T10:00:00Z'))).toBe('2024-02-29T10:00:00.000Z');
    expect(iso('1mo', new Date('2023-03-31T10:00:00Z'))).toBe('2023-02-28T10:00:00.000Z');
    expect(iso('now-1y', new Date('2024-02-29T10:00:00Z'))).toBe('2023-02-28T10:00:00.000Z');
    expect(iso('now+1mo', new Date('2024-01-31T00:00:00Z'))).toBe('2024-02-29T00:00:00.000Z');
    expect(addUtcMonths(new Date('2024-12-31T00:00:00Z'), 2).toISOString()).toBe('2025-02-28T00:00:00.000Z');
  });

  it.each<[string, string]>([
    ['', 'the time is empty'],
    ['yesterday', '"yesterday" is not a time: use now, now-1h'],
    ['10', '"10" is not a time: a number needs a unit'],
    ['-1h', '"-1h" is not a time'],
    ['5x', '"5x" is not a time: unknown unit "x"'],
    ['now-', '"now-" is not a time: a number with a unit is missing'],
    ['now-1', '"now-1" is not a time: a number needs a unit'],
    ['now-h', '"now-h" is not a time'],
    ['now()', '"now()" is not a time: after "now" comes +, - or /'],
    ['nowish', '"nowish" is not a time'],
    ['now/q', '"now/q" is not a time: "/q" must round to'],
    ['now-1.5mo', 'months and years must be whole numbers'],
    ['1.5y', 'months and years must be whole numbers'],
    ['now-99999999999y', 'is too long'],
    ['now+9000y', 'is out of range: times must be between 0001-01-01 and 9999-12-31'],
    ['99999999999999999', 'is out of range'],
    ['+275760-01-01T00:00:00Z', 'is out of range'],
  ])('refuses %j', (text, message) => {
    expect(() => parseTime(text, NOW)).toThrow(TimeParseError);
    expect(() => parseTime(text, NOW)).toThrow(message);
  });

  it('parses once and resolves later, for callers with their own time zone', () => {
    expect(parseTimeExpression('now-1mo-2h/d')).toEqual({
      kind: 'relative',
      steps: [
        { months: -1, ms: 0 },
        { months: 0, ms: -2 * H },
      ],
      round: 'd',
    });
    expect(parseTimeExpression('1mo')).toEqual({ kind: 'relative', steps: [{ months: -1, ms: 0 }] });
  });
});
