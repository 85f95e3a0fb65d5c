import { describe, expect, it } from 'vitest';
import { claimTiming, DEFAULT_CLAIM_LEASE_MS } from './support.js';

describe('claimTiming', () => {
  it('defaults to a 30 s lease renewed every third of it', () => {
    expect(DEFAULT_CLAIM_LEASE_MS).toBe(30_000);
    expect(claimTiming(undefined, undefined)).toEqual({ leaseMs: 30_000, renewIntervalMs: 10_000 });
    expect(claimTiming(900, undefined)).toEqual({ leaseMs: 900, renewIntervalMs: 300 });
    expect(claimTiming(900, 100)).toEqual({ leaseMs: 900, renewIntervalMs: 100 });
  });

  it('refuses a renewal that would not come before the lease ends, and non-positive values', () => {
    expect(() => claimTiming(1000, 1000)).toThrow(
      'renewIntervalMs (1000) must be shorter than leaseMs (1000)',
    );
    expect(() => claimTiming(undefined, 45_000)).toThrow('must be shorter than leaseMs (30000)');
    expect(() => claimTiming(0, undefined)).toThrow('leaseMs must be a positive number');
    expect(() => claimTiming(1000, -1)).toThrow('renewIntervalMs must be a positive number');
  });
});
