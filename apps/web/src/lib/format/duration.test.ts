import { describe, expect, it } from 'vitest';
import { defaultTimeRangeForAge, durationOptionMinutes, formatDuration, parseIntervalMs } from './duration';

describe('formatDuration', () => {
  it('shows ms below 1 s', () => {
    expect(formatDuration(0)).toBe('0ms');
    expect(formatDuration(250)).toBe('250ms');
    expect(formatDuration(999)).toBe('999ms');
    expect(formatDuration(12.6)).toBe('13ms');
  });

  it('shows d, h, m and s parts from 1 s, leaving out zero parts', () => {
    expect(formatDuration(1000)).toBe('1s');
    expect(formatDuration(1500)).toBe('1s');
    expect(formatDuration(61_000)).toBe('1m 1s');
    expect(formatDuration(3_600_000)).toBe('1h');
    expect(formatDuration(3_723_000)).toBe('1h 2m 3s');
    expect(formatDuration(90_061_000)).toBe('1d 1h 1m 1s');
    expect(formatDuration(2 * 86_400_000 + 5000)).toBe('2d 5s');
  });

  it('gives an empty string for non-numbers and negatives', () => {
    expect(formatDuration(undefined)).toBe('');
    expect(formatDuration(null)).toBe('');
    expect(formatDuration(Number.NaN)).toBe('');
    expect(formatDuration(-5)).toBe('');
  });
});

describe('durationOptionMinutes', () => {
  it('gives the minutes of a health time range and nothing for other values', () => {
    expect(durationOptionMinutes('15m')).toBe(15);
    expect(durationOptionMinutes('1w')).toBe(10080);
    expect(durationOptionMinutes('5y')).toBe(2592000);
    expect(durationOptionMinutes('4h')).toBeUndefined();
    expect(durationOptionMinutes('toString')).toBeUndefined();
  });
});

describe('defaultTimeRangeForAge', () => {
  it('picks 1h under 60 minutes, then the first larger range', () => {
    expect(defaultTimeRangeForAge(0)).toBe('1h');
    expect(defaultTimeRangeForAge(59)).toBe('1h');
    expect(defaultTimeRangeForAge(60)).toBe('3h');
    expect(defaultTimeRangeForAge(200)).toBe('6h');
    expect(defaultTimeRangeForAge(1000)).toBe('1d');
    expect(defaultTimeRangeForAge(1440)).toBe('2d');
    expect(defaultTimeRangeForAge(5000)).toBe('1w');
    expect(defaultTimeRangeForAge(40_000)).toBe('1mo');
    expect(defaultTimeRangeForAge(300_000)).toBe('1y');
    expect(defaultTimeRangeForAge(2_000_000)).toBe('5y');
  });

  it('falls back to 5y for very old or missing runs', () => {
    expect(defaultTimeRangeForAge(10_000_000)).toBe('5y');
    expect(defaultTimeRangeForAge(undefined)).toBe('5y');
  });
});

describe('parseIntervalMs', () => {
  it('reads a duration in the one duration grammar', () => {
    expect(parseIntervalMs('30s')).toBe(30_000);
    expect(parseIntervalMs('1m30s')).toBe(90_000);
    expect(parseIntervalMs('5m')).toBe(300_000);
    expect(parseIntervalMs('1h')).toBe(3_600_000);
    expect(parseIntervalMs('1d')).toBe(86_400_000);
    expect(parseIntervalMs('2w')).toBe(1_209_600_000);
  });

  it('means no auto-refresh for empty or other values', () => {
    expect(parseIntervalMs('')).toBeUndefined();
    expect(parseIntervalMs(undefined)).toBeUndefined();
    expect(parseIntervalMs('5')).toBeUndefined();
    expect(parseIntervalMs('1mo')).toBeUndefined();
    expect(parseIntervalMs('soon')).toBeUndefined();
    expect(parseIntervalMs('0s')).toBeUndefined();
  });
});
