import { describe, expect, it } from 'vitest';
import { canaryDetailSchema, canaryIdParamsSchema, canaryInputSchema } from './canaries.js';
import { relationRowSchemas } from './rows.js';

const paths = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  result.error?.issues.map((issue) => issue.path.join('.'));

describe('canary editor API', () => {
  it('takes the editor body, with name and namespace left out on a PUT', () => {
    const body = { name: 'web', namespace: 'prod', labels: { team: 'a' }, spec: { http: [] } };
    expect(canaryInputSchema.parse(body)).toEqual(body);
    expect(canaryInputSchema.parse({ labels: null, spec: {} })).toEqual({ labels: null, spec: {} });
  });

  it('names the field of an envelope that is wrong, with its own message', () => {
    const labels = canaryInputSchema.safeParse({ name: 'x', labels: ['a'] });
    expect(paths(labels)).toEqual(['labels']);
    expect(labels.error?.issues[0]?.message).toBe('Labels must be a JSON object');
    expect(paths(canaryInputSchema.safeParse({ labels: { a: 1 } }))).toEqual(['labels.a']);
    expect(canaryInputSchema.safeParse({ spec: 'http: []' }).error?.issues[0]?.message).toBe(
      'Spec must be a YAML object',
    );
    expect(paths(canaryIdParamsSchema.safeParse({ id: 'web' }))).toEqual(['id']);
  });

  it('reads a stored canary and refuses one whose times are not ISO texts', () => {
    const canary = {
      id: '6f1c2f9e-0000-4000-8000-000000000001',
      name: 'web',
      namespace: 'default',
      labels: {},
      spec: { http: [] },
      source: 'UI',
      created_at: '2026-11-27T10:00:00.000Z',
      updated_at: '2026-11-27T10:00:00.000Z',
    };
    expect(canaryDetailSchema.parse(canary)).toEqual(canary);
    expect(paths(canaryDetailSchema.safeParse({ ...canary, created_at: {} }))).toEqual(['created_at']);
  });
});

describe('relationRowSchemas', () => {
  it('reads a canaries_with_status row as the data API sends it (PostgreSQL times)', () => {
    const row = {
      id: '6f1c2f9e-0000-4000-8000-000000000001',
      name: 'web',
      namespace: 'default',
      icon: null,
      schedule: '@every 1m',
      labels: { team: 'ops' },
      spec: {},
      source: 'UI',
      agent_id: '00000000-0000-0000-0000-000000000000',
      created_by: null,
      created_at: '2026-11-27T10:00:00.123456+00:00',
      updated_at: '2026-11-27T10:00:00.123456+00:00',
      deleted_at: null,
      checks: { healthy: 1, unhealthy: 0, unknown: 2 },
      status: 'unknown',
      last_runtime: null,
      interval: '60',
      job_name: 'Canary',
      job_success_count: 1,
      job_error_count: 0,
      job_details: { errors: [] },
      job_hostname: 'opsdeck-1',
      job_duration_millis: 812,
      job_resource_type: 'canary',
      job_status: 'SUCCESS',
      job_time_start: '2026-11-27T10:00:00.123456+00:00',
      job_time_end: '2026-11-27T10:00:01.123456+00:00',
      job_created_at: '2026-11-27T10:00:00.123456+00:00',
      job_last_failed: null,
      agent: { id: '00000000-0000-0000-0000-000000000000', name: 'local' },
    };
    expect(relationRowSchemas.canaries_with_status.parse(row)).toEqual(row);
    expect(paths(relationRowSchemas.canaries_with_status.safeParse({ ...row, status: 'ok' }))).toEqual([
      'status',
    ]);
    expect(paths(relationRowSchemas.canaries_with_status.safeParse({ ...row, job_status: 'done' }))).toEqual([
      'job_status',
    ]);
    // A canary that never ran: every job column null, the agent still named.
    const never = {
      ...row,
      interval: null,
      ...Object.fromEntries(
        Object.keys(row)
          .filter((key) => key.startsWith('job_'))
          .map((key) => [key, null]),
      ),
    };
    expect(relationRowSchemas.canaries_with_status.parse(never)).toEqual(never);
  });

  it('lists each relation under its own name', () => {
    expect(Object.keys(relationRowSchemas)).toEqual(
      expect.arrayContaining([
        'canaries_with_status',
        'check_component_relationships',
        'check_config_relationships',
        'checks',
        'job_histories',
        'job_history_names',
      ]),
    );
  });
});
