import { describe, expect, it } from 'vitest';
import { checkSummaryResponseSchema, checkSummarySchema } from './health.js';

const measured = {
  id: '6f1c2f9e-0000-4000-8000-000000000001',
  name: 'http/home',
  description: null,
  endpoint: 'https://example.test/',
  canary_name: 'web',
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
