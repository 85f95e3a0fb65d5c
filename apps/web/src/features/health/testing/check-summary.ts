import type { CheckSummary } from '@opsdeck/contracts';

/**
 * A check of the health summary for tests: a passing HTTP check of the `demo` canary with no
 * runs, labels or latency, with `over` on top.
 */
export const makeCheckSummary = (over: Partial<CheckSummary> & Pick<CheckSummary, 'id'>): CheckSummary => ({
  name: over.id,
  description: null,
  endpoint: null,
  canary_name: 'demo',
  type: 'http',
  icon: null,
  namespace: 'default',
  labels: {},
  agent_id: '00000000-0000-0000-0000-000000000000',
  canary_id: '00000000-0000-0000-0000-0000000000ca',
  canary_namespace: 'default',
  owner: null,
  severity: null,
  created_at: '2026-01-01T00:00:00.000Z',
  status: 'healthy',
  uptime: { passed: 0, failed: 0 },
  latency: {},
  last_runtime: null,
  last_transition_time: null,
  deleted_at: null,
  updated_at: null,
  ...over,
});
