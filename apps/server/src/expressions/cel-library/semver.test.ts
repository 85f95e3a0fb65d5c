import { describe, expect, it } from 'vitest';
import { evaluateCel } from '../cel.js';
import { semverSatisfies } from './semver.js';

describe('CEL SemverCompare', () => {
  it('checks a version against a constraint', () => {
    expect(evaluateCel("SemverCompare('1.2.3', '>=1.2.0')", {})).toBe(true);
    expect(evaluateCel("SemverCompare('v2.0.0', '<2.0.0')", {})).toBe(false);
    expect(semverSatisfies('1.4.7', '~1.4')).toBe(true);
    expect(semverSatisfies('1.5.0', '~1.4')).toBe(false);
    expect(semverSatisfies('1.9.0', '^1.2.3')).toBe(true);
    expect(semverSatisfies('2.0.0', '^1.2.3')).toBe(false);
    expect(semverSatisfies('1.3.0', '1.x')).toBe(true);
    expect(semverSatisfies('1.0.0-rc.1', '<1.0.0')).toBe(true);
    expect(semverSatisfies('3.1.0', '<2 || >=3')).toBe(true);
    expect(semverSatisfies('1.5.0', '>= 1.2, < 1.4')).toBe(false);
    expect(() => evaluateCel("SemverCompare('banana', '>1')", {})).toThrow(/invalid semantic version/);
  });
});
