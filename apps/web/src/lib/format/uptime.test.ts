import { describe, expect, it } from 'vitest';
import { formatUptime, groupUptime, uptimePercent } from './uptime';

describe('uptime', () => {
  it('is passed / (passed + failed) × 100', () => {
    expect(uptimePercent({ passed: 3, failed: 1 })).toBe(75);
    expect(uptimePercent({ passed: 0, failed: 0 })).toBeNaN();
  });

  it('formats 2 decimals for the check panel and 1 for the health table', () => {
    expect(formatUptime({ passed: 2, failed: 1 }, 2)).toBe('66.67%');
    expect(formatUptime({ passed: 2, failed: 1 }, 1)).toBe('66.7%');
    expect(formatUptime({ passed: 2, failed: 1 })).toBe('66.7%');
    expect(formatUptime({ passed: 5, failed: 0 }, 2)).toBe('100.00%');
  });

  it("shows '-' when it is not a number", () => {
    expect(formatUptime({ passed: 0, failed: 0 })).toBe('-');
    expect(formatUptime(undefined, 2)).toBe('-');
    expect(formatUptime({ passed: null, failed: null })).toBe('-');
  });

  it('counts fully passing checks over the total for a group', () => {
    const group = groupUptime([
      { passed: 10, failed: 0 },
      { passed: 9, failed: 1 },
      { passed: 0, failed: 0 },
      { passed: 4, failed: 0 },
    ]);
    expect(group).toEqual({ passed: 2, failed: 2 });
    expect(formatUptime(group)).toBe('50.0%');
  });
});
