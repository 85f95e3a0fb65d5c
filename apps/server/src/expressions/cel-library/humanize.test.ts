import { describe, expect, it } from 'vitest';
import { evaluateCel } from '../cel.js';

describe('CEL HumanSize', () => {
  it('writes byte counts in binary units', () => {
    expect(evaluateCel('HumanSize(512)', {})).toBe('512');
    expect(evaluateCel('HumanSize(1536)', {})).toBe('1.5K');
    expect(evaluateCel('HumanSize(10485760)', {})).toBe('10M');
    expect(evaluateCel('HumanSize(size)', { size: 3 * 1024 ** 3 })).toBe('3G');
    expect(() => evaluateCel("HumanSize('lots')", {})).toThrow(/expected a number/);
  });
});
