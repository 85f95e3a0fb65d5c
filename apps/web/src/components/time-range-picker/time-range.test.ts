import { RELATIVE_TIME_RANGE_PRESETS } from '@opsdeck/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  MAX_RECENT_RANGES,
  pushRecentRange,
  readRecentRanges,
  RECENT_RANGES_STORAGE_KEY,
} from './recent-ranges';
import {
  FUTURE_RELATIVE_PRESETS,
  MAPPED_RANGES,
  mappedTimeRange,
  parseRelativeRange,
  relativeRangeDisplay,
  resolveTimeRange,
  timeRangeLabel,
} from './time-range';

const NOW = '2026-11-18T15:30:00.000Z'; // Wednesday
const at = (range: ReturnType<typeof resolveTimeRange>) =>
  range && { from: range.from.toISOString(), to: range.to?.toISOString() ?? null };

beforeEach(() => window.localStorage.clear());
afterEach(() => vi.restoreAllMocks());

describe('relative presets', () => {
  it('looks ahead by the past presets, plus Indefinitely', () => {
    expect(FUTURE_RELATIVE_PRESETS).toEqual([
      ...RELATIVE_TIME_RANGE_PRESETS.map((preset) => `+${preset}`),
      'indefinitely',
    ]);
  });

  it('parses and names ranges', () => {
    expect(parseRelativeRange('6M')).toEqual({ amount: 6, unit: 'M', future: false });
    expect(parseRelativeRange('3mo')).toEqual({ amount: 3, unit: 'M', future: false });
    expect(parseRelativeRange('+1h')).toEqual({ amount: 1, unit: 'h', future: true });
    expect(parseRelativeRange('Indefinitely')).toBe('indefinitely');
    expect(parseRelativeRange('soon')).toBeUndefined();
    expect(parseRelativeRange('0m')).toBeUndefined();
    expect(relativeRangeDisplay('15m')).toBe('Last 15 minutes');
    expect(relativeRangeDisplay('1h')).toBe('Last 1 hour');
    expect(relativeRangeDisplay('6M')).toBe('Last 6 months');
    expect(relativeRangeDisplay('+7d')).toBe('Next 7 days');
    expect(relativeRangeDisplay('indefinitely')).toBe('Indefinitely');
  });
});

describe('resolveTimeRange', () => {
  it('resolves relative ranges back and forward from now', () => {
    expect(at(resolveTimeRange({ type: 'relative', range: '1h' }, { now: NOW }))).toEqual({
      from: '2026-11-18T14:30:00.000Z',
      to: NOW,
    });
    expect(at(resolveTimeRange({ type: 'relative', range: '6M' }, { now: NOW }))).toEqual({
      from: '2026-05-18T15:30:00.000Z',
      to: NOW,
    });
    expect(at(resolveTimeRange({ type: 'relative', range: '+2d' }, { now: NOW }))).toEqual({
      from: NOW,
      to: '2026-11-20T15:30:00.000Z',
    });
    expect(at(resolveTimeRange({ type: 'relative', range: 'indefinitely' }, { now: NOW }))).toEqual({
      from: NOW,
      to: null,
    });
  });

  it('resolves any range of the one time grammar (contracts time.ts), as the server does', () => {
    expect(at(resolveTimeRange({ type: 'relative', range: '1h30m' }, { now: NOW }))).toEqual({
      from: '2026-11-18T14:00:00.000Z',
      to: NOW,
    });
    expect(at(resolveTimeRange({ type: 'relative', range: '3mo' }, { now: NOW }))).toEqual({
      from: '2026-08-18T15:30:00.000Z',
      to: NOW,
    });
    expect(at(resolveTimeRange({ type: 'relative', range: '1.5h' }, { now: NOW }))?.from).toBe(
      '2026-11-18T14:00:00.000Z',
    );
    expect(
      at(
        resolveTimeRange({ type: 'mapped', from: 'now-1mo', to: 'now-1d/d' }, { now: NOW, timezone: 'UTC' }),
      ),
    ).toEqual({ from: '2026-10-18T15:30:00.000Z', to: '2026-11-17T23:59:59.999Z' });
    expect(parseRelativeRange('1h30m')).toBeUndefined();
    expect(relativeRangeDisplay('1h30m')).toBe('1h30m');
  });

  it("logs 'Invalid relative time range' for a bad relative range", () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(resolveTimeRange({ type: 'relative', range: 'yesterday-ish' }, { now: NOW })).toBeUndefined();
    expect(error).toHaveBeenCalledWith('Invalid relative time range', expect.anything());
  });

  it("logs and throws 'Invalid mapped time range' for a bad mapped range", () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => resolveTimeRange({ type: 'mapped', from: 'then', to: 'now' }, { now: NOW })).toThrow(
      'Invalid mapped time range',
    );
    expect(error).toHaveBeenCalledWith('Invalid mapped time range', expect.anything());
  });

  it('resolves every mapped quick range in the user zone', () => {
    const resolved = Object.fromEntries(
      MAPPED_RANGES.map((mapped) => [
        mapped.display,
        at(resolveTimeRange(mappedTimeRange(mapped), { now: NOW, timezone: 'UTC' })),
      ]),
    );
    expect(resolved).toEqual({
      Yesterday: { from: '2026-11-17T00:00:00.000Z', to: '2026-11-17T23:59:59.999Z' },
      'Day before yesterday': { from: '2026-11-16T00:00:00.000Z', to: '2026-11-16T23:59:59.999Z' },
      'This day last week': { from: '2026-11-11T00:00:00.000Z', to: '2026-11-11T23:59:59.999Z' },
      'Previous week': { from: '2026-11-08T00:00:00.000Z', to: '2026-11-14T23:59:59.999Z' },
      'Previous month': { from: '2026-10-01T00:00:00.000Z', to: '2026-10-31T23:59:59.999Z' },
      'Previous year': { from: '2025-01-01T00:00:00.000Z', to: '2025-12-31T23:59:59.999Z' },
      Today: { from: '2026-11-18T00:00:00.000Z', to: '2026-11-18T23:59:59.999Z' },
      'Today so far': { from: '2026-11-18T00:00:00.000Z', to: NOW },
      'This week': { from: '2026-11-15T00:00:00.000Z', to: '2026-11-21T23:59:59.999Z' },
      'This week so far': { from: '2026-11-15T00:00:00.000Z', to: NOW },
      'This month': { from: '2026-11-01T00:00:00.000Z', to: '2026-11-30T23:59:59.999Z' },
      'This month so far': { from: '2026-11-01T00:00:00.000Z', to: NOW },
      'This year': { from: '2026-01-01T00:00:00.000Z', to: '2026-12-31T23:59:59.999Z' },
      'This year so far': { from: '2026-01-01T00:00:00.000Z', to: NOW },
    });
  });

  it('rounds mapped days in the chosen zone', () => {
    const today = resolveTimeRange(
      { type: 'mapped', from: 'now/d', to: 'now/d' },
      { now: NOW, timezone: 'Asia/Tokyo' },
    );
    // 15:30 UTC is 00:30 on the 19th in Tokyo.
    expect(at(today)).toEqual({ from: '2026-11-18T15:00:00.000Z', to: '2026-11-19T14:59:59.999Z' });
  });

  it('passes absolute ranges through and rejects broken ones', () => {
    expect(
      at(
        resolveTimeRange({
          type: 'absolute',
          from: '2026-01-01T00:00:00.000Z',
          to: '2026-01-02T00:00:00.000Z',
        }),
      ),
    ).toEqual({
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-01-02T00:00:00.000Z',
    });
    expect(resolveTimeRange({ type: 'absolute', from: 'x', to: 'y' })).toBeUndefined();
  });

  it('labels absolute ranges with YYYY-MM-DD HH:mm in the zone', () => {
    expect(
      timeRangeLabel(
        { type: 'absolute', from: '2026-01-01T00:00:00.000Z', to: '2026-01-02T12:30:00.000Z' },
        'UTC',
      ),
    ).toBe('2026-01-01 00:00 to 2026-01-02 12:30');
    expect(timeRangeLabel(undefined)).toBeUndefined();
  });
});

describe('recent ranges', () => {
  const range = (day: number) => ({
    type: 'absolute' as const,
    from: `2026-01-${String(day).padStart(2, '0')}T00:00:00.000Z`,
    to: '2026-02-01T00:00:00.000Z',
  });

  it('keeps at most 5, newest first, without duplicates', () => {
    for (const day of [1, 2, 3, 4, 5, 6]) pushRecentRange(range(day));
    expect(readRecentRanges().map((item) => item.from.slice(8, 10))).toEqual(['06', '05', '04', '03', '02']);
    pushRecentRange(range(4));
    expect(readRecentRanges().map((item) => item.from.slice(8, 10))).toEqual(['04', '06', '05', '03', '02']);
    expect(readRecentRanges()).toHaveLength(MAX_RECENT_RANGES);
  });

  it('ignores unreadable storage', () => {
    window.localStorage.setItem(RECENT_RANGES_STORAGE_KEY, '{oops');
    expect(readRecentRanges()).toEqual([]);
    window.localStorage.setItem(
      RECENT_RANGES_STORAGE_KEY,
      JSON.stringify([{ type: 'relative', range: '1h' }, range(9)]),
    );
    expect(readRecentRanges()).toEqual([range(9)]);
  });
});
