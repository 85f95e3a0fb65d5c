import { describe, expect, it } from 'vitest';
import { evaluateCel } from '../cel.js';

describe('CEL Kubernetes quantity helpers', () => {
  it('reads CPU and memory quantities', () => {
    expect(evaluateCel("k8s.cpuAsMillicores('250m')", {})).toBe(250);
    expect(evaluateCel("k8s.cpuAsMillicores('2')", {})).toBe(2000);
    expect(evaluateCel("k8s.memoryAsBytes('1Gi')", {})).toBe(1_073_741_824);
    expect(evaluateCel("k8s.memoryAsBytes('500M')", {})).toBe(500_000_000);
    expect(() => evaluateCel("k8s.memoryAsBytes('lots')", {})).toThrow(/invalid quantity/);
  });
});
