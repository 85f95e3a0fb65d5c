import { describe, expect, it } from 'vitest';
import { parseDurationMs } from './durations.js';

describe('parseDurationMs', () => {
  it('reads Go-style durations', () => {
    expect(parseDurationMs('90s')).toBe(90_000);
    expect(parseDurationMs('1h30m')).toBe(5_400_000);
    expect(parseDurationMs('2d')).toBe(172_800_000);
    expect(parseDurationMs('250ms')).toBe(250);
  });
  it('refuses what it cannot read', () => {
    expect(parseDurationMs('soon')).toBeUndefined();
    expect(parseDurationMs('10 minutes')).toBeUndefined();
    expect(parseDurationMs('')).toBeUndefined();
  });
});
