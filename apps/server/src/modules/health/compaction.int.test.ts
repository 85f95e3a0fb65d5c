import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheck, createCheckStatus } from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { compactCheckStatuses, compactionCutoff } from './compaction.js';
import { createHealthService, type HealthService } from './health-service.js';
import { applyCheckStatusRetention, rollupCheckStatuses } from './rollups.js';

let db: TestDatabase;
let service: HealthService;

beforeAll(async () => {
  db = await createTestDatabase();
  service = createHealthService({
    pool: db.pool,
    jobs: { startJob: () => Promise.reject(new Error('not used')) },
    logger: { debug() {}, info() {}, warn() {}, error() {} },
    retentionDays: 30,
  });
});

afterAll(async () => {
  await db?.close();
});

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

interface Status {
  time: Date;
  duration: number | null;
  status: boolean;
  message: string | null;
  error: string | null;
  details: unknown;
}

async function statusesOf(checkId: string): Promise<Status[]> {
  const { rows } = await db.pool.query<Status>(
    `SELECT time, duration, status, message, error, details FROM check_statuses
     WHERE check_id = $1 ORDER BY time`,
    [checkId],
  );
  return rows;
}

async function tiers(checkId: string): Promise<{ recent: number; blocks: number; packed: number }> {
  const { rows } = await db.pool.query<{ recent: number; blocks: number; packed: number }>(
    `SELECT (SELECT count(*)::int FROM check_statuses_recent WHERE check_id = $1) AS recent,
            (SELECT count(*)::int FROM check_status_blocks WHERE check_id = $1) AS blocks,
            (SELECT coalesce(sum(total), 0)::int FROM check_status_blocks WHERE check_id = $1) AS packed`,
    [checkId],
  );
  return rows[0];
}

async function insertStatus(checkId: string, status: Omit<Status, 'details'> & { details?: unknown }) {
  await db.pool.query(
    `INSERT INTO check_statuses (check_id, time, duration, status, message, error, details)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      checkId,
      status.time,
      status.duration,
      status.status,
      status.message,
      status.error,
      status.details === undefined ? null : JSON.stringify(status.details),
    ],
  );
}

/** A deterministic pseudo-random sequence (the same statuses on every run). */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe('check status compaction', () => {
  it('packs closed hours into one block per check per UTC day, keeping every field, and is idempotent', async () => {
    const check = await createCheck(db.pool);
    const now = new Date();
    const cutoff = compactionCutoff(now);
    const times = [
      now.getTime() - 3 * DAY,
      now.getTime() - 3 * DAY + 90_000,
      now.getTime() - 2 * DAY,
      now.getTime() - 26 * HOUR,
      cutoff.getTime() - 1,
      cutoff.getTime() + 1, // still open: stays in the recent tier
    ];
    for (const [index, time] of times.entries()) {
      await insertStatus(check.id, {
        time: new Date(time),
        duration: index === 1 ? null : 10 * (index + 1),
        status: index !== 2,
        message: index === 0 ? 'first' : null,
        error: index === 2 ? 'expected 200, got 500' : null,
        details: index === 3 ? { code: 200, headers: ['a'] } : undefined,
      });
    }
    const before = await statusesOf(check.id);
    expect(before).toHaveLength(6);

    const result = await compactCheckStatuses(db.pool, { now });
    expect(result.statuses).toBeGreaterThanOrEqual(5);
    const days = new Set(times.slice(0, 5).map((time) => new Date(time).toISOString().slice(0, 10)));
    expect(await tiers(check.id)).toEqual({ recent: 1, blocks: days.size, packed: 5 });
    expect(await statusesOf(check.id)).toEqual(before);

    const { rows: blocks } = await db.pool.query(
      `SELECT times, durations, statuses, messages, errors, details, passed_sums, duration_sums, timed,
              total, passed, duration_sum, first_time, last_time
       FROM check_status_blocks WHERE check_id = $1 ORDER BY day`,
      [check.id],
    );
    for (const block of blocks) {
      expect(block.times).toHaveLength(block.total);
      expect([...block.times].sort((a: Date, b: Date) => a.getTime() - b.getTime())).toEqual(block.times);
      expect(block.first_time).toEqual(block.times[0]);
      expect(block.last_time).toEqual(block.times.at(-1));
      expect(block.passed_sums.at(-1)).toBe(block.passed);
      expect(Number(block.duration_sums.at(-1))).toBe(Number(block.duration_sum ?? 0));
    }

    const again = await compactCheckStatuses(db.pool, { now });
    expect(again).toEqual({ statuses: 0, blocks: 0, days: 0 });
    const { rows: unchanged } = await db.pool.query(
      `SELECT times, durations, statuses, messages, errors, details, passed_sums, duration_sums, timed,
              total, passed, duration_sum, first_time, last_time
       FROM check_status_blocks WHERE check_id = $1 ORDER BY day`,
      [check.id],
    );
    expect(unchanged).toEqual(blocks);
  });

  it('merges late results into blocks already written, a late result replacing one with the same time', async () => {
    const check = await createCheck(db.pool);
    const now = new Date();
    const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - 2 * DAY;
    for (const hour of [1, 3, 5]) {
      await createCheckStatus(db.pool, check.id, { time: new Date(day + hour * HOUR), duration: hour });
    }
    await compactCheckStatuses(db.pool, { now });
    expect(await tiers(check.id)).toEqual({ recent: 0, blocks: 1, packed: 3 });

    // Late: one between packed ones, one before them all, one re-recording the 3 o'clock run.
    await createCheckStatus(db.pool, check.id, {
      time: new Date(day + 2 * HOUR),
      duration: 2,
      status: false,
    });
    await createCheckStatus(db.pool, check.id, { time: new Date(day), duration: 0 });
    await insertStatus(check.id, {
      time: new Date(day + 3 * HOUR),
      duration: 33,
      status: false,
      message: 'rerun',
      error: 'boom',
    });
    const merged = await compactCheckStatuses(db.pool, { now });
    expect(merged).toMatchObject({ statuses: 3, blocks: 1 });
    expect(await tiers(check.id)).toEqual({ recent: 0, blocks: 1, packed: 5 });
    const statuses = await statusesOf(check.id);
    expect(statuses.map((status) => [status.time.getTime() - day, status.duration, status.status])).toEqual([
      [0, 0, true],
      [HOUR, 1, true],
      [2 * HOUR, 2, false],
      [3 * HOUR, 33, false],
      [5 * HOUR, 5, true],
    ]);
    expect(statuses[3]).toMatchObject({ message: 'rerun', error: 'boom' });
    const { rows } = await db.pool.query(
      'SELECT total, passed, passed_sums, duration_sums, duration_min, duration_max FROM check_status_blocks WHERE check_id = $1',
      [check.id],
    );
    expect(rows[0]).toMatchObject({
      total: 5,
      passed: 3,
      passed_sums: [1, 2, 2, 2, 3],
      duration_sums: ['0', '1', '3', '36', '41'],
      duration_min: 0,
      duration_max: 33,
    });
  });

  it('loses and duplicates nothing when compactions run at the same time as each other and as writes', async () => {
    const check = await createCheck(db.pool);
    const now = new Date();
    const start = now.getTime() - 3 * DAY;
    const writes: Promise<void>[] = [];
    for (let i = 0; i < 200; i += 1) {
      writes.push(
        createCheckStatus(db.pool, check.id, { time: new Date(start + i * 17 * MINUTE), duration: i }),
      );
    }
    await Promise.all(writes.slice(0, 100));
    const runs = await Promise.all([
      compactCheckStatuses(db.pool, { now }),
      compactCheckStatuses(db.pool, { now }),
      compactCheckStatuses(db.pool, { now }),
      ...writes.slice(100),
    ]);
    await compactCheckStatuses(db.pool, { now });
    const statuses = await statusesOf(check.id);
    expect(statuses.map((status) => status.duration)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    const counts = await tiers(check.id);
    expect(counts.recent + counts.packed).toBe(200);
    expect(runs.length).toBe(103);
  });

  it('retention drops whole blocks past the raw retention after rolling them up', async () => {
    const check = await createCheck(db.pool);
    // Both in one UTC day, whatever the time of day now.
    const old = Math.floor(Date.now() / DAY) * DAY - 40 * DAY + HOUR;
    await createCheckStatus(db.pool, check.id, { time: new Date(old), duration: 50, status: false });
    await createCheckStatus(db.pool, check.id, { time: new Date(old + MINUTE), duration: 70 });
    await createCheckStatus(db.pool, check.id, { time: new Date(Date.now() - 2 * DAY), duration: 9 });
    await createCheckStatus(db.pool, check.id, { time: new Date(Date.now() - MINUTE), duration: 5 });
    await compactCheckStatuses(db.pool);
    expect((await tiers(check.id)).blocks).toBe(2);

    const removed = await applyCheckStatusRetention(db.pool, 30);
    expect(removed.statuses).toBeGreaterThanOrEqual(2);
    expect((await statusesOf(check.id)).map((status) => status.duration)).toEqual([9, 5]);
    expect(await tiers(check.id)).toMatchObject({ recent: 1, blocks: 1, packed: 1 });
    const { rows } = await db.pool.query(
      'SELECT total, passed, failed, duration_sum FROM check_statuses_1d WHERE check_id = $1 AND total = 2',
      [check.id],
    );
    expect(rows).toEqual([{ total: 2, passed: 1, failed: 1, duration_sum: 120 }]);
    const [summary] = await service.summary({
      start: new Date(Date.now() - 60 * DAY),
      end: new Date(),
      checkIds: [check.id],
    });
    expect(summary.uptime).toEqual({ passed: 3, failed: 1 });
  });

  it('counts recent statuses exactly and packed ones by whole hours whose midpoint is in the range', async () => {
    const random = sequence(6);
    const checks = [await createCheck(db.pool), await createCheck(db.pool), await createCheck(db.pool)];
    const now = new Date();
    const checkIds = checks.map((check) => check.id);
    for (const [index, check] of checks.entries()) {
      // Every 7 to 40 minutes over 3 days; the last check also has runs without a duration.
      let time = now.getTime() - 3 * DAY + index * 1_000;
      while (time < now.getTime()) {
        await insertStatus(check.id, {
          time: new Date(time),
          duration: index === 2 && random() < 0.2 ? null : Math.round(random() * 500),
          status: random() > 0.15,
          message: null,
          error: null,
        });
        time += Math.round((7 + random() * 33) * MINUTE);
      }
    }
    // Edges inside packed hours (13 and 47 minutes past), ranges with whole UTC days inside, one
    // wholly in the past, the default hour.
    const ranges: Array<[number, number]> = [
      [HOUR, 0],
      [24 * HOUR, 0],
      [36 * HOUR, 0],
      [5 * DAY, 0],
      [30 * HOUR, 7 * HOUR + 13 * MINUTE],
      [2 * HOUR + 34 * MINUTE, 49 * HOUR + 47 * MINUTE],
      [HOUR, 26 * HOUR + 29 * MINUTE],
    ];
    const summarise = () =>
      Promise.all(
        ranges.map(([length, endsAgo]) => {
          const end = new Date(now.getTime() - endsAgo);
          return service.summary({ start: new Date(end.getTime() - length), end, checkIds });
        }),
      );
    const rawStatuses = await Promise.all(checkIds.map(statusesOf));

    // The rule: a status still in the recent tier counts when start <= time <= end (rolling1h:
    // end - 1 h < time); a packed one when the midpoint of its UTC hour is in the range (rolling1h:
    // in [end - 1 h, end]).
    const expected = (statuses: Status[], start: number, end: number, packedBefore: number) => {
      const counted = statuses.filter((status) => {
        const time = status.time.getTime();
        const at = time < packedBefore ? Math.floor(time / HOUR) * HOUR + HOUR / 2 : time;
        return at >= start && at <= end;
      });
      const last = counted.filter((status) => {
        const time = status.time.getTime();
        if (time < packedBefore) return Math.floor(time / HOUR) * HOUR + HOUR / 2 >= end - HOUR;
        return time > end - HOUR;
      });
      const timed = last.filter((status) => status.duration !== null);
      return {
        uptime: {
          passed: counted.filter((status) => status.status).length,
          failed: counted.filter((status) => !status.status).length,
        },
        rolling1h:
          timed.length === 0
            ? undefined
            : Math.round(timed.reduce((sum, status) => sum + (status.duration ?? 0), 0) / timed.length),
      };
    };
    const check = (results: Awaited<ReturnType<typeof summarise>>, packedBefore: number) => {
      for (const [r, [length, endsAgo]] of ranges.entries()) {
        const end = now.getTime() - endsAgo;
        expect(results[r].map((summary) => summary.id).sort()).toEqual([...checkIds].sort());
        for (const summary of results[r]) {
          const c = checkIds.indexOf(summary.id);
          const want = expected(rawStatuses[c], end - length, end, packedBefore);
          expect(summary.uptime, `range ${r} check ${c}`).toEqual(want.uptime);
          expect(summary.latency.rolling1h, `range ${r} check ${c}`).toBe(want.rolling1h);
          for (const key of ['p95', 'p97', 'p99'] as const) {
            if (summary.latency[key] === undefined) continue;
            expect(summary.latency[key]).toBeGreaterThanOrEqual(0);
            expect(summary.latency[key]).toBeLessThanOrEqual(500);
          }
        }
      }
    };
    // Before compaction everything is raw: exact.
    check(await summarise(), -Infinity);

    await compactCheckStatuses(db.pool, { now });
    const cutoff = compactionCutoff(now).getTime();
    for (const id of checkIds) expect((await tiers(id)).blocks).toBeGreaterThanOrEqual(3);
    expect(await Promise.all(checkIds.map(statusesOf))).toEqual(rawStatuses);
    check(await summarise(), cutoff);
    // The rollup job running afterwards does not touch what compaction owns.
    await rollupCheckStatuses(db.pool, '1h', now);
    await rollupCheckStatuses(db.pool, '1d', now);
    check(await summarise(), cutoff);

    // The graph and the statuses list read both tiers the same way.
    const graphQuery = {
      checkId: checkIds[0],
      start: new Date(now.getTime() - 30 * HOUR),
      end: now,
      count: 300,
    };
    const graph = await service.graph(graphQuery);
    expect(graph?.status.reduce((sum, point) => sum + point.passed + point.failed, 0)).toBe(
      rawStatuses[0].filter((status) => status.time >= graphQuery.start && status.time <= now).length,
    );
    const listed = await service.checksWithStatuses({
      start: new Date(now.getTime() - 30 * HOUR),
      end: now,
      checkIds: [checkIds[0]],
      includeMessages: false,
    });
    expect(listed[0].checkStatuses.map((status) => status.time)).toEqual(
      rawStatuses[0]
        .filter((status) => status.time.getTime() >= now.getTime() - 30 * HOUR)
        .map((status) => status.time.toISOString())
        .reverse(),
    );
  });

  it('counts every status once across compaction runs, rollup runs and results recorded late', async () => {
    const check = await createCheck(db.pool);
    const now = new Date();
    const cutoff = compactionCutoff(now).getTime();
    // Hour-aligned range: hour granularity is then exact, so the counts must not move at all.
    const start = new Date(cutoff - 30 * HOUR);
    const end = new Date(cutoff + HOUR - 1);
    let expectedPassed = 0;
    let expectedFailed = 0;
    for (let time = start.getTime() + 3 * MINUTE; time < now.getTime(); time += 11 * MINUTE) {
      const passed = Math.floor(time / MINUTE) % 7 !== 0;
      await createCheckStatus(db.pool, check.id, { time: new Date(time), status: passed, duration: 10 });
      if (time <= end.getTime()) {
        if (passed) expectedPassed += 1;
        else expectedFailed += 1;
      }
    }
    const uptime = async () => (await service.summary({ start, end, checkIds: [check.id] }))[0].uptime;
    const want = () => ({ passed: expectedPassed, failed: expectedFailed });
    expect(await uptime()).toEqual(want());
    await rollupCheckStatuses(db.pool, '1h', now);
    await rollupCheckStatuses(db.pool, '1d', now);
    expect(await uptime()).toEqual(want());

    await compactCheckStatuses(db.pool, { now });
    expect((await tiers(check.id)).blocks).toBeGreaterThanOrEqual(1);
    expect(await uptime()).toEqual(want());

    // Late results for packed hours: counted raw at once, packed by the next run, never twice,
    // with the rollup job running in between.
    await createCheckStatus(db.pool, check.id, { time: new Date(cutoff - 20 * HOUR + 1_000), status: false });
    await createCheckStatus(db.pool, check.id, { time: new Date(cutoff - 2 * HOUR + 1_000) });
    expectedFailed += 1;
    expectedPassed += 1;
    expect(await uptime()).toEqual(want());
    await rollupCheckStatuses(db.pool, '1h', now);
    await rollupCheckStatuses(db.pool, '1d', now);
    expect(await uptime()).toEqual(want());
    const second = await compactCheckStatuses(db.pool, { now });
    expect(second.statuses).toBe(2);
    expect(await uptime()).toEqual(want());
    // An hour later: the next hour is packed too.
    await compactCheckStatuses(db.pool, { now: new Date(now.getTime() + HOUR) });
    expect(await uptime()).toEqual(want());
    expect((await tiers(check.id)).recent).toBeLessThanOrEqual(
      Math.ceil((now.getTime() - cutoff) / (11 * MINUTE)) + 1,
    );
  });
});
