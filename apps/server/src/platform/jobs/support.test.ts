import { describe, expect, it } from 'vitest';
import { Batcher, claimTiming, DEFAULT_CLAIM_LEASE_MS } from './support.js';

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

describe('Batcher', () => {
  it('flushes items added together in one call and answers each its own result', async () => {
    const flushes: number[][] = [];
    const batcher = new Batcher<number, number>(async (items) => {
      flushes.push(items);
      return items.map((item) => item * 10);
    });
    const first = await Promise.all([batcher.add(1), batcher.add(2), batcher.add(3)]);
    const second = await batcher.add(4);
    expect(first).toEqual([10, 20, 30]);
    expect(second).toBe(40);
    expect(flushes).toEqual([[1, 2, 3], [4]]);
  });

  it('rejects every item of a failed flush, and only those', async () => {
    let calls = 0;
    const batcher = new Batcher<string, string>(async (items) => {
      calls += 1;
      if (calls === 1) throw new Error('down');
      return items;
    });
    const failed = await Promise.allSettled([batcher.add('a'), batcher.add('b')]);
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(await batcher.add('c')).toBe('c');
  });

  it('flushes at maxItems without waiting for the delay', async () => {
    const flushes: number[][] = [];
    const batcher = new Batcher<number, number>(
      async (items) => {
        flushes.push(items);
        return items;
      },
      { delayMs: 60_000, maxItems: 2 },
    );
    expect(await Promise.all([batcher.add(1), batcher.add(2)])).toEqual([1, 2]);
    expect(flushes).toEqual([[1, 2]]);
  });
});
