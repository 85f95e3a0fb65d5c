import { describe, expect, it } from 'vitest';
import { formatAge, formatTable } from './cli-commands.js';

describe('opsdeck get formatting', () => {
  it('prints ages in the largest whole unit', () => {
    const now = new Date('2025-01-10T12:00:00Z');
    expect(formatAge(new Date('2025-01-10T11:59:55Z'), now)).toBe('5s');
    expect(formatAge(new Date('2025-01-10T11:48:00Z'), now)).toBe('12m');
    expect(formatAge(new Date('2025-01-10T09:00:00Z'), now)).toBe('3h');
    expect(formatAge(new Date('2025-01-06T12:00:00Z'), now)).toBe('4d');
    expect(formatAge(new Date('2025-01-10T12:00:05Z'), now)).toBe('0s');
  });

  it('aligns columns three spaces apart without trailing spaces', () => {
    expect(
      formatTable([
        ['NAMESPACE', 'NAME', 'AGE'],
        ['default', 'a-long-name', '5s'],
      ]),
    ).toBe('NAMESPACE   NAME          AGE\ndefault     a-long-name   5s\n');
  });
});
