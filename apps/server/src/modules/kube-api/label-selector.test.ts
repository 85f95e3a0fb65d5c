import { describe, expect, it } from 'vitest';
import { LabelSelectorError, matchesLabels, parseLabelSelector } from './label-selector.js';

const matches = (selector: string, labels: Record<string, string>) =>
  matchesLabels(parseLabelSelector(selector), labels);

describe('label selectors', () => {
  it('matches equality, inequality, sets and existence, all of them at once', () => {
    const labels = { team: 'payments', tier: 'web' };
    expect(matches('team=payments', labels)).toBe(true);
    expect(matches('team==payments,tier=web', labels)).toBe(true);
    expect(matches('team!=payments', labels)).toBe(false);
    expect(matches('env!=prod', labels)).toBe(true);
    expect(matches('tier in (web, api)', labels)).toBe(true);
    expect(matches('tier notin (web)', labels)).toBe(false);
    expect(matches('team,!env', labels)).toBe(true);
    expect(matches('env', labels)).toBe(false);
    expect(matches('', labels)).toBe(true);
    expect(matches('example.com/owner=a', { 'example.com/owner': 'a' })).toBe(true);
  });

  it('refuses a key that is not a label key', () => {
    expect(() => parseLabelSelector('bad key=1')).toThrow(LabelSelectorError);
  });
});
