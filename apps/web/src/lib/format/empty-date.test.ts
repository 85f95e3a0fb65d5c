import { describe, expect, it } from 'vitest';
import { toZoned } from './dayjs';
import { isEmptyDate } from './empty-date';

describe('isEmptyDate', () => {
  it('counts the zero date 0001-01-01 as empty', () => {
    expect(isEmptyDate('0001-01-01T00:00:00Z')).toBe(true);
    expect(isEmptyDate('0001-01-01')).toBe(true);
    expect(isEmptyDate(new Date('0001-01-01T00:00:00Z'))).toBe(true);
  });

  it('counts missing, blank and unparsable values as empty', () => {
    expect(isEmptyDate(null)).toBe(true);
    expect(isEmptyDate(undefined)).toBe(true);
    expect(isEmptyDate('  ')).toBe(true);
    expect(isEmptyDate('yesterday')).toBe(true);
  });

  it('accepts real dates', () => {
    expect(isEmptyDate('2026-11-18T09:00:00Z')).toBe(false);
    expect(isEmptyDate(0)).toBe(false);
  });
});

describe('toZoned', () => {
  it('moves a value into a zone, or keeps the browser zone', () => {
    expect(toZoned('2026-11-18T09:00:00Z', 'Asia/Tokyo').format('HH:mm')).toBe('18:00');
    expect(toZoned('2026-11-18T09:00:00Z', 'browser').valueOf()).toBe(Date.parse('2026-11-18T09:00:00Z'));
    expect(toZoned('nope', 'Asia/Tokyo').isValid()).toBe(false);
  });
});
