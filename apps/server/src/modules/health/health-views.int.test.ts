import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import {
  createCanary,
  createCheck,
  createCheckStatus,
  createConfigItem,
} from '../../../test/harness/factories.js';
import {
  bearer,
  buildAuthTestApp,
  createTestPerson,
  createTestToken,
} from '../auth/test-fixtures/auth-test-app.js';

let db: TestDatabase;
let app: FastifyInstance;
let token: string;

beforeAll(async () => {
  db = await createTestDatabase();
  ({ app } = await buildAuthTestApp(db.pool));
  await app.ready();
  const viewer = await createTestPerson(db.pool, { roles: ['viewer'] });
  token = await createTestToken(db.pool, viewer.id);
});

afterAll(async () => {
  await app?.close();
  await db?.close();
});

async function get<T>(path: string): Promise<T> {
  const response = await app.inject({ method: 'GET', url: `/api/db/${path}`, headers: bearer(token) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as T;
}

describe('health views of the data API', () => {
  it('checks_labels_keys lists each label key of live checks once', async () => {
    const canary = await createCanary(db.pool);
    await createCheck(db.pool, { canary_id: canary.id, labels: { team: 'a', region: 'eu' } });
    await createCheck(db.pool, { canary_id: canary.id, labels: { team: 'b' } });
    await createCheck(db.pool, { canary_id: canary.id, labels: { gone: 'x' }, deleted_at: new Date() });
    const keys = (await get<{ key: string }[]>('checks_labels_keys?order=key')).map((row) => row.key);
    expect(keys).toEqual(expect.arrayContaining(['region', 'team']));
    expect(keys).not.toContain('gone');
    expect(keys.filter((key) => key === 'team')).toHaveLength(1);
  });

  it('checks_by_component and check_summary_for_config give a linked item its checks with uptime', async () => {
    const canary = await createCanary(db.pool);
    const passing = await createCheck(db.pool, { canary_id: canary.id, name: 'linked-passing' });
    const failing = await createCheck(db.pool, {
      canary_id: canary.id,
      name: 'linked-failing',
      status: 'unhealthy',
    });
    const config = await createConfigItem(db.pool);
    const {
      rows: [component],
    } = await db.pool.query<{ id: string }>(
      `INSERT INTO components (name, type) VALUES ('api', 'Service') RETURNING id`,
    );
    for (const check of [passing, failing]) {
      await db.pool.query(
        'INSERT INTO check_config_relationships (config_id, check_id, canary_id) VALUES ($1, $2, $3)',
        [config.id, check.id, canary.id],
      );
    }
    await db.pool.query(
      'INSERT INTO check_component_relationships (component_id, check_id, canary_id) VALUES ($1, $2, $3)',
      [component.id, passing.id, canary.id],
    );
    await createCheckStatus(db.pool, passing.id as string, {
      status: true,
      duration: 10,
      time: new Date(Date.now() - 120_000),
    });
    await createCheckStatus(db.pool, passing.id as string, {
      status: true,
      duration: 30,
      time: new Date(Date.now() - 60_000),
    });
    await createCheckStatus(db.pool, failing.id as string, { status: false, duration: 5 });
    // Older than a day: not in the summary's uptime.
    await createCheckStatus(db.pool, failing.id as string, {
      status: true,
      time: new Date(Date.now() - 2 * 86_400_000),
    });

    const byComponent = await get<{ id: string; name: string }[]>(
      `checks_by_component?component_id=eq.${component.id}&select=id,name`,
    );
    expect(byComponent).toEqual([{ id: passing.id, name: 'linked-passing' }]);

    const summary = await get<
      { name: string; status: string; uptime: { passed: number; failed: number }; latency: { p95: number } }[]
    >(`check_summary_for_config?config_id=eq.${config.id}&order=name`);
    expect(summary.map((row) => [row.name, row.status, row.uptime])).toEqual([
      ['linked-failing', 'unhealthy', { passed: 0, failed: 1 }],
      ['linked-passing', 'healthy', { passed: 2, failed: 0 }],
    ]);
    expect(summary[1].latency.p95).toBeCloseTo(29, 0);

    // A deleted check drops out of both.
    await db.pool.query('UPDATE checks SET deleted_at = now() WHERE id = $1', [passing.id]);
    expect(await get(`checks_by_component?component_id=eq.${component.id}`)).toEqual([]);
    expect(await get<unknown[]>(`check_summary_for_config?config_id=eq.${config.id}`)).toHaveLength(1);
  });

  it('canaries_with_status rolls up its checks: any unhealthy, all healthy, or unknown', async () => {
    const bad = await createCanary(db.pool, { name: 'rollup-bad' });
    await createCheck(db.pool, { canary_id: bad.id, status: 'healthy' });
    await createCheck(db.pool, { canary_id: bad.id, status: 'unhealthy' });
    const good = await createCanary(db.pool, { name: 'rollup-good' });
    await createCheck(db.pool, { canary_id: good.id, status: 'healthy' });
    const fresh = await createCanary(db.pool, { name: 'rollup-fresh' });
    await createCheck(db.pool, { canary_id: fresh.id, status: null });
    const rows = await get<{ name: string; status: string; checks: Record<string, number> }[]>(
      'canaries_with_status?name=like.rollup-*&select=name,status,checks&order=name',
    );
    expect(rows).toEqual([
      { name: 'rollup-bad', status: 'unhealthy', checks: { healthy: 1, unhealthy: 1, unknown: 0 } },
      { name: 'rollup-fresh', status: 'unknown', checks: { healthy: 0, unhealthy: 0, unknown: 1 } },
      { name: 'rollup-good', status: 'healthy', checks: { healthy: 1, unhealthy: 0, unknown: 0 } },
    ]);
  });
});
