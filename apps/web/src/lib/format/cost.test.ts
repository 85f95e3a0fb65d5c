import { describe, expect, it } from 'vitest';
import { formatCost } from './cost';

describe('formatCost', () => {
  it('formats dollars, sub-dollar amounts and large totals', () => {
    expect(formatCost(1234.5)).toBe('$1,234.50');
    expect(formatCost(0)).toBe('$0.00');
    expect(formatCost(0.0125)).toBe('$0.0125');
    expect(formatCost(0.5)).toBe('$0.50');
    expect(formatCost('42.1000')).toBe('$42.10');
    expect(formatCost(2_500_000)).toBe('$2.5M');
    expect(formatCost(-3)).toBe('-$3.00');
  });

  it('leaves absent and non-numeric values empty', () => {
    expect(formatCost(null)).toBe('');
    expect(formatCost(undefined)).toBe('');
    expect(formatCost('')).toBe('');
    expect(formatCost('n/a')).toBe('');
  });
});
