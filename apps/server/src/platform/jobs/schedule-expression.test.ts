import { describe, expect, it } from 'vitest';
import { InvalidScheduleError, parseSchedule } from './schedule-expression.js';

const at = (iso: string): Date => new Date(iso);

describe('@every intervals', () => {
  const interval = (text: string): number => {
    const every = parseSchedule(`@every ${text}`);
    const tick = every.nextAfter(at('2024-05-01T00:00:00Z'), 'z');
    return every.nextAfter(tick, 'z').getTime() - tick.getTime();
  };

  it.each([
    ['30s', 30_000],
    ['1m', 60_000],
    ['1h30m', 5_400_000],
    ['1.5h', 5_400_000],
    ['2h45m10s', 9_910_000],
    ['1d', 86_400_000],
    ['1w', 604_800_000],
  ])('@every %s is %i ms (the one duration grammar)', (text, ms) => {
    expect(interval(text)).toBe(ms);
  });

  it.each(['', '10', 'm', '1h 30m', '-5s', '5 s', '1mo', '250ms'])('rejects @every %j', (text) => {
    expect(() => parseSchedule(`@every ${text}`)).toThrow(InvalidScheduleError);
  });
});

describe('parseSchedule', () => {
  it('runs @every schedules on a fixed grid, strictly after now', () => {
    const every = parseSchedule('@every 30s');
    const first = every.nextAfter(at('2024-05-01T10:00:00.000Z'), 'check-a');
    expect(first.getTime()).toBeGreaterThan(at('2024-05-01T10:00:00.000Z').getTime());
    expect(first.getTime() - at('2024-05-01T10:00:00.000Z').getTime()).toBeLessThanOrEqual(30_000);
    // The tick itself is never returned again, and the grid does not drift with claim latency.
    expect(every.nextAfter(first, 'check-a').getTime()).toBe(first.getTime() + 30_000);
    expect(every.nextAfter(new Date(first.getTime() + 7), 'check-a').getTime()).toBe(
      first.getTime() + 30_000,
    );
  });

  it('collapses ticks missed while nothing ran into the next one', () => {
    const every = parseSchedule('@every 1m');
    const tick = every.nextAfter(at('2024-05-01T10:00:00Z'), 'x');
    const muchLater = new Date(tick.getTime() + 10 * 60_000 + 1);
    expect(every.nextAfter(muchLater, 'x').getTime()).toBe(tick.getTime() + 11 * 60_000);
  });

  it('gives schedules with one interval different phases, the same in every process', () => {
    const now = at('2024-05-01T10:00:00Z');
    const a = parseSchedule('@every 1h').nextAfter(now, 'canary:a');
    const b = parseSchedule('@every 1h').nextAfter(now, 'canary:b');
    expect(a.getTime()).not.toBe(b.getTime());
    expect(parseSchedule('@every 1h').nextAfter(now, 'canary:a').getTime()).toBe(a.getTime());
  });

  it('parses @every 1h30m', () => {
    const every = parseSchedule('@every 1h30m');
    const tick = every.nextAfter(at('2024-05-01T00:00:00Z'), 'y');
    expect(every.nextAfter(tick, 'y').getTime() - tick.getTime()).toBe(90 * 60_000);
  });

  it.each([
    ['*/5 * * * *', '2024-05-01T10:02:10Z', '2024-05-01T10:05:00.000Z'],
    ['*/10 * * * * *', '2024-05-01T10:02:10Z', '2024-05-01T10:02:20.000Z'],
    ['0 3 * * 1', '2024-05-01T10:00:00Z', '2024-05-06T03:00:00.000Z'],
    ['@hourly', '2024-05-01T10:00:00Z', '2024-05-01T11:00:00.000Z'],
    ['@daily', '2024-05-01T10:00:00Z', '2024-05-02T00:00:00.000Z'],
    ['@weekly', '2024-05-01T10:00:00Z', '2024-05-05T00:00:00.000Z'],
    ['@monthly', '2024-05-01T10:00:00Z', '2024-06-01T00:00:00.000Z'],
    ['CRON_TZ=Europe/Paris 0 9 * * *', '2024-05-01T10:00:00Z', '2024-05-02T07:00:00.000Z'],
  ])('%s after %s is %s', (schedule, now, expected) => {
    expect(parseSchedule(schedule).nextAfter(at(now), 'any').toISOString()).toBe(expected);
  });

  it('evaluates cron in the given time zone', () => {
    const next = parseSchedule('0 9 * * *', { timezone: 'America/New_York' }).nextAfter(
      at('2024-05-01T10:00:00Z'),
      'z',
    );
    expect(next.toISOString()).toBe('2024-05-01T13:00:00.000Z');
  });

  it.each([
    ['', /empty/],
    ['@every', /unknown preset/],
    ['@every 10', /not a duration/],
    ['@every 500ms', /at least 1s/],
    ['@fortnightly', /unknown preset/],
    ['* * * *', /5 fields .* or 6/],
    ['* * * * * * *', /not 7/],
    ['61 * * * *', /Invalid schedule "61 \* \* \* \*"/],
  ])('rejects %j', (schedule, message) => {
    expect(() => parseSchedule(schedule)).toThrow(InvalidScheduleError);
    expect(() => parseSchedule(schedule)).toThrow(message);
  });
});
