import { describe, expect, it } from 'vitest';
import { evaluateCel } from '../cel.js';

describe('CEL JSON, YAML and base64 functions', () => {
  it('reads and writes YAML and JSON', () => {
    expect(evaluateCel("YAML('a: 1\\nb: [x, y]').b[1]", {})).toBe('y');
    expect(evaluateCel("'k: v'.YAML().k", {})).toBe('v');
    expect(evaluateCel("toYAML({'a': 1})", {})).toBe('a: 1\n');
    expect(evaluateCel("data.ToYAML(['x'])", {})).toBe('- x\n');
    expect(evaluateCel('data.JSON(\'{"n": 2}\').n + 1', {})).toBe(3);
    expect(evaluateCel("data.ToJSON({'n': [1]})", {})).toBe('{"n":[1]}');
    expect(evaluateCel('\'{"a": true}\'.JSON().a', {})).toBe(true);
    expect(evaluateCel("base64.Decode(base64.Encode('hi there'))", {})).toBe('hi there');
    expect(evaluateCel("base64.encode('hi')", {})).toBe('aGk=');
    expect(() => evaluateCel("YAML('a: [')", {})).toThrow();
  });
});
