import { describe, expect, it } from 'vitest';
import {
  initialValue,
  NUMBER_MESSAGE,
  parameterProblem,
  REQUIRED_MESSAGE,
  requestParams,
  splitBytes,
} from './parameters';

describe('parameterProblem (settings §5)', () => {
  it('requires a required value, not a checkbox', () => {
    expect(parameterProblem({ name: 'a', required: true }, '')).toBe(REQUIRED_MESSAGE);
    expect(parameterProblem({ name: 'a', required: true, type: 'checkbox' }, false)).toBeUndefined();
    expect(parameterProblem({ name: 'a' }, '')).toBeUndefined();
  });

  it('applies lengths, bounds, the regex and dns1123', () => {
    const p = (properties: Record<string, unknown>) => ({ name: 'a', properties });
    expect(parameterProblem(p({ minLength: 3 }), 'ab')).toBe('must be at least 3 characters');
    expect(parameterProblem(p({ maxLength: 2 }), 'abc')).toBe('must be at most 2 characters');
    expect(parameterProblem(p({ min: 2 }), '1')).toBe('must be at least 2');
    expect(parameterProblem(p({ max: 2 }), '3')).toBe('must be at most 2');
    expect(parameterProblem(p({ max: 2 }), 'x')).toBe(NUMBER_MESSAGE);
    expect(parameterProblem(p({ regex: '[a-z]+' }), 'A1')).toBe('must match [a-z]+');
    expect(parameterProblem(p({ format: 'dns1123' }), 'web-1.prod')).toBeUndefined();
    expect(parameterProblem(p({ format: 'dns1123' }), '-web')).toMatch(/lowercase alphanumerics/);
    expect(parameterProblem(p({ format: 'bytes' }), '12x')).toBe(NUMBER_MESSAGE);
  });
});

describe('bytes and millicores', () => {
  it('sends bytes with their unit (default Mi) and millicores with m', () => {
    const parameters = [
      { name: 'memory', properties: { format: 'bytes' } },
      { name: 'cpu', properties: { format: 'millicores' } },
      { name: 'note' },
    ];
    expect(requestParams(parameters, { memory: '2', cpu: '250', note: '' }, { memory: 'Gi' })).toEqual({
      memory: '2Gi',
      cpu: '250m',
    });
    expect(splitBytes('512Mi')).toEqual({ number: '512', unit: 'Mi' });
    expect(splitBytes('3')).toEqual({ number: '3', unit: 'Mi' });
    expect(initialValue({ name: 'cpu', default: '500m', properties: { format: 'millicores' } })).toBe('500');
    expect(initialValue({ name: 'on', type: 'checkbox', default: 'true' })).toBe(true);
  });
});
