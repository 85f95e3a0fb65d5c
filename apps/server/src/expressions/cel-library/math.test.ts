import { describe, expect, it } from 'vitest';
import { evaluateCel } from '../cel.js';

describe('CEL math functions', () => {
  it('adds, divides and rounds like the ecosystem', () => {
    expect(evaluateCel('math.Add([1, 2, 3]) == 6', {})).toBe(true);
    expect(evaluateCel('math.Mul([2, 3.5])', {})).toBe(7);
    expect(evaluateCel('math.Sub(10, 4)', {})).toBe(6);
    expect(evaluateCel('math.Div(7, 2)', {})).toBe(3.5);
    expect(evaluateCel('math.Rem(7, 4)', {})).toBe(3);
    expect(evaluateCel('math.Pow(2, 10)', {})).toBe(1024);
    expect(evaluateCel('math.Max([3, 9, 4])', {})).toBe(9);
    expect(evaluateCel('math.Min(values)', { values: [5, 2.5, 8] })).toBe(2.5);
    expect(evaluateCel('math.Ceil(1.2) + math.Floor(1.8) + math.Round(2.5)', {})).toBe(6);
    expect(evaluateCel('math.Abs(-4)', {})).toBe(4);
    expect(evaluateCel('math.Seq(3)', {})).toEqual([1, 2, 3]);
    expect(evaluateCel('math.Seq(5, 1, -2)', {})).toEqual([5, 3, 1]);
    expect(evaluateCel("math.IsInt('12') && math.IsFloat(1.5) && !math.IsNum('x')", {})).toBe(true);
    expect(() => evaluateCel('math.Div(1, 0)', {})).toThrow(/division by zero/);
  });
});
