import { describe, expect, it } from 'vitest';
import { parseTime, parseTristate } from './catalog-filters.js';
import { HttpError } from '../../platform/http/errors.js';
import { parseAge } from './retention.js';
import { planScrape } from './scrapers/registry.js';

describe('parseAge', () => {
  it('reads Go durations plus days, weeks and years', () => {
    expect(parseAge('90s')).toBe(90_000);
    expect(parseAge('1h30m')).toBe(5_400_000);
    expect(parseAge('7d')).toBe(7 * 86_400_000);
    expect(parseAge('2w')).toBe(14 * 86_400_000);
    expect(parseAge('1y')).toBe(365 * 86_400_000);
    expect(() => parseAge('soon')).toThrow('"soon" is not a duration');
    expect(() => parseAge('1mo')).toThrow('months have no fixed length');
  });
});

describe('parseTristate', () => {
  it('reads a,!b and the a:1,b:-1 form', () => {
    expect(parseTristate('a,!b', 'x')).toEqual({ include: ['a'], exclude: ['b'] });
    expect(parseTristate('a:1,b:-1', 'x')).toEqual({ include: ['a'], exclude: ['b'] });
    expect(parseTristate('', 'x')).toBeUndefined();
    expect(() => parseTristate(3, 'health')).toThrow(HttpError);
  });
});

describe('parseTime', () => {
  it('reads absolute times, now-<age> and bare ages', () => {
    const now = new Date('2026-01-10T00:00:00Z');
    expect(parseTime('now-1d', 'from', now)).toEqual(new Date('2026-01-09T00:00:00Z'));
    expect(parseTime('2d', 'from', now)).toEqual(new Date('2026-01-08T00:00:00Z'));
    expect(parseTime('2026-01-01T00:00:00Z', 'from', now)).toEqual(new Date('2026-01-01T00:00:00Z'));
    expect(parseTime('1mo', 'from', now)).toEqual(new Date('2025-12-10T00:00:00Z'));
    expect(parseTime('now-1mo', 'from', now)).toEqual(new Date('2025-12-10T00:00:00Z'));
    expect(() => parseTime('yesterday', 'from', now)).toThrow('from: "yesterday" is not a time');
  });
});

describe('planScrape', () => {
  it('lists supported entries and refuses unsupported types by name', () => {
    const planned = planScrape({
      schedule: '@every 5m',
      retention: {},
      file: [{ paths: ['a'] }],
      sql: [{}, {}],
    });
    expect(planned.map((entry) => entry.label)).toEqual(['file[0]', 'sql[0]', 'sql[1]']);
    expect(() => planScrape({ aws: [{}], githubActions: [{}], file: [{}] })).toThrow(
      'aws, githubActions: scraper type not supported yet',
    );
    expect(() => planScrape({ schedule: '@hourly' })).toThrow('the spec names no scraper');
  });
});
