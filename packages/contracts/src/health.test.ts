import { describe, expect, it } from 'vitest';
import {
  checkGraphQuerySchema,
  checkGraphResponseSchema,
  checkStatusesQuerySchema,
  checkStatusesResponseSchema,
  checkSummaryQuerySchema,
  checkSummaryResponseSchema,
  checkSummarySchema,
  runCheckResponseSchema,
} from './health.js';

const measured = {
  id: '6f1c2f9e-0000-4000-8000-000000000001',
  name: 'http/home',
  description: null,
  endpoint: 'https://example.test/',
  canary_name: 'web',
  canary_id: '6f1c2f9e-0000-4000-8000-0000000000c1',
  canary_namespace: 'default',
  owner: null,
  severity: null,
  created_at: '2026-11-27T08:00:00.000Z',
  updated_at: null,
  type: 'http',
  icon: null,
  namespace: 'default',
  labels: { env: 'prod' },
  agent_id: '00000000-0000-0000-0000-000000000000',
  status: 'healthy',
  uptime: { passed: 9, failed: 1 },
  latency: { rolling1h: 12, p95: 30, p97: 31, p99: 40 },
  last_runtime: '2026-11-27T10:00:00.000Z',
  last_transition_time: '2026-11-27T09:00:00.000Z',
  deleted_at: null,
};

describe('checkSummarySchema', () => {
  it('reads a measured check and one that never ran', () => {
    expect(checkSummarySchema.parse(measured)).toEqual(measured);
    const neverRan = {
      ...measured,
      status: null,
      latency: {},
      last_runtime: null,
      last_transition_time: null,
    };
    expect(checkSummarySchema.parse(neverRan)).toEqual(neverRan);
  });

  it('names the field of a check that drifted', () => {
    const result = checkSummaryResponseSchema.safeParse({
      duration: 3,
      runnerName: 'host',
      checks_summary: [measured, { ...measured, status: 'ok' }],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([['checks_summary', 1, 'status']]);
  });

  it('rejects a missing field, a number sent as text and a time that is not ISO', () => {
    const { uptime: _uptime, ...withoutUptime } = measured;
    expect(checkSummarySchema.safeParse(withoutUptime).success).toBe(false);
    expect(checkSummarySchema.safeParse({ ...measured, latency: { p95: '30' } }).success).toBe(false);
    expect(checkSummarySchema.safeParse({ ...measured, last_runtime: 'yesterday' }).success).toBe(false);
  });
});

describe('health API requests', () => {
  const issues = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
    result.error?.issues.map((issue) => [issue.path.join('.'), issue.message]);

  it('reads times in the one grammar without resolving them; empty is absent', () => {
    expect(checkSummaryQuerySchema.parse({ start: '1h', end: '', labels: 'env=prod' })).toEqual({
      start: { kind: 'relative', steps: [{ months: 0, ms: -3_600_000 }] },
      labels: 'env=prod',
    });
    expect(checkSummaryQuerySchema.parse({ end: 1_700_000_000_000 }).end).toEqual({
      kind: 'absolute',
      time: new Date(1_700_000_000_000),
    });
    expect(checkSummaryQuerySchema.parse({ start: 'now-1mo/d' }).start).toEqual({
      kind: 'relative',
      steps: [{ months: -1, ms: 0 }],
      round: 'd',
    });
  });

  it('names the parameter of a value that is not a time, in the message too', () => {
    expect(issues(checkSummaryQuerySchema.safeParse({ start: '1month' }))).toEqual([
      ['start', 'start: "1month" is not a time: unknown unit "month" (use ns, us, ms, s, m, h, d, w, y, mo)'],
    ]);
    expect(issues(checkSummaryQuerySchema.safeParse({ deleteFrom: ['1h', '2h'] }))).toEqual([
      ['deleteFrom', 'deleteFrom: must be a time such as now-1h, 24h or an ISO 8601 time'],
    ]);
    expect(issues(checkSummaryQuerySchema.safeParse({ end: 1e20 }))?.[0]?.[1]).toMatch(
      /^end: .* is out of range/,
    );
  });

  it('reads the graph query: check required, count a whole number from 1 to 10000 (default 300)', () => {
    const check = '6f1c2f9e-0000-4000-8000-000000000001';
    expect(checkGraphQuerySchema.parse({ check }).count).toBe(300);
    expect(checkGraphQuerySchema.parse({ check, count: '12' }).count).toBe(12);
    expect(issues(checkGraphQuerySchema.safeParse({}))).toEqual([['check', 'check is required']]);
    for (const count of ['0', '1.5', 'many', '10001'])
      expect(issues(checkGraphQuerySchema.safeParse({ check, count }))).toEqual([
        ['count', 'count must be a whole number from 1 to 10000'],
      ]);
    expect(issues(checkStatusesQuerySchema.safeParse({ check: 'web' }))).toEqual([
      ['check', 'check must be a check id (a UUID)'],
    ]);
    expect(checkStatusesQuerySchema.parse({ check: '', includeMessages: 'true' })).toEqual({
      includeMessages: true,
    });
  });
});

describe('health API responses', () => {
  it('reads a check with its runs, a graph and a Run Now answer', () => {
    const withRuns = {
      ...measured,
      checkStatuses: [
        { time: '2026-11-27T10:00:00.000Z', duration: 12, status: true },
        { time: '2026-11-27T09:59:00.000Z', duration: null, status: false, message: '', error: 'timeout' },
      ],
    };
    expect(checkStatusesResponseSchema.parse({ checks: [withRuns] })).toEqual({ checks: [withRuns] });
    const graph = {
      bucketSeconds: 60,
      status: [{ time: '2026-11-27T10:00:00.000Z', status: true, duration: 20, passed: 2, failed: 0 }],
      latency: { p95: 30 },
      uptime: { passed: 2, failed: 0 },
    };
    expect(checkGraphResponseSchema.parse(graph)).toEqual(graph);
    expect(runCheckResponseSchema.safeParse({ total: 1, failed: 0, success: 1 }).success).toBe(false);
  });
});
