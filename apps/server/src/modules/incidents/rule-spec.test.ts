import { describe, expect, it } from 'vitest';
import { parseIncidentRule, parseRuleDuration, sortRules } from './rule-spec.js';
import { matchesLabelSelector, matchesSelector, matchesValueList } from './selectors.js';

const row = (spec: unknown, name = 'rule') => ({ id: `id-${name}`, name, namespace: 'default', spec });

describe('parseIncidentRule', () => {
  it('reads the ecosystem shape with defaults', () => {
    const rule = parseIncidentRule(
      row({
        priority: 2,
        breakOnMatch: true,
        filter: { status: 'unhealthy', severity: ['high', 'critical'], age: '1h30m' },
        checks: [{ name: 'api-*', types: 'http' }],
        template: { title: 'API down', severity: 'Low', type: 'technical_debt' },
        autoResolve: { timeout: '10m' },
      }),
    );
    expect(rule).toMatchObject({
      priority: 2,
      breakOnMatch: true,
      filter: { status: ['unhealthy'], severity: ['high', 'critical'], ageMs: 5_400_000 },
      checks: [{ name: 'api-*', types: ['http'] }],
      template: { title: 'API down', severity: 'low', type: 'technicalDebt', status: 'open' },
      autoResolveMs: 600_000,
      autoCloseMs: null,
    });
    expect(parseIncidentRule(row({})).template).toEqual({
      severity: 'low',
      type: 'availability',
      status: 'open',
    });
    expect(() => parseIncidentRule(row({ priority: 'high' }))).toThrow(/spec\.priority/);
    expect(() => parseIncidentRule(row({ filter: { age: 'soon' } }))).toThrow(/not a duration/);
  });

  it('orders rules by priority, then name', () => {
    const rules = [row({ priority: 3 }, 'c'), row({ priority: 1 }, 'b'), row({ priority: 1 }, 'a')].map(
      parseIncidentRule,
    );
    expect(sortRules(rules).map((rule) => rule.name)).toEqual(['a', 'b', 'c']);
  });

  it('parses durations with days, weeks and Go nanoseconds', () => {
    expect(parseRuleDuration('2d')).toBe(172_800_000);
    expect(parseRuleDuration('1w')).toBe(604_800_000);
    expect(parseRuleDuration('250ms')).toBe(250);
    expect(parseRuleDuration(3_000_000_000)).toBe(3000);
    expect(parseRuleDuration('')).toBe(0);
  });
});

describe('selectors', () => {
  it('matches value lists with globs and exclusions', () => {
    expect(matchesValueList(['http,tcp'], 'tcp')).toBe(true);
    expect(matchesValueList(['!dns'], 'http')).toBe(true);
    expect(matchesValueList(['!dns'], 'dns')).toBe(false);
    expect(matchesValueList(['pay-*', '!pay-db'], 'pay-db')).toBe(false);
    expect(matchesValueList(['pay-*'], 'checkout')).toBe(false);
  });

  it('matches Kubernetes label selectors', () => {
    const labels = { env: 'prod', tier: '1' };
    expect(matchesLabelSelector('env=prod,tier in (1,2)', labels)).toBe(true);
    expect(matchesLabelSelector('env==prod,tier notin (1)', labels)).toBe(false);
    expect(matchesLabelSelector('env!=dev,tier', labels)).toBe(true);
    expect(matchesLabelSelector('!team', labels)).toBe(true);
    expect(matchesLabelSelector('team', labels)).toBe(false);
  });

  it('matches a resource on every field the selector names', () => {
    const check = {
      id: 'c1',
      name: 'API Health',
      namespace: 'prod',
      type: 'http',
      labels: { env: 'prod' },
      fields: { status: 'unhealthy' },
    };
    expect(matchesSelector({ namespace: 'prod', types: ['http'], labelSelector: 'env=prod' }, check)).toBe(
      true,
    );
    expect(matchesSelector({ search: 'health' }, check)).toBe(true);
    expect(matchesSelector({ fieldSelector: 'status=unhealthy' }, check)).toBe(true);
    expect(matchesSelector({ fieldSelector: 'status=healthy' }, check)).toBe(false);
    expect(matchesSelector({ id: 'c2' }, check)).toBe(false);
  });
});
