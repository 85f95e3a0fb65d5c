import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createTokenForUser } from '../auth/index.js';
import { loadConfig } from '../../config.js';
import { createJobsService } from '../../platform/jobs/index.js';
import { createLogger } from '../../platform/logger.js';
import { createSecretBox, keyFromSecret } from '../../platform/secrets.js';
import type { PoolClient } from '../../platform/db/pool.js';
import { createCanary, createCheck, createPerson } from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { recordCheckResult } from './check-recorder.js';
import { compactCheckStatuses } from './compaction.js';
import { createHealthService, type CheckSummary, type HealthService } from './health-service.js';
import { applyCheckStatusRetention } from './rollups.js';

/**
 * The health page's summary reads the recent tier from a cache kept per process (recent-cache.ts)
 * that follows the database by what changed since the snapshot it last read (migration 0076).
 * Every way the tier changes is made here behind its back, and after each the cached summary
 * must equal the one aggregated in SQL (a summary by check ids), field for field.
 */
let db: TestDatabase;
let page: HealthService;
/** The same summary with the recent tier too large to keep: aggregated in SQL at every call. */
let uncached: HealthService;
/** Another process's summary, read at every third comparison: it meets several changes at once. */
let second: HealthService;
let comparisons = 0;
let app: FastifyInstance;
let token: string;
let canaryId: string;
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const labels = { suite: 'recent-cache' };
const ids: string[] = [];
let seed = 11;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};

beforeAll(async () => {
  db = await createTestDatabase();
  // Each service is a process of its own: its summary reader keeps its own caches.
  const service = (summaryRecentRows?: number) =>
    createHealthService({
      pool: db.pool,
      jobs: { startJob: () => Promise.reject(new Error('not used')) },
      logger: silent,
      retentionDays: 30,
      summaryRecentRows,
    });
  page = service();
  uncached = service(0);
  second = service();
  const canary = await createCanary(db.pool, { name: 'recent-cache' });
  canaryId = canary.id as string;
  const logger = createLogger('silent');
  ({ app } = await buildApp({
    config: loadConfig({ WEB_DIST_DIR: '/nonexistent', LOG_LEVEL: 'silent' }),
    pool: db.pool,
    logger,
    secrets: createSecretBox(keyFromSecret('a-test-secret-key')),
    jobs: createJobsService({ pool: db.pool, logger }),
  }));
  const viewer = await createPerson(db.pool, { name: 'A viewer', roles: ['viewer'] });
  token = await createTokenForUser(db.pool, { email: viewer.email as string, name: 'viewer' });
  for (let index = 0; index < 4; index += 1) {
    const check = await createCheck(db.pool, { canary_id: canary.id, name: `recent-${index}`, labels });
    ids.push(check.id as string);
  }
});

afterAll(async () => {
  await app?.close();
  await db?.close();
});

const byId = (checks: CheckSummary[], id: string) => checks.find((check) => check.id === id);

/** Statuses of a check at the given times (ms), random durations (one in ten missing) and results. */
async function insert(checkId: string, times: number[], client: Pick<PoolClient, 'query'> = db.pool) {
  await client.query(
    `INSERT INTO check_statuses (check_id, time, duration, status)
     SELECT $1, t, d, s FROM unnest($2::timestamptz[], $3::int[], $4::boolean[]) AS u(t, d, s)`,
    [
      checkId,
      times.map((time) => new Date(time)),
      times.map(() => (random() < 0.1 ? null : Math.floor(random() * 900))),
      times.map(() => random() < 0.8),
    ],
  );
}

const every = (from: number, to: number, stepMs: number) => {
  const times: number[] = [];
  for (let time = from; time < to; time += stepMs) times.push(time);
  return times;
};

/** The cached summary and the SQL one over [start, end]: equal; returns the cached one's measured parts. */
async function compare(start: Date, end: Date) {
  const cached = await page.summary({ start, end, labels });
  const reference = await page.summary({ start, end, checkIds: ids });
  const aggregated = await uncached.summary({ start, end, labels });
  expect(
    ids.map((id) => byId(cached, id)),
    `${start.toISOString()}..${end.toISOString()}`,
  ).toEqual(ids.map((id) => byId(reference, id)));
  expect(ids.map((id) => byId(aggregated, id))).toEqual(ids.map((id) => byId(reference, id)));
  comparisons += 1;
  if (comparisons % 3 === 0) {
    const other = await second.summary({ start, end, labels });
    expect(ids.map((id) => byId(other, id))).toEqual(ids.map((id) => byId(reference, id)));
  }
  return ids.map((id) => {
    const check = byId(cached, id) as CheckSummary;
    return { uptime: check.uptime, latency: check.latency };
  });
}

const lastHour = () => [new Date(Date.now() - 3_600_000), new Date(Date.now() + 60_000)] as const;
const total = (parts: Awaited<ReturnType<typeof compare>>) =>
  parts.reduce((sum, part) => sum + part.uptime.passed + part.uptime.failed, 0);

describe("the health page summary's recent tier, kept per process", () => {
  it('follows inserts, upserts, late results, compaction, retention, deletes and TRUNCATE', async () => {
    const now = Date.now();
    const hour = Math.floor(now / 3_600_000) * 3_600_000;
    // Three hours of statuses; everything before the current hour packed.
    for (const id of ids)
      await insert(id, every(now - 3 * 3_600_000, now, 60_000 + Math.floor(random() * 30_000)));
    await compactCheckStatuses(db.pool, { before: new Date(hour) });
    const [start, end] = lastHour();
    const first = await compare(start, end);
    expect(total(first)).toBeGreaterThan(0);
    // Windows that cut the tier: the range's start and end fall between statuses.
    await compare(new Date(hour + 60_000), new Date(now - 120_000));
    await compare(new Date(now - 300_000), new Date(now - 1000));

    // New results, and one recorded again for the same time (the recorder's upsert).
    await insert(ids[0], [now + 1000, now + 2000]);
    expect(total(await compare(start, end))).toBe(total(first) + 2);
    await db.pool.query(
      `INSERT INTO check_statuses_recent (check_id, time, duration, status) VALUES ($1, $2, 99999, false)
       ON CONFLICT (check_id, time) DO UPDATE SET duration = EXCLUDED.duration, status = EXCLUDED.status`,
      [ids[0], new Date(now + 1000)],
    );
    const upserted = await compare(start, end);
    expect(total(upserted)).toBe(total(first) + 2);
    expect(upserted[0].latency.p99).toBeGreaterThan(first[0].latency.p99 ?? 0);

    // An update by hand that moves a status to another time and check.
    await db.pool.query(
      `UPDATE check_statuses_recent SET time = time + interval '7 seconds', check_id = $2
       WHERE check_id = $1 AND time = $3`,
      [ids[0], ids[1], new Date(now + 2000)],
    );
    await compare(start, end);

    // A late result for a packed hour waits in the recent tier: counted raw, then packed.
    await insert(ids[2], [hour - 30 * 60_000 + 17]);
    const wide = [new Date(hour - 2 * 3_600_000), end] as const;
    const beforeLate = await compare(...wide);
    await compactCheckStatuses(db.pool, { before: new Date(hour) });
    expect((await compare(...wide)).map((part) => part.uptime)).toEqual(
      beforeLate.map((part) => part.uptime),
    );

    // The hour closes: compaction moves the mark past statuses the cache holds.
    const later = Math.max(
      ...(await db.pool.query<{ t: Date }>('SELECT max(time) AS t FROM check_statuses_recent')).rows.map(
        (row) => row.t.getTime(),
      ),
    );
    await compactCheckStatuses(db.pool, { before: new Date(now - 20 * 60_000) });
    await compare(start, new Date(later + 1000));
    await compare(new Date(now - 30 * 60_000), new Date(later + 1000));

    // Retention removes old rows of the tier (here: everything before a minute ago).
    await insert(ids[3], every(now - 10 * 60_000, now, 20_000));
    await compare(start, end);
    await db.pool.query('DELETE FROM check_statuses_recent WHERE time < $1', [new Date(now - 60_000)]);
    await compare(start, end);
    await insert(ids[3], [now - 31 * 86_400_000]);
    await compare(start, end);
    expect((await applyCheckStatusRetention(db.pool, 30)).statuses).toBe(1);
    await compare(start, end);

    // A check deleted with its statuses (ON DELETE CASCADE), and rows deleted by hand.
    const canary = await createCanary(db.pool, { name: 'recent-cache-gone' });
    const gone = await createCheck(db.pool, { canary_id: canary.id, name: 'gone', labels });
    ids.push(gone.id as string);
    await insert(gone.id as string, every(now - 5 * 60_000, now, 30_000));
    const withGone = await compare(start, end);
    expect(withGone[4].uptime.passed + withGone[4].uptime.failed).toBe(10);
    await db.pool.query('DELETE FROM checks WHERE id = $1', [gone.id]);
    ids.pop();
    await compare(start, end);
    await db.pool.query('DELETE FROM check_statuses_recent WHERE check_id = $1 AND time > $2', [
      ids[3],
      new Date(now - 30_000),
    ]);
    await compare(start, end);

    // TRUNCATE fires no row trigger: its statement trigger tells the readers.
    await db.pool.query('TRUNCATE check_statuses_recent');
    const truncated = await compare(start, end);
    expect(
      truncated.every((part) => part.uptime.passed + part.uptime.failed === 0 || part.uptime.passed > 0),
    ).toBe(true);
    await insert(ids[1], [now - 1000]);
    expect(total(await compare(start, end))).toBeGreaterThan(0);
  });

  it('sees a transaction that commits after a later one, and concurrent summaries agree', async () => {
    const now = Date.now();
    const [start, end] = lastHour();
    await compare(start, end);
    // A writer's transaction stays open across two summaries while another commits after it began.
    const slow = await db.pool.connect();
    try {
      await slow.query('BEGIN');
      await insert(ids[0], [now - 4321], slow);
      const before = await compare(start, end);
      await insert(ids[1], [now - 1234]);
      const between = await compare(start, end);
      expect(total(between)).toBe(total(before) + 1);
      await slow.query('COMMIT');
    } finally {
      slow.release();
    }
    const after = await compare(start, end);
    expect(after[0].uptime.passed + after[0].uptime.failed).toBeGreaterThan(0);
    // An aborted write is never counted.
    const aborted = await db.pool.connect();
    try {
      await aborted.query('BEGIN');
      await insert(ids[2], [now - 999], aborted);
      await aborted.query('ROLLBACK');
    } finally {
      aborted.release();
    }
    expect(await compare(start, end)).toEqual(after);

    // A late result committed while a compaction is under way (after its delete) survives it,
    // before the mark: the summary read in between saw it, and must still count it after.
    const compaction = await db.pool.connect();
    try {
      const mark = new Date(now - 90_000);
      await insert(ids[2], [now - 200_000]);
      await compaction.query('BEGIN');
      await compaction.query(
        'UPDATE check_status_compaction SET packed_before = greatest(packed_before, $1)',
        [mark],
      );
      await compaction.query('DELETE FROM check_statuses_recent WHERE time < $1', [mark]);
      await insert(ids[3], [now - 95_000]);
      const during = await compare(start, end);
      await compaction.query('COMMIT');
      const survived = await compare(start, end);
      expect(survived[3].uptime).toEqual(during[3].uptime);
      expect(total(survived)).toBeLessThan(total(during));
    } finally {
      compaction.release();
    }

    // Summaries called at once while statuses arrive: each equals the SQL one of its moment's data.
    const base = await compare(start, end);
    const writes = (async () => {
      for (let index = 0; index < 20; index += 1) await insert(ids[index % 4], [now - 100_000 + index * 37]);
    })();
    const reads = await Promise.all(Array.from({ length: 8 }, () => page.summary({ start, end, labels })));
    await writes;
    for (const read of reads) expect(read.filter((check) => ids.includes(check.id)).length).toBe(4);
    const settled = await compare(start, end);
    expect(total(settled)).toBe(total(base) + 20);
  });

  it('answers the route with each result the moment the recorder has written it', async () => {
    const summary = async () => {
      const response = await app.inject({
        method: 'GET',
        url: '/api/canary/api/summary?start=1h',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.statusCode).toBe(200);
      const body = response.json<{ checks_summary: CheckSummary[] }>();
      return byId(body.checks_summary, ids[1]) as CheckSummary;
    };
    const before = await summary();
    let passed = before.uptime.passed;
    let failed = before.uptime.failed;
    for (const [pass, duration] of [
      [true, 12],
      [false, 40_000],
      [true, 30],
    ] as const) {
      const startedAt = new Date();
      await recordCheckResult(db.pool, ids[1], canaryId, {
        startedAt: startedAt.toISOString(),
        result: { pass, duration, message: '', error: pass ? '' : 'timed out', data: {} },
      });
      if (pass) passed += 1;
      else failed += 1;
      const after = await summary();
      expect(after.uptime).toEqual({ passed, failed });
      expect(after.last_runtime).toBe(startedAt.toISOString());
      expect(after.status).toBe(pass ? 'healthy' : 'unhealthy');
      // The 40 s failure stays the slowest in the window once it is recorded.
      expect(after.latency.p99).toBeGreaterThan(failed > before.uptime.failed ? 1000 : 0);
    }
  });

  it('agrees with SQL after each of a random sequence of writes, moves, deletes and compactions', async () => {
    const now = Date.now();
    const at = (ms: number) => new Date(Math.floor(ms));
    const randomCheck = () => ids[Math.floor(random() * ids.length)];
    let open: { client: PoolClient; until: number } | undefined;
    const kinds = new Map<string, number>();
    try {
      for (let step = 0; step < 80; step += 1) {
        const roll = random();
        const kind =
          roll < 0.35
            ? 'upsert'
            : roll < 0.5
              ? 'open'
              : roll < 0.62
                ? 'move'
                : roll < 0.74
                  ? 'edit'
                  : roll < 0.86
                    ? 'delete'
                    : 'compact';
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
        if (kind === 'upsert') {
          // Results at random times of the last three hours (some again at a time already held).
          const times = Array.from({ length: 1 + Math.floor(random() * 12) }, () =>
            at(now - random() * 3 * 3_600_000 + (random() < 0.2 ? 0 : random())),
          );
          await db.pool.query(
            `INSERT INTO check_statuses_recent (check_id, time, duration, status)
             SELECT $1, t, CASE WHEN random() < 0.1 THEN NULL ELSE floor(random() * 900)::int END, random() < 0.8
             FROM unnest($2::timestamptz[]) AS t
             ON CONFLICT (check_id, time) DO UPDATE SET duration = EXCLUDED.duration, status = EXCLUDED.status`,
            [randomCheck(), [...new Set(times.map((time) => time.getTime()))].map((time) => new Date(time))],
          );
        } else if (kind === 'open' && open === undefined) {
          // A writer whose transaction stays open over the next few steps.
          const client = await db.pool.connect();
          await client.query('BEGIN');
          await client.query(
            `INSERT INTO check_statuses_recent (check_id, time, duration, status) VALUES ($1, $2, 77, false)
             ON CONFLICT DO NOTHING`,
            [randomCheck(), at(now - random() * 3_600_000)],
          );
          open = { client, until: step + 1 + Math.floor(random() * 4) };
        } else if (kind === 'move') {
          // A status moved to another time (and maybe check), by hand; a clash is refused.
          await db.pool
            .query(
              `UPDATE check_statuses_recent SET time = time + $3 * interval '1 millisecond', check_id = $2
               WHERE (check_id, time) = (SELECT check_id, time FROM check_statuses_recent
                                         WHERE check_id = $1 ORDER BY time LIMIT 1 OFFSET $4)`,
              [
                randomCheck(),
                randomCheck(),
                Math.floor(random() * 600_000) - 300_000,
                Math.floor(random() * 5),
              ],
            )
            .catch((error: { code?: string }) => {
              if (error.code !== '23505') throw error;
            });
        } else if (kind === 'edit') {
          await db.pool.query(
            `UPDATE check_statuses_recent SET duration = duration + 1000, status = NOT status
             WHERE check_id = $1 AND time > $2 AND time < $2 + interval '10 minutes'`,
            [randomCheck(), at(now - random() * 3 * 3_600_000)],
          );
        } else if (kind === 'delete') {
          await db.pool.query(
            `DELETE FROM check_statuses_recent WHERE check_id = $1 AND time > $2 AND time < $2 + interval '20 minutes'`,
            [randomCheck(), at(now - random() * 3 * 3_600_000)],
          );
        } else if (kind === 'compact') {
          await compactCheckStatuses(db.pool, {
            before: at(now - 3 * 3_600_000 + (step / 80) * 2.5 * 3_600_000),
          });
        }
        if (open && step >= open.until) {
          await open.client.query(random() < 0.8 ? 'COMMIT' : 'ROLLBACK');
          open.client.release();
          open = undefined;
        }
        const end = at(now + 60_000 - random() * 3_600_000);
        await compare(at(end.getTime() - (0.5 + random() * 2) * 3_600_000), end);
      }
    } finally {
      if (open) {
        await open.client.query('ROLLBACK');
        open.client.release();
      }
    }
    expect([...kinds.keys()].sort()).toEqual(['compact', 'delete', 'edit', 'move', 'open', 'upsert']);
  });
});
