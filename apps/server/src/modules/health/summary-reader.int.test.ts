import type { FastifyInstance } from 'fastify';
import { checkSummaryResponseSchema, checkSummarySchema } from '@opsdeck/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../../app.js';
import { createTokenForUser } from '../auth/index.js';
import { loadConfig } from '../../config.js';
import { createJobsService, type JobsService } from '../../platform/jobs/index.js';
import { createLogger } from '../../platform/logger.js';
import { createSecretBox, keyFromSecret } from '../../platform/secrets.js';
import { createCanary, createCheck, createPerson } from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { compactCheckStatuses } from './compaction.js';
import {
  createHealthService,
  rawStatusesFrom,
  type CheckSummary,
  type HealthService,
} from './health-service.js';
import { rollupCheckStatuses } from './rollups.js';
import {
  DESCRIPTIVE_SQL,
  descriptiveOf,
  SUMMARY_DESCRIPTIVE_COLUMNS,
  type Descriptive,
  type DescriptiveRow,
  type VersionedColumn,
} from './summary-columns.js';

/**
 * The summary reader keeps checks' descriptive columns per process (summary-reader.ts): these
 * tests change them behind its back, through SQL, and expect every read to follow; and they
 * compare what Node computes (percentiles, rounding) with PostgreSQL's own functions.
 */
let db: TestDatabase;
let service: HealthService;
let jobs: JobsService;
let app: FastifyInstance;
let token: string;

const silent = { debug() {}, info() {}, warn() {}, error() {} };

beforeAll(async () => {
  db = await createTestDatabase();
  service = createHealthService({
    pool: db.pool,
    jobs: { startJob: () => Promise.reject(new Error('not used')) },
    logger: silent,
    retentionDays: 30,
  });
  const logger = createLogger('silent');
  jobs = createJobsService({ pool: db.pool, logger });
  ({ app } = await buildApp({
    config: loadConfig({ WEB_DIST_DIR: '/nonexistent', LOG_LEVEL: 'silent' }),
    pool: db.pool,
    logger,
    secrets: createSecretBox(keyFromSecret('a-test-secret-key')),
    jobs,
  }));
  const viewer = await createPerson(db.pool, { name: 'A viewer', roles: ['viewer'] });
  token = await createTokenForUser(db.pool, { email: viewer.email as string, name: 'viewer' });
});

afterAll(async () => {
  await app?.close();
  await db?.close();
});

const range = () => ({ start: new Date(Date.now() - 3_600_000), end: new Date(Date.now() + 1000) });
const byId = (checks: CheckSummary[], id: string) => checks.find((check) => check.id === id);

async function insertStatuses(checkId: string, durations: Array<number | null>, passed = true) {
  await db.pool.query(
    `INSERT INTO check_statuses (check_id, time, duration, status)
     SELECT $1, now() - (n || ' seconds')::interval, d, $3
     FROM unnest($2::int[]) WITH ORDINALITY AS u(d, n)`,
    [checkId, durations, passed],
  );
}

/**
 * Statuses of a check from `from` to `to` (ms), every `minutes[0]` plus up to `minutes[1]`
 * minutes, with random durations (one in ten missing) and results (four in five passing).
 */
async function insertRandomStatuses(
  checkId: string,
  from: number,
  to: number,
  minutes: [number, number],
  random: () => number,
) {
  const times: Date[] = [];
  const durations: Array<number | null> = [];
  const statuses: boolean[] = [];
  for (let time = from; time < to; time += (minutes[0] + Math.floor(random() * minutes[1])) * 60_000) {
    times.push(new Date(time));
    durations.push(random() < 0.1 ? null : Math.floor(random() * 500));
    statuses.push(random() < 0.8);
  }
  await db.pool.query(
    `INSERT INTO check_statuses (check_id, time, duration, status)
     SELECT $1, t, d, s FROM unnest($2::timestamptz[], $3::int[], $4::boolean[]) AS u(t, d, s)`,
    [checkId, times, durations, statuses],
  );
}

describe('the check summary reader', () => {
  it('follows renames, label and canary changes, deletes and re-created ids between reads', async () => {
    const canary = await createCanary(db.pool, { name: 'reader-canary-b', spec: { icon: 'http' } });
    const check = await createCheck(db.pool, {
      canary_id: canary.id,
      name: 'reader-check',
      description: 'before',
      labels: { team: 'a' },
    });
    await insertStatuses(check.id as string, [10, 20]);

    const first = byId(await service.summary(range()), check.id as string);
    expect(first).toMatchObject({
      name: 'reader-check',
      description: 'before',
      canary_name: 'reader-canary-b',
      icon: 'http',
      labels: { team: 'a' },
      uptime: { passed: 2, failed: 0 },
    });

    await db.pool.query(
      `UPDATE checks SET name = 'renamed', description = 'after', labels = '{"team":"b"}' WHERE id = $1`,
      [check.id],
    );
    await db.pool.query(
      `UPDATE canaries SET name = 'reader-canary-renamed', spec = '{"icon":"tcp"}' WHERE id = $1`,
      [canary.id],
    );
    const second = byId(await service.summary(range()), check.id as string);
    expect(second).toMatchObject({
      name: 'renamed',
      description: 'after',
      canary_name: 'reader-canary-renamed',
      icon: 'tcp',
      labels: { team: 'b' },
    });
    // The labels filter reads the new labels too.
    expect(
      byId(await service.summary({ ...range(), labels: { team: 'a' } }), check.id as string),
    ).toBeUndefined();
    expect(
      byId(await service.summary({ ...range(), labels: { team: 'b' } }), check.id as string),
    ).toBeDefined();

    // Deleted, then inserted again under the same id with other columns: never the cached ones.
    await db.pool.query('DELETE FROM checks WHERE id = $1', [check.id]);
    expect(byId(await service.summary(range()), check.id as string)).toBeUndefined();
    await createCheck(db.pool, { id: check.id, canary_id: canary.id, name: 'reborn', description: null });
    expect(byId(await service.summary(range()), check.id as string)).toMatchObject({
      name: 'reborn',
      description: null,
      uptime: { passed: 0, failed: 0 },
      latency: {},
    });
  });

  it('keeps status updates from rewriting the descriptive version, and hides it from the data API', async () => {
    const check = await createCheck(db.pool, { name: 'versioned' });
    const before = await db.pool.query<{ v: string }>(
      'SELECT descriptive_version::text AS v FROM checks WHERE id = $1',
      [check.id],
    );
    // What a run writes (check-recorder.ts), a silence and a delete (read apart at every call).
    await db.pool.query(
      `UPDATE checks SET status = 'unhealthy', last_runtime = now(), last_transition_time = now(),
                         next_runtime = now() + interval '1 minute', updated_at = now() + interval '1 second'
       WHERE id = $1`,
      [check.id],
    );
    await db.pool.query(`UPDATE checks SET silenced_at = now(), deleted_at = now() WHERE id = $1`, [
      check.id,
    ]);
    const unchanged = await db.pool.query<{ v: string }>(
      'SELECT descriptive_version::text AS v FROM checks WHERE id = $1',
      [check.id],
    );
    expect(unchanged.rows[0].v).toBe(before.rows[0].v);
    // A write can't pick its own version (an old one would match a stale cache entry).
    await db.pool.query('UPDATE checks SET descriptive_version = 1 WHERE id = $1', [check.id]);
    const bumped = await db.pool.query<{ v: string }>(
      'SELECT descriptive_version::text AS v FROM checks WHERE id = $1',
      [check.id],
    );
    expect(Number(bumped.rows[0].v)).toBeGreaterThan(Number(before.rows[0].v));

    const response = await app.inject({
      method: 'GET',
      url: '/api/db/checks?select=id,descriptive_version',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('descriptive_version');
    const all = await app.inject({
      method: 'GET',
      url: `/api/db/checks?id=eq.${check.id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(all.statusCode).toBe(200);
    expect(Object.keys(all.json()[0])).not.toContain('descriptive_version');
  });

  /**
   * One change per table column the descriptive list names (SUMMARY_DESCRIPTIVE_COLUMNS's
   * `versionedBy`): $1 the check, $2 another agent or canary (`to`). A column added to the
   * list fails the first expectation below until its change is added here.
   */
  const DESCRIPTIVE_CHANGES: Record<string, { sql: string; to?: 'agent' | 'canary' }> = {
    'checks.name': { sql: `UPDATE checks SET name = name || '+' WHERE id = $1` },
    'checks.description': {
      sql: `UPDATE checks SET description = coalesce(description, '') || '+' WHERE id = $1`,
    },
    'checks.endpoint': { sql: `UPDATE checks SET endpoint = coalesce(endpoint, '') || '+' WHERE id = $1` },
    'checks.type': { sql: `UPDATE checks SET type = type || '+' WHERE id = $1` },
    'checks.icon': { sql: `UPDATE checks SET icon = coalesce(icon, '') || '+' WHERE id = $1` },
    'checks.namespace': { sql: `UPDATE checks SET namespace = coalesce(namespace, '') || '+' WHERE id = $1` },
    'checks.labels': {
      sql: `UPDATE checks SET labels = coalesce(labels, '{}') || '{"moved": "yes"}' WHERE id = $1`,
    },
    'checks.agent_id': { sql: `UPDATE checks SET agent_id = $2 WHERE id = $1`, to: 'agent' },
    'checks.owner': { sql: `UPDATE checks SET owner = coalesce(owner, '') || '+' WHERE id = $1` },
    'checks.severity': { sql: `UPDATE checks SET severity = coalesce(severity, '') || '+' WHERE id = $1` },
    'checks.created_at': {
      sql: `UPDATE checks SET created_at = created_at - interval '1 day' WHERE id = $1`,
    },
    'canaries.namespace': {
      sql: `UPDATE canaries SET namespace = namespace || '-x' WHERE id = (SELECT canary_id FROM checks WHERE id = $1)`,
    },
    'checks.canary_id': { sql: `UPDATE checks SET canary_id = $2 WHERE id = $1`, to: 'canary' },
    'canaries.name': {
      sql: `UPDATE canaries SET name = name || '+' WHERE id = (SELECT canary_id FROM checks WHERE id = $1)`,
    },
    // A canary's icon is its spec's (migration 0062).
    'canaries.icon': {
      sql: `UPDATE canaries SET spec = spec || jsonb_build_object('icon', coalesce(icon, '') || '+')
            WHERE id = (SELECT canary_id FROM checks WHERE id = $1)`,
    },
  };

  it('moves the descriptive version and serves the new value when any listed column changes', async () => {
    const listed = [
      ...new Set(
        SUMMARY_DESCRIPTIVE_COLUMNS.flatMap((column): readonly VersionedColumn[] => column.versionedBy),
      ),
    ];
    expect(Object.keys(DESCRIPTIVE_CHANGES).sort(), 'a change per listed column').toEqual(listed.sort());

    const canary = await createCanary(db.pool, { name: 'listed-canary', spec: { icon: 'canary-icon' } });
    const other = await createCanary(db.pool, { name: 'listed-other', spec: { icon: 'other-icon' } });
    const agent = await db.pool.query<{ id: string }>(
      `INSERT INTO agents (name) VALUES ('listed-agent') RETURNING id`,
    );
    // No icon of its own: the canary's shows through.
    const check = await createCheck(db.pool, {
      canary_id: canary.id,
      name: 'listed-check',
      labels: { team: 'a' },
    });
    const id = check.id as string;
    const fingerprint = async () =>
      (
        await db.pool.query<{ f: string }>(
          `SELECT c.descriptive_version || ':' || ca.descriptive_version AS f
           FROM checks c JOIN canaries ca ON ca.id = c.canary_id WHERE c.id = $1`,
          [id],
        )
      ).rows[0].f;
    const stored = async (): Promise<Descriptive> =>
      descriptiveOf((await db.pool.query<DescriptiveRow>(DESCRIPTIVE_SQL, [[id]])).rows[0]);
    const served = async () => {
      const object = byId(await service.summary(range()), id) as CheckSummary;
      const json = (JSON.parse((await service.summaryJson(range())).toString()) as CheckSummary[]).find(
        (entry) => entry.id === id,
      ) as CheckSummary;
      const pick = (summary: CheckSummary) =>
        Object.fromEntries(SUMMARY_DESCRIPTIVE_COLUMNS.map(({ field }) => [field, summary[field]]));
      return { object: pick(object), json: pick(json) };
    };

    for (const column of listed) {
      const before = await stored();
      const versionBefore = await fingerprint();
      // The cache holds the check as it is now.
      expect(await served(), column).toEqual({ object: before, json: before });
      const { sql, to } = DESCRIPTIVE_CHANGES[column];
      const target = { agent: agent.rows[0].id, canary: other.id as string };
      await db.pool.query(sql, to ? [id, target[to]] : [id]);
      const after = await stored();
      expect(after, `${column} changes a served field`).not.toEqual(before);
      expect(await fingerprint(), `${column} moves the descriptive version`).not.toBe(versionBefore);
      expect(await served(), `${column} is served changed`).toEqual({ object: after, json: after });
    }
  });

  it("computes the recent tier's percentiles and rounding as PostgreSQL does", async () => {
    // Odd and even counts, ties, nulls, values whose percentile lands on a half.
    const cases: Array<Array<number | null>> = [
      [5],
      [1, 2],
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20],
      [7, 7, 7, 8, null, 1000, 3, 250, 251, 252, 12, 99, null, 1],
      Array.from({ length: 137 }, (_, index) => (index * 7919) % 1013),
      Array.from({ length: 41 }, (_, index) => 2 * index + 1),
    ];
    const canary = await createCanary(db.pool, { name: 'percentiles' });
    const ids: string[] = [];
    for (const [index, durations] of cases.entries()) {
      const check = await createCheck(db.pool, { canary_id: canary.id, name: `p-${index}` });
      ids.push(check.id as string);
      await insertStatuses(check.id as string, durations, index % 2 === 0);
    }
    const { start, end } = range();
    const { rows: expected } = await db.pool.query<{
      id: string;
      passed: number;
      failed: number;
      p95: number | null;
      p97: number | null;
      p99: number | null;
    }>(
      `SELECT check_id AS id,
              count(*) FILTER (WHERE status)::int AS passed, count(*) FILTER (WHERE NOT status)::int AS failed,
              round(percentile_cont(0.95) WITHIN GROUP (ORDER BY duration))::int AS p95,
              round(percentile_cont(0.97) WITHIN GROUP (ORDER BY duration))::int AS p97,
              round(percentile_cont(0.99) WITHIN GROUP (ORDER BY duration))::int AS p99
       FROM check_statuses_recent WHERE check_id = ANY($1) AND time >= $2 AND time <= $3
       GROUP BY check_id`,
      [ids, start, end],
    );
    const summary = await service.summary({ start, end, checkIds: ids });
    expect(summary).toHaveLength(cases.length);
    for (const row of expected) {
      const check = byId(summary, row.id);
      expect(check?.uptime).toEqual({ passed: row.passed, failed: row.failed });
      expect(check?.latency).toMatchObject({ p95: row.p95, p97: row.p97, p99: row.p99 });
    }
  });

  it('answers the route with the same checks as the service, ordered by canary name then check name', async () => {
    const canaryA = await createCanary(db.pool, { name: 'order-a' });
    const canaryB = await createCanary(db.pool, { name: 'order-b' });
    await createCheck(db.pool, { canary_id: canaryB.id, name: 'a-check', labels: { 'quote"d': 'é\n"x"' } });
    await createCheck(db.pool, { canary_id: canaryA.id, name: 'z-check', description: 'ünïcode ✓' });
    await createCheck(db.pool, { canary_id: canaryA.id, name: 'b-check', endpoint: 'http://x/"y"' });
    const objects = await service.summary({ start: new Date(Date.now() - 3_600_000), end: new Date() });
    const names = objects.map((check) => [check.canary_name, check.name]);
    const sorted = [...names].sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1));
    expect(names).toEqual(sorted);
    const ours = names.filter(([canary]) => canary.startsWith('order-'));
    expect(ours).toEqual([
      ['order-a', 'b-check'],
      ['order-a', 'z-check'],
      ['order-b', 'a-check'],
    ]);

    const response = await app.inject({
      method: 'GET',
      url: '/api/canary/api/summary?start=1h',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/json');
    const body = response.json<{ duration: number; runnerName: string; checks_summary: CheckSummary[] }>();
    expect(typeof body.duration).toBe('number');
    expect(typeof body.runnerName).toBe('string');
    // The same checks as the service's objects (run times may have moved on between the calls).
    const strip = (checks: CheckSummary[]) => checks.map(({ last_runtime: _r, ...rest }) => rest);
    expect(strip(body.checks_summary).filter((check) => check.canary_name.startsWith('order-'))).toEqual(
      strip(objects).filter((check) => check.canary_name.startsWith('order-')),
    );
    expect(body.checks_summary.find((check) => check.name === 'a-check')?.labels).toEqual({
      'quote"d': 'é\n"x"',
    });
  });

  it('answers the route with JSON text that parses with the check summary contract', async () => {
    // The route writes the JSON as text (summary-reader.ts jsonOf); the web app parses it with
    // the contract's schema. Strict here: a key the contract does not name fails too.
    const strict = checkSummaryResponseSchema
      .extend({ checks_summary: z.array(checkSummarySchema.strict()) })
      .strict();
    const canary = await createCanary(db.pool, { name: 'contract-canary' });
    const measured = await createCheck(db.pool, {
      canary_id: canary.id,
      name: 'measured',
      description: 'a "quoted" description',
      endpoint: 'http://example.test/',
      icon: 'http',
      labels: { env: 'prod' },
    });
    await createCheck(db.pool, { canary_id: canary.id, name: 'never-ran', status: null });
    const deleted = await createCheck(db.pool, {
      canary_id: canary.id,
      name: 'deleted',
      status: 'unhealthy',
    });
    await insertStatuses(measured.id as string, [10, 20, null]);
    await db.pool.query(
      `UPDATE checks SET last_runtime = now(), last_transition_time = now() - interval '1 minute' WHERE id = $1`,
      [measured.id],
    );
    await db.pool.query('UPDATE checks SET deleted_at = now() WHERE id = $1', [deleted.id]);

    const response = await app.inject({
      method: 'GET',
      url: '/api/canary/api/summary?start=1h',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(200);
    const parsed = strict.safeParse(JSON.parse(response.body));
    expect(parsed.error?.issues ?? []).toEqual([]);
    const ours = (parsed.data?.checks_summary ?? []).filter(
      (check) => check.canary_name === 'contract-canary',
    );
    const byName = new Map(ours.map((check) => [check.name, check]));
    expect([...byName.keys()]).toEqual(['deleted', 'measured', 'never-ran']);
    expect(byName.get('measured')).toMatchObject({
      status: 'healthy',
      description: 'a "quoted" description',
      labels: { env: 'prod' },
      uptime: { passed: 3, failed: 0 },
      latency: { p95: expect.any(Number) },
      last_runtime: expect.any(String),
    });
    expect(byName.get('never-ran')).toMatchObject({ status: null, latency: {}, last_runtime: null });
    expect(byName.get('deleted')?.deleted_at).toEqual(expect.any(String));
  });

  it('combines the recent tier and packed hours as its rules say, over random ranges', async () => {
    // Three checks with a status every 7 to 13 minutes over the last 40 hours, random durations
    // (some missing) and results; everything before the hour that began 3 hours ago packed.
    const canary = await createCanary(db.pool, { name: 'hour-sums' });
    const ids: string[] = [];
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const now = Date.now();
    for (let index = 0; index < 3; index += 1) {
      const check = await createCheck(db.pool, { canary_id: canary.id, name: `sums-${index}` });
      ids.push(check.id as string);
      await insertRandomStatuses(check.id as string, now - 40 * 3_600_000, now, [7, 7], random);
    }
    const packedBefore = new Date(Math.floor(now / 3_600_000) * 3_600_000 - 3 * 3_600_000);
    await compactCheckStatuses(db.pool, { before: packedBefore });
    const packed = await db.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM check_statuses_1h WHERE check_id = ANY($1) AND created_at < $2',
      [ids, packedBefore],
    );
    expect(packed.rows[0].n).toBeGreaterThan(100);

    // The summary's rules over the hourly rollups, evaluated apart (and the recent tier's
    // percentiles by PostgreSQL), for ranges of up to 24 hours, which never hold a whole UTC day.
    const reference = `
      WITH b AS (SELECT greatest($1::timestamptz - interval '30 minutes', $3::timestamptz) AS lo,
                        $2::timestamptz - interval '30 minutes' AS hi, packed_before AS mark
                 FROM check_status_compaction),
      parts AS (
        SELECT check_id, count(*) FILTER (WHERE status) AS passed, count(*) FILTER (WHERE NOT status) AS failed,
               count(duration) AS timed,
               percentile_cont(0.95) WITHIN GROUP (ORDER BY duration) AS p95,
               percentile_cont(0.97) WITHIN GROUP (ORDER BY duration) AS p97,
               percentile_cont(0.99) WITHIN GROUP (ORDER BY duration) AS p99,
               sum(duration) FILTER (WHERE time > $2::timestamptz - interval '1 hour') AS rs,
               count(duration) FILTER (WHERE time > $2::timestamptz - interval '1 hour') AS rt
        FROM check_statuses_recent
        WHERE check_id = ANY($4) AND time >= greatest($1::timestamptz, $3::timestamptz) AND time <= $2
        GROUP BY check_id
        UNION ALL
        SELECT h.check_id, h.passed, h.failed, h.timed, h.duration_p95, h.duration_p97, h.duration_p99,
               CASE WHEN h.created_at >= $2::timestamptz - interval '90 minutes' THEN h.duration_sum END,
               CASE WHEN h.created_at >= $2::timestamptz - interval '90 minutes' THEN h.timed END
        FROM check_statuses_1h h, b
        WHERE h.check_id = ANY($4) AND h.created_at >= b.lo AND h.created_at <= b.hi AND h.created_at < b.mark
      )
      SELECT check_id AS id, sum(passed)::int AS passed, sum(failed)::int AS failed,
             round(sum(p95 * timed) / nullif(sum(timed) FILTER (WHERE p95 IS NOT NULL), 0))::int AS p95,
             round(sum(p97 * timed) / nullif(sum(timed) FILTER (WHERE p97 IS NOT NULL), 0))::int AS p97,
             round(sum(p99 * timed) / nullif(sum(timed) FILTER (WHERE p99 IS NOT NULL), 0))::int AS p99,
             round(sum(rs)::numeric / nullif(sum(rt), 0))::int AS rolling1h
      FROM parts GROUP BY check_id`;
    const rawFrom = new Date(now - 20 * 86_400_000);
    let compared = 0;
    for (let step = 0; step < 16; step += 1) {
      const end = new Date(now - step * 37 * 60_000 - Math.floor(random() * 3_600_000));
      const start = new Date(
        end.getTime() - (1 + Math.floor(random() * 23)) * 3_600_000 - Math.floor(random() * 3_600_000),
      );
      const { rows } = await db.pool.query<{
        id: string;
        passed: number;
        failed: number;
        p95: number | null;
        p97: number | null;
        p99: number | null;
        rolling1h: number | null;
      }>(reference, [start, end, rawFrom, ids]);
      const summary = await service.summary({ start, end, checkIds: ids });
      for (const row of rows) {
        const check = byId(summary, row.id);
        expect(check?.uptime, `${start.toISOString()}..${end.toISOString()}`).toEqual({
          passed: row.passed,
          failed: row.failed,
        });
        const latency: Record<string, number> = {};
        for (const key of ['rolling1h', 'p95', 'p97', 'p99'] as const)
          if (row[key] !== null) latency[key] = row[key];
        expect(check?.latency, `${start.toISOString()}..${end.toISOString()}`).toEqual(latency);
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(30);
  });

  it("reads the health page's summary from rollups kept per process exactly as from SQL, and follows every rollup change", async () => {
    // Six days of statuses of three checks, everything before the hour that began 3 hours ago
    // packed, raw statuses kept 3 days: ranges of up to 4 days hold packed hours, whole packed
    // days and days before the raw retention. The health page's summary (every check, by label)
    // reads packed buckets from the process's cache; a summary by check ids (check detail)
    // reads them in SQL: both must agree, before and after the rollups change behind the cache.
    const page = createHealthService({
      pool: db.pool,
      jobs: { startJob: () => Promise.reject(new Error('not used')) },
      logger: silent,
      retentionDays: 3,
    });
    const canary = await createCanary(db.pool, { name: 'rollup-cache' });
    const labels = { suite: 'rollup-cache' };
    const ids: string[] = [];
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const now = Date.now();
    for (let index = 0; index < 3; index += 1) {
      const check = await createCheck(db.pool, { canary_id: canary.id, name: `cached-${index}`, labels });
      ids.push(check.id as string);
      await insertRandomStatuses(check.id as string, now - 6 * 86_400_000, now, [20, 25], random);
    }
    const packedBefore = new Date(Math.floor(now / 3_600_000) * 3_600_000 - 3 * 3_600_000);
    await compactCheckStatuses(db.pool, { before: packedBefore });

    // Checks whose other columns vary: never run (no status, no run times), deleted, failing.
    const extra: string[] = [];
    for (const [name, overrides] of [
      ['never-run', { status: null, last_runtime: null, last_transition_time: null }],
      [
        'deleted',
        { status: 'unhealthy', last_runtime: new Date(now - 1234), deleted_at: new Date(now - 60_000) },
      ],
      [
        'failing',
        {
          status: 'unhealthy',
          last_runtime: new Date(now - 567),
          last_transition_time: new Date(now - 89_000),
        },
      ],
    ] as const) {
      const check = await createCheck(db.pool, {
        canary_id: canary.id,
        name: `cached-${name}`,
        labels,
        ...overrides,
      });
      extra.push(check.id as string);
    }
    const compare = async (start: Date, end: Date) => {
      const cached = await page.summary({ start, end, labels });
      const reference = await page.summary({ start, end, checkIds: [...ids, ...extra] });
      expect(extra.filter((id) => byId(cached, id)).length).toBeGreaterThan(0);
      const measured = (checks: CheckSummary[]) =>
        ids.map((id) => {
          const check = byId(checks, id);
          return { id, uptime: check?.uptime, latency: check?.latency };
        });
      // Whole objects: status, run times and descriptive fields are read apart too.
      expect(
        [...ids, ...extra].map((id) => byId(cached, id)),
        `${start.toISOString()}..${end.toISOString()}`,
      ).toEqual([...ids, ...extra].map((id) => byId(reference, id)));
      return measured(cached);
    };
    const randomRange = () => {
      const end = new Date(now - Math.floor(random() * 30 * 3_600_000));
      const hours = random() < 0.5 ? 1 + Math.floor(random() * 24) : 24 + Math.floor(random() * 72);
      return [new Date(end.getTime() - hours * 3_600_000 - Math.floor(random() * 3_600_000)), end] as const;
    };
    const shapes = { days: 0, rolled: 0 };
    for (let step = 0; step < 24; step += 1) {
      const [start, end] = randomRange();
      if (end.getTime() - start.getTime() > 2 * 86_400_000) shapes.days += 1;
      if (start < rawStatusesFrom(new Date(), 3)) shapes.rolled += 1;
      await compare(start, end);
    }
    // Edges on the rules' boundaries: an hour starting exactly 90 minutes before the end (counts
    // towards rolling1h), a range whose rounded start is a UTC midnight (that day is whole), and
    // one whose rounded end is (the day before it is the last whole one).
    const hour = Math.floor(now / 3_600_000) * 3_600_000;
    const midnight = Math.floor(now / 86_400_000) * 86_400_000;
    await compare(new Date(hour - 4.5 * 3_600_000), new Date(hour - 3.5 * 3_600_000));
    await compare(new Date(midnight - 3 * 86_400_000 + 1_800_000), new Date(now));
    await compare(new Date(midnight - 3 * 86_400_000), new Date(midnight + 1_800_000));
    expect(shapes.days).toBeGreaterThan(2);
    expect(shapes.rolled).toBeGreaterThan(2);

    // A 4-day range, cached; then the rollups change behind the cache in every way they can.
    const start = new Date(now - 4 * 86_400_000);
    const end = new Date(now);
    const before = await compare(start, end);
    // Rolling up again what is unchanged rewrites no bucket (so the cache keeps them all).
    await rollupCheckStatuses(db.pool, '1h');
    await rollupCheckStatuses(db.pool, '1d');
    const versions = await db.pool.query(
      'SELECT granularity, bucket, version FROM check_rollup_versions ORDER BY 1, 2',
    );
    expect(versions.rows.length).toBeGreaterThan(100);
    await rollupCheckStatuses(db.pool, '1h');
    await rollupCheckStatuses(db.pool, '1d');
    await compactCheckStatuses(db.pool, { before: packedBefore });
    expect(
      (await db.pool.query('SELECT granularity, bucket, version FROM check_rollup_versions ORDER BY 1, 2'))
        .rows,
    ).toEqual(versions.rows);
    // A result recorded late for a packed hour: counted raw at once, then merged into its hour.
    await db.pool.query(
      'INSERT INTO check_statuses (check_id, time, duration, status) VALUES ($1, $2, 100000, false)',
      [ids[0], new Date(packedBefore.getTime() - 5 * 3_600_000 + 1234)],
    );
    const late = await compare(start, end);
    expect(late[0].uptime?.failed).toBe((before[0].uptime?.failed ?? 0) + 1);
    await compactCheckStatuses(db.pool, { before: packedBefore });
    // (its percentiles now come from the hour's own, so only the counts stay as they were)
    expect((await compare(start, end)).map((check) => check.uptime)).toEqual(
      late.map((check) => check.uptime),
    );
    // An hour and a day rewritten, and a check's rollups deleted, by hand.
    await db.pool.query(
      `UPDATE check_statuses_1h SET passed = passed + 5, total = total + 5
       WHERE check_id = $1 AND created_at = (SELECT max(created_at) FROM check_statuses_1h WHERE check_id = $1 AND created_at < $2)`,
      [ids[1], packedBefore],
    );
    await db.pool.query(
      `UPDATE check_statuses_1d SET duration_p95 = duration_p95 + 1000
       WHERE check_id = $1 AND created_at = $2`,
      [ids[2], new Date(Math.floor((now - 2 * 86_400_000) / 86_400_000) * 86_400_000)],
    );
    const edited = await compare(start, end);
    expect(edited[1].uptime?.passed).toBe((late[1].uptime?.passed ?? 0) + 5);
    expect(edited[2].latency).not.toEqual(late[2].latency);
    await db.pool.query('DELETE FROM check_statuses_1h WHERE check_id = $1', [ids[0]]);
    await db.pool.query('DELETE FROM check_statuses_1d WHERE check_id = $1', [ids[0]]);
    const deleted = await compare(start, end);
    expect(deleted[0].uptime?.passed).toBeLessThan(late[0].uptime?.passed ?? 0);
    // TRUNCATE fires no row or transition-table trigger: it moves the granularity's version.
    await db.pool.query('TRUNCATE check_statuses_1h');
    const truncated = await compare(start, end);
    expect(truncated[1].uptime?.passed).toBeLessThan(edited[1].uptime?.passed ?? 0);
  });
});
