import { describe, expect, it } from 'vitest';
import {
  DATE_TIME_FORMAT,
  DATE_TIME_FORMATS,
  DEFAULT_DATE_TIME_FORMAT,
  formatAge,
  formatDate,
  formatDatePattern,
  MONTH_DAY_FORMAT,
  TIME_FORMAT,
  TIMESTAMP_FORMAT,
} from './date';

const NOW = '2026-11-18T12:00:00.000Z'; // a Wednesday
const VALUE = '2026-11-18T09:05:03.042Z';

describe('formatDate', () => {
  it('offers short, medium, full and timestamp, defaulting to timestamp', () => {
    expect(DATE_TIME_FORMATS).toEqual(['short', 'medium', 'full', 'timestamp']);
    expect(DEFAULT_DATE_TIME_FORMAT).toBe('timestamp');
    expect(formatDate(VALUE, { timezone: 'UTC' })).toBe('2026-11-18 09:05:03.042');
  });

  it('formats the timestamp as YYYY-MM-DD HH:mm:ss.SSS in the chosen zone', () => {
    expect(TIMESTAMP_FORMAT).toBe('YYYY-MM-DD HH:mm:ss.SSS');
    expect(formatDate(VALUE, { format: 'timestamp', timezone: 'UTC' })).toBe('2026-11-18 09:05:03.042');
    expect(formatDate(VALUE, { format: 'timestamp', timezone: 'Asia/Kolkata' })).toBe(
      '2026-11-18 14:35:03.042',
    );
    expect(formatDate(VALUE, { format: 'timestamp', timezone: 'America/New_York' })).toBe(
      '2026-11-18 04:05:03.042',
    );
  });

  it('uses the browser zone for the browser preference', () => {
    const local = new Date(VALUE);
    const pad = (value: number, size = 2) => String(value).padStart(size, '0');
    const expected = `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())} ${pad(local.getHours())}:${pad(local.getMinutes())}:${pad(local.getSeconds())}.${pad(local.getMilliseconds(), 3)}`;
    expect(formatDate(VALUE, { timezone: 'browser' })).toBe(expected);
    expect(formatDate(VALUE)).toBe(expected);
  });

  it('short is relative', () => {
    expect(formatDate('2026-11-18T11:55:00.000Z', { format: 'short', now: NOW })).toBe('5m ago');
    expect(formatDate('2026-11-15T12:00:00.000Z', { format: 'short', now: NOW })).toBe('3d ago');
  });

  it('medium shows time only for today', () => {
    expect(formatDate(VALUE, { format: 'medium', now: NOW, timezone: 'UTC' })).toBe('9:05 AM');
  });

  it('medium shows the weekday within the week', () => {
    expect(formatDate('2026-11-16T21:30:00.000Z', { format: 'medium', now: NOW, timezone: 'UTC' })).toBe(
      'Mon 9:30 PM',
    );
  });

  it('medium shows the month-day within the year', () => {
    expect(formatDate('2026-02-01T09:05:00.000Z', { format: 'medium', now: NOW, timezone: 'UTC' })).toBe(
      'Feb 01 9:05 AM',
    );
  });

  it('medium adds the year for older dates', () => {
    expect(formatDate('2025-12-31T09:05:00.000Z', { format: 'medium', now: NOW, timezone: 'UTC' })).toBe(
      'Dec 31, 2025 9:05 AM',
    );
  });

  it('medium judges "today" in the chosen zone', () => {
    // 20:00 UTC on the 17th is already the 18th in Tokyo.
    expect(
      formatDate('2026-11-17T20:00:00.000Z', { format: 'medium', now: NOW, timezone: 'Asia/Tokyo' }),
    ).toBe('5:00 AM');
    expect(formatDate('2026-11-17T20:00:00.000Z', { format: 'medium', now: NOW, timezone: 'UTC' })).toBe(
      'Tue 8:00 PM',
    );
  });

  it('full shows every field', () => {
    expect(formatDate(VALUE, { format: 'full', timezone: 'UTC' })).toBe(
      'Wednesday, November 18, 2026 9:05:03 AM +00:00',
    );
    expect(formatDate(VALUE, { format: 'full', timezone: 'Asia/Kolkata' })).toBe(
      'Wednesday, November 18, 2026 2:35:03 PM +05:30',
    );
  });

  it('gives an empty string for missing and zero dates', () => {
    for (const format of DATE_TIME_FORMATS) {
      expect(formatDate(null, { format })).toBe('');
      expect(formatDate('0001-01-01T00:00:00Z', { format })).toBe('');
    }
  });
});

describe('date patterns', () => {
  it('formats h:mm A, MMM DD and YYYY-MM-DD HH:mm', () => {
    expect(formatDatePattern(VALUE, TIME_FORMAT, 'UTC')).toBe('9:05 AM');
    expect(formatDatePattern(VALUE, MONTH_DAY_FORMAT, 'UTC')).toBe('Nov 18');
    expect(formatDatePattern(VALUE, DATE_TIME_FORMAT, 'UTC')).toBe('2026-11-18 09:05');
    expect(formatDatePattern(undefined, DATE_TIME_FORMAT)).toBe('');
  });
});

describe('formatAge', () => {
  it('gives the relative age with the full timestamp as tooltip', () => {
    expect(formatAge('2026-11-18T09:00:00.000Z', { now: NOW, timezone: 'UTC' })).toEqual({
      text: '3h',
      title: '2026-11-18 09:00:00.000',
      iso: '2026-11-18T09:00:00.000Z',
    });
  });

  it('is empty for the zero date', () => {
    expect(formatAge('0001-01-01T00:00:00Z', { now: NOW })).toEqual({ text: '', title: '', iso: '' });
  });
});
