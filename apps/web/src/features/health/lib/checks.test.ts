import { describe, expect, it, vi } from 'vitest';
import {
  defaultTimeRangeForLastRun,
  DURATION_ERROR,
  filterChecks,
  groupChecks,
  parseDurationFilter,
  parseLabelFilter,
  sortRows,
  tabsFor,
  type CheckSummary,
} from './checks';
import { makeCheckSummary } from '../testing/check-summary';

const check = (over: Partial<CheckSummary> & { id: string; name: string }): CheckSummary =>
  makeCheckSummary(over);

const checks: CheckSummary[] = [
  check({
    id: '1',
    name: 'http/home',
    canary_name: 'web',
    endpoint: 'https://Example.com',
    uptime: { passed: 9, failed: 1 },
  }),
  check({
    id: '2',
    name: 'http/api',
    canary_name: 'web',
    status: 'unhealthy',
    labels: { env: 'prod' },
    namespace: 'ops',
  }),
  check({
    id: '3',
    name: 'closed-port',
    canary_name: 'scripts',
    description: 'A Port',
    labels: { env: 'dev' },
  }),
];

describe('filterChecks', () => {
  it('hides passing checks when asked', () => {
    const result = filterChecks(checks, { query: '', labels: {}, hidePassing: true });
    expect(result.map((c) => c.id)).toEqual(['2']);
  });
  it('searches description, canary_name, endpoint and name partially and case-insensitively', () => {
    const ids = (query: string) =>
      filterChecks(checks, { query, labels: {}, hidePassing: false }).map((c) => c.id);
    expect(ids('example')).toEqual(['1']);
    expect(ids('SCRIPT')).toEqual(['3']);
    expect(ids('port')).toEqual(['3']);
    expect(ids('HTTP/')).toEqual(['1', '2']);
  });
  it('includes and excludes label pairs', () => {
    const ids = (raw: string) =>
      filterChecks(checks, { query: '', labels: parseLabelFilter(raw), hidePassing: false }).map((c) => c.id);
    expect(ids('{"env=prod":1}')).toEqual(['2']);
    expect(ids('{"env=prod":-1}')).toEqual(['1', '3']);
  });
});

describe('parseLabelFilter', () => {
  it('logs and ignores invalid JSON', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(parseLabelFilter('{nope')).toEqual({});
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
  it('keeps only 1 and -1', () => {
    expect(parseLabelFilter('{"a=b":1,"c=d":2,"e=f":-1}')).toEqual({ 'a=b': 1, 'e=f': -1 });
  });
});

describe('groupChecks', () => {
  it('groups by canary_name and shows single-member groups as checks', () => {
    const rows = groupChecks(checks, 'canary_name');
    expect(rows.map((r) => (r.kind === 'group' ? `g:${r.name}:${r.checks.length}` : r.id))).toEqual([
      'g:web:2',
      '3',
    ]);
  });
  it('groups by the name prefix before /', () => {
    const rows = groupChecks(checks, 'name');
    expect(rows.map((r) => (r.kind === 'group' ? `g:${r.name}` : r.id))).toEqual(['g:http', '3']);
  });
  it('does not group with no-group and groups by a label key', () => {
    expect(groupChecks(checks, 'no-group').every((r) => r.kind === 'check')).toBe(true);
    const more = [...checks, check({ id: '4', name: 'db', labels: { env: 'prod' } })];
    expect(groupChecks(more, 'env').map((r) => r.id)).toEqual(['1', 'group:prod', '3']);
  });
});

describe('sortRows', () => {
  it('sorts by name both ways, inside groups too', () => {
    const rows = sortRows(groupChecks(checks, 'canary_name'), 'name', false);
    expect(rows.map((r) => r.id)).toEqual(['3', 'group:web']);
    const group = rows[1];
    expect(group?.kind === 'group' && group.checks.map((c) => c.name)).toEqual(['http/api', 'http/home']);
    expect(sortRows(groupChecks(checks, 'no-group'), 'name', true).map((r) => r.id)).toEqual(['1', '2', '3']);
  });
  it('sorts by health with unhealthy first ascending', () => {
    expect(sortRows(groupChecks(checks, 'no-group'), 'health', false)[0]?.id).toBe('2');
  });
});

describe('tabsFor', () => {
  it('puts All first and the rest alphabetically', () => {
    expect(tabsFor(checks, 'namespace')).toEqual(['All', 'default', 'ops']);
    expect(tabsFor(checks, 'env')).toEqual(['All', 'dev', 'prod']);
  });
});

describe('defaultTimeRangeForLastRun', () => {
  const now = Date.parse('2026-01-10T00:00:00Z');
  it('picks the smallest range covering the last run', () => {
    expect(defaultTimeRangeForLastRun('2026-01-09T23:30:00Z', now)).toBe('1h');
    expect(defaultTimeRangeForLastRun('2026-01-09T22:00:00Z', now)).toBe('3h');
    expect(defaultTimeRangeForLastRun('2026-01-08T12:00:00Z', now)).toBe('2d');
    expect(defaultTimeRangeForLastRun('2020-01-01T00:00:00Z', now)).toBe('5y');
    expect(defaultTimeRangeForLastRun(null, now)).toBe('1h');
  });
});

describe('parseDurationFilter', () => {
  it('accepts ms and s, converting seconds', () => {
    expect(parseDurationFilter('All')).toEqual({});
    expect(parseDurationFilter('500ms')).toEqual({ ms: 500 });
    expect(parseDurationFilter('5s')).toEqual({ ms: 5000 });
  });
  it('rejects other formats', () => {
    expect(parseDurationFilter('5m')).toEqual({ error: DURATION_ERROR });
    expect(parseDurationFilter('abc')).toEqual({ error: DURATION_ERROR });
  });
});
