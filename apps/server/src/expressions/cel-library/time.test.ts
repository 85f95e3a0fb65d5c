import { describe, expect, it } from 'vitest';
import { evaluateCel } from '../cel.js';
import { DurationValue } from '../duration-value.js';
import { parseGoTime } from './go-time-layout.js';
import { humanDuration } from './time.js';

const variables = {
  elapsed: DurationValue.fromMilliseconds(1500),
  sslAge: DurationValue.fromMilliseconds(10 * 86_400_000),
};

describe('CEL time and duration functions', () => {
  it('sees elapsed and sslAge as durations', () => {
    expect(evaluateCel('elapsed.getMilliseconds()', variables)).toBe(500);
    expect(evaluateCel('elapsed.getSeconds()', variables)).toBe(1);
    expect(evaluateCel("sslAge > Duration('7d')", variables)).toBe(true);
    expect(evaluateCel("sslAge > Duration('11d')", variables)).toBe(false);
    expect(evaluateCel("elapsed < duration('2s')", variables)).toBe(true);
    expect(() => evaluateCel('elapsed > 5', variables)).toThrow(/overload/);
  });

  it('parses the ecosystem duration forms', () => {
    expect(evaluateCel("Duration('1w') == Duration('7d')", {})).toBe(true);
    expect(evaluateCel("Duration('1h30m') == duration('90m')", {})).toBe(true);
    expect(() => evaluateCel("Duration('soon')", {})).toThrow(/invalid duration/);
  });

  it('writes durations for people', () => {
    expect(evaluateCel('HumanDuration(elapsed)', variables)).toBe('1.5s');
    expect(evaluateCel("HumanDuration(Duration('26h5m'))", {})).toBe('1d2h');
    expect(humanDuration(DurationValue.fromMilliseconds(3_900_000))).toBe('1h5m');
    expect(humanDuration(DurationValue.fromMilliseconds(120))).toBe('120ms');
  });

  it('reads the clock and the zone', () => {
    const now = evaluateCel('time.Now()', {}) as string;
    expect(Math.abs(Date.parse(now) - Date.now())).toBeLessThan(5000);
    expect(typeof evaluateCel('time.ZoneName()', {})).toBe('string');
    expect(evaluateCel('time.ZoneOffset()', {})).toBe(0 - new Date().getTimezoneOffset() * 60 + 0);
    expect(evaluateCel("time.Since(timestamp('2020-01-01T00:00:00Z')) > Duration('365d')", {})).toBe(true);
  });

  it('parses times with Go layouts', () => {
    expect(evaluateCel("time.Parse('2006-01-02', '2024-03-05')", {})).toBe('2024-03-05T00:00:00.000Z');
    expect(evaluateCel("time.Parse('RFC3339', '2024-03-05T10:20:30+02:00')", {})).toBe(
      '2024-03-05T08:20:30.000Z',
    );
    expect(
      new Date(parseGoTime('Jan 2, 2006 at 3:04pm (MST)', 'Feb 3, 2013 at 7:54pm (UTC)')).toISOString(),
    ).toBe('2013-02-03T19:54:00.000Z');
    expect(new Date(parseGoTime('2006-01-02 15:04:05.000', '2024-01-01 00:00:01.250')).toISOString()).toBe(
      '2024-01-01T00:00:01.250Z',
    );
    expect(() => evaluateCel("time.Parse('2006-01-02', 'yesterday')", {})).toThrow(/cannot parse/);
  });
});
