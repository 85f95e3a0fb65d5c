import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheck, createCheckStatus } from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { createHealthService } from './health-service.js';
import { applyCheckStatusRetention, checkStatusRetentionDays, rollupCheckStatuses } from './rollups.js';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.close();
});

const HOUR = 3_600_000;

function hourStart(time: number): number {
  return Math.floor(time / HOUR) * HOUR;
}

async function rollupRows(table: 'check_statuses_1h' | 'check_statuses_1d', checkId: string) {
  const { rows } = await db.pool.query(
    `SELECT created_at, total, passed, failed, duration, duration_sum, duration_min, duration_max,
            duration_p95, duration_p97, duration_p99
     FROM ${table} WHERE check_id = $1 ORDER BY created_at`,
    [checkId],
  );
  return rows;
}

describe('rollups', () => {
  it('rolls raw statuses up per hour and day, the same rows however often it runs', async () => {
    const check = await createCheck(db.pool);
    const base = hourStart(Date.now()) - 3 * HOUR;
    // Hour 1: 10, 20, 30 (one failure); hour 2: 100, 200.
    await createCheckStatus(db.pool, check.id, { time: new Date(base + 60_000), duration: 10 });
    await createCheckStatus(db.pool, check.id, {
      time: new Date(base + 120_000),
      duration: 20,
      status: false,
    });
    await createCheckStatus(db.pool, check.id, { time: new Date(base + 180_000), duration: 30 });
    await createCheckStatus(db.pool, check.id, { time: new Date(base + HOUR + 60_000), duration: 100 });
    await createCheckStatus(db.pool, check.id, { time: new Date(base + HOUR + 120_000), duration: 200 });

    await rollupCheckStatuses(db.pool, '1h');
    const first = await rollupRows('check_statuses_1h', check.id);
    expect(first).toEqual([
      {
        created_at: new Date(base),
        total: 3,
        passed: 2,
        failed: 1,
        duration: 20,
        duration_sum: 60,
        duration_min: 10,
        duration_max: 30,
        duration_p95: 29,
        duration_p97: 29,
        duration_p99: 30,
      },
      {
        created_at: new Date(base + HOUR),
        total: 2,
        passed: 2,
        failed: 0,
        duration: 150,
        duration_sum: 300,
        duration_min: 100,
        duration_max: 200,
        duration_p95: 195,
        duration_p97: 197,
        duration_p99: 199,
      },
    ]);
    await rollupCheckStatuses(db.pool, '1h');
    await rollupCheckStatuses(db.pool, '1h');
    expect(await rollupRows('check_statuses_1h', check.id)).toEqual(first);

    // A status arriving in the latest bucket updates it on the next run.
    await createCheckStatus(db.pool, check.id, {
      time: new Date(base + HOUR + 180_000),
      duration: 300,
      status: false,
    });
    await rollupCheckStatuses(db.pool, '1h');
    const second = await rollupRows('check_statuses_1h', check.id);
    expect(second[0]).toEqual(first[0]);
    expect(second[1]).toMatchObject({ total: 3, passed: 2, failed: 1, duration_sum: 600, duration_max: 300 });

    await rollupCheckStatuses(db.pool, '1d');
    await rollupCheckStatuses(db.pool, '1d');
    const daily = await rollupRows('check_statuses_1d', check.id);
    const totals = daily.reduce(
      (sum: { total: number; failed: number; duration_sum: number }, row: Record<string, number>) => ({
        total: sum.total + row.total,
        failed: sum.failed + row.failed,
        duration_sum: sum.duration_sum + row.duration_sum,
      }),
      { total: 0, failed: 0, duration_sum: 0 },
    );
    expect(totals).toEqual({ total: 6, failed: 2, duration_sum: 660 });
  });

  it('deletes raw statuses past retention after rolling them up, and the summary still counts them', async () => {
    const check = await createCheck(db.pool);
    // Both old statuses in one UTC day, whatever the time of day now (one minute apart, they
    // could straddle midnight).
    const old = new Date(Math.floor(Date.now() / (24 * HOUR)) * 24 * HOUR - 40 * 24 * HOUR + HOUR);
    await createCheckStatus(db.pool, check.id, { time: old, duration: 50, status: false });
    await createCheckStatus(db.pool, check.id, { time: new Date(old.getTime() + 60_000), duration: 70 });
    await createCheckStatus(db.pool, check.id, { time: new Date(Date.now() - 60_000), duration: 5 });

    const removed = await applyCheckStatusRetention(db.pool, 30);
    expect(removed.statuses).toBeGreaterThanOrEqual(2);
    const raw = await db.pool.query('SELECT duration FROM check_statuses WHERE check_id = $1', [check.id]);
    expect(raw.rows).toEqual([{ duration: 5 }]);
    const daily = await rollupRows('check_statuses_1d', check.id);
    expect(daily.find((row) => row.total === 2)).toMatchObject({ passed: 1, failed: 1, duration_sum: 120 });

    const service = createHealthService({
      pool: db.pool,
      jobs: { startJob: () => Promise.reject(new Error('not used')) },
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      retentionDays: 30,
    });
    const [summary] = await service.summary({
      start: new Date(Date.now() - 60 * 24 * HOUR),
      end: new Date(),
      checkIds: [check.id],
    });
    expect(summary.uptime).toEqual({ passed: 2, failed: 1 });
    // Percentiles come from the raw part when it has rows.
    expect(summary.latency.p95).toBe(5);
  });

  it('reads CHECK_STATUS_RETENTION_DAYS', () => {
    expect(checkStatusRetentionDays({})).toBe(30);
    expect(checkStatusRetentionDays({ CHECK_STATUS_RETENTION_DAYS: '7' })).toBe(7);
    expect(() => checkStatusRetentionDays({ CHECK_STATUS_RETENTION_DAYS: 'soon' })).toThrow(RangeError);
  });
});
