import { describe, expect, it } from 'vitest';
import { formatLatency, pickLatency } from './latency';

describe('formatLatency', () => {
  it('shows ms below 1000', () => {
    expect(formatLatency(0)).toBe('0ms');
    expect(formatLatency(12.345)).toBe('12.35ms');
    expect(formatLatency(999)).toBe('999ms');
  });

  it('shows s below 60000', () => {
    expect(formatLatency(1000)).toBe('1s');
    expect(formatLatency(1500)).toBe('1.5s');
    expect(formatLatency(59_999)).toBe('60s');
  });

  it('shows minutes below 3600000', () => {
    expect(formatLatency(60_000)).toBe('1m');
    expect(formatLatency(90_000)).toBe('1.5m');
  });

  it('shows hours from 3600000', () => {
    expect(formatLatency(3_600_000)).toBe('1h');
    expect(formatLatency(9_000_000)).toBe('2.5h');
  });

  it('is empty for non-numbers', () => {
    expect(formatLatency(undefined)).toBe('');
    expect(formatLatency(Number.NaN)).toBe('');
  });
});

describe('pickLatency', () => {
  it('uses p95, falling back to p97, then p99', () => {
    expect(pickLatency({ p95: 10, p97: 20, p99: 30 })).toBe(10);
    expect(pickLatency({ p97: 20, p99: 30 })).toBe(20);
    expect(pickLatency({ p95: null, p97: 0, p99: 30 })).toBe(30);
    expect(pickLatency({})).toBeUndefined();
    expect(pickLatency(undefined)).toBeUndefined();
  });
});
