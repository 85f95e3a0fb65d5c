import { describe, expect, it } from 'vitest';
import { evaluateDateMath, isDateMath, timestampParameter } from './date-math.js';

const NOW = new Date('2024-05-15T13:45:30.250Z');

describe('date math', () => {
  it('evaluates offsets from now', () => {
    expect(evaluateDateMath('now', NOW)?.toISOString()).toBe('2024-05-15T13:45:30.250Z');
    expect(evaluateDateMath('now-1h', NOW)?.toISOString()).toBe('2024-05-15T12:45:30.250Z');
    expect(evaluateDateMath('now+30m', NOW)?.toISOString()).toBe('2024-05-15T14:15:30.250Z');
    expect(evaluateDateMath('now-7d', NOW)?.toISOString()).toBe('2024-05-08T13:45:30.250Z');
    expect(evaluateDateMath('now-1w', NOW)?.toISOString()).toBe('2024-05-08T13:45:30.250Z');
    expect(evaluateDateMath('now-1M', NOW)?.toISOString()).toBe('2024-04-15T13:45:30.250Z');
    expect(evaluateDateMath('now-1y', NOW)?.toISOString()).toBe('2023-05-15T13:45:30.250Z');
    expect(evaluateDateMath('now-1d-12h', NOW)?.toISOString()).toBe('2024-05-14T01:45:30.250Z');
    expect(evaluateDateMath('now-90s', NOW)?.toISOString()).toBe('2024-05-15T13:44:00.250Z');
    // The one time grammar: months as mo, combined and fractional terms, bare durations.
    expect(evaluateDateMath('now-1mo', NOW)?.toISOString()).toBe('2024-04-15T13:45:30.250Z');
    expect(evaluateDateMath('now-1h30m', NOW)?.toISOString()).toBe('2024-05-15T12:15:30.250Z');
    expect(evaluateDateMath('now-1.5h', NOW)?.toISOString()).toBe('2024-05-15T12:15:30.250Z');
    expect(evaluateDateMath('24h', NOW)?.toISOString()).toBe('2024-05-14T13:45:30.250Z');
  });

  it('rounds down to a unit', () => {
    expect(evaluateDateMath('now/d', NOW)?.toISOString()).toBe('2024-05-15T00:00:00.000Z');
    expect(evaluateDateMath('now-1d/d', NOW)?.toISOString()).toBe('2024-05-14T00:00:00.000Z');
    expect(evaluateDateMath('now/h', NOW)?.toISOString()).toBe('2024-05-15T13:00:00.000Z');
    expect(evaluateDateMath('now/M', NOW)?.toISOString()).toBe('2024-05-01T00:00:00.000Z');
    // 2024-05-15 is a Wednesday; ISO weeks start on Monday the 13th.
    expect(evaluateDateMath('now/w', NOW)?.toISOString()).toBe('2024-05-13T00:00:00.000Z');
  });

  it('leaves anything else to PostgreSQL', () => {
    for (const text of [
      '2024-01-01',
      'yesterday',
      'now()',
      'now-1',
      'now-h',
      'now-1x',
      'nowish',
      'now-99999999999y',
    ]) {
      expect(isDateMath(text)).toBe(false);
      expect(evaluateDateMath(text, NOW)).toBeNull();
    }
    expect(timestampParameter('2024-01-01T00:00:00Z', NOW)).toBe('2024-01-01T00:00:00Z');
    expect(timestampParameter('now-1h', NOW)).toBe('2024-05-15T12:45:30.250Z');
  });
});
