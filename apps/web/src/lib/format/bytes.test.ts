import { describe, expect, it } from 'vitest';
import { formatBytes } from './bytes';

describe('formatBytes', () => {
  it('keeps small values in B', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
  });

  it('uses base 1024 units from KB up to YB', () => {
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(1024 ** 2)).toBe('1 MB');
    expect(formatBytes(1024 ** 3 * 2.25)).toBe('2.25 GB');
    expect(formatBytes(1024 ** 4)).toBe('1 TB');
    expect(formatBytes(1024 ** 5)).toBe('1 PB');
    expect(formatBytes(1024 ** 6)).toBe('1 EB');
    expect(formatBytes(1024 ** 7)).toBe('1 ZB');
    expect(formatBytes(1024 ** 8)).toBe('1 YB');
    expect(formatBytes(1024 ** 9)).toBe('1024 YB');
  });

  it('honours the number of decimals', () => {
    expect(formatBytes(1100, 0)).toBe('1 KB');
    expect(formatBytes(1100, 3)).toBe('1.074 KB');
  });

  it('keeps the sign and rejects non-numbers', () => {
    expect(formatBytes(-2048)).toBe('-2 KB');
    expect(formatBytes(Number.NaN)).toBe('');
    expect(formatBytes(undefined)).toBe('');
  });
});
