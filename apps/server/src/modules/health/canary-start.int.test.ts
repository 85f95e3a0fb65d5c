// Worker start with many canaries (issue 22): their checks rows and schedules are written in a
// few statements per batch, not a few round trips per canary, and a restart rewrites nothing.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import type { Pool } from '../../platform/db/pool.js';
import { createJobsService, type JobsService } from '../../platform/jobs/index.js';
import { loadCanary, syncCanariesChecks, syncCanaryChecks } from './canary-sync.js';
import { startHealthWorkers } from './index.js';

const logger = pino({ level: 'silent' });
const CANARIES = 300;
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.close();
});

/** The pool, counting the statements sent through its query() (the real database answers them). */
function countingPool(pool: Pool): { pool: Pool; statements: () => number } {
  let statements = 0;
  const counted = new Proxy(pool, {
    get(target, property) {
      if (property === 'query') {
        return (...args: Parameters<Pool['query']>) => {
          statements += 1;
          return (target.query as (...rest: unknown[]) => unknown)(...args);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...rest: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { pool: counted, statements: () => statements };
}

async function insertCanaries(prefix: string, count: number): Promise<void> {
  await db.pool.query(
    `INSERT INTO canaries (id, name, namespace, spec, source)
     SELECT gen_random_uuid(), $1::text || '-' || c, 'start',
            jsonb_build_object('schedule', '@every 1h',
              'http', jsonb_build_array(jsonb_build_object('name', 'home', 'url', 'http://127.0.0.1:9/' || c)),
              'tcp', jsonb_build_array(jsonb_build_object('name', 'port', 'endpoint', '127.0.0.1:' || (1000 + c)))),
            'test'
       FROM generate_series(1, $2::integer) AS c`,
    [prefix, count],
  );
}

async function checksOf(prefix: string): Promise<Array<{ id: string; xmin: string; deleted: boolean }>> {
  const { rows } = await db.pool.query<{ id: string; xmin: string; deleted: boolean }>(
    `SELECT c.id, c.xmin::text AS xmin, c.deleted_at IS NOT NULL AS deleted
     FROM checks c JOIN canaries k ON k.id = c.canary_id WHERE k.name LIKE $1 || '-%' ORDER BY c.id`,
    [prefix],
  );
  return rows;
}

describe('starting the health workers', () => {
  let jobs: JobsService | undefined;

  afterAll(async () => {
    await jobs?.stop({ graceMs: 1000 });
  });

  it('registers every canary and syncs its checks in a few statements, and a restart writes none of them again', async () => {
    await insertCanaries('many', CANARIES);
    const counting = countingPool(db.pool);
    jobs = createJobsService({ pool: counting.pool, logger, schedules: { pollIntervalMs: 60_000 } });
    await jobs.start();

    const before = counting.statements();
    const workers = await startHealthWorkers({ pool: counting.pool, jobs, logger, pollIntervalMs: 60_000 });
    const statements = counting.statements() - before;
    // One round trip or more per canary before (1,200 here); now a few per batch of 500.
    expect(statements).toBeLessThan(25);

    const { rows: schedules } = await db.pool.query<{ count: number }>(
      `SELECT count(*)::integer AS count FROM job_schedules s JOIN canaries k ON s.name = 'canary:' || k.id
       WHERE k.name LIKE 'many-%' AND s.schedule = '@every 1h'`,
    );
    expect(schedules[0].count).toBe(CANARIES);
    const checks = await checksOf('many');
    expect(checks).toHaveLength(CANARIES * 2);
    expect(checks.every((check) => !check.deleted)).toBe(true);
    await workers.stop();

    // Another process starting (nothing known yet) finds every checks row as declared.
    const again = await startHealthWorkers({ pool: db.pool, jobs, logger, pollIntervalMs: 60_000 });
    expect(await checksOf('many')).toEqual(checks);
    await again.stop();
  });
});

describe('syncing many canaries at once', () => {
  it('answers each canary its checks, writes only rows that differ and soft-deletes undeclared ones', async () => {
    await insertCanaries('batch', 3);
    const { rows } = await db.pool.query<{ id: string }>(
      "SELECT id FROM canaries WHERE name LIKE 'batch-%' ORDER BY name",
    );
    const canaries = await Promise.all(rows.map(async (row) => (await loadCanary(db.pool, row.id))!));
    const [first, second, third] = await syncCanariesChecks(db.pool, canaries);
    expect(first.map((check) => check.entry.name).sort()).toEqual(['home', 'port']);
    expect(new Set([...first, ...second, ...third].map((check) => check.id)).size).toBe(6);
    const synced = await checksOf('batch');

    // The same canaries again (a canary listed twice counts once): nothing is written.
    const repeated = await syncCanariesChecks(db.pool, [...canaries, canaries[0]]);
    expect(repeated[0].map((check) => check.id).sort()).toEqual(first.map((check) => check.id).sort());
    expect(repeated[3]).toEqual(repeated[0]);
    expect(await checksOf('batch')).toEqual(synced);

    // One canary loses its tcp check, one is deleted, one changes its http url: only those rows change.
    const [kept, deleted, changed] = canaries;
    const spec = kept.spec as { http: unknown[] };
    const changedSpec = changed.spec as { http: Array<Record<string, unknown>>; tcp: unknown[] };
    const after = await syncCanariesChecks(db.pool, [
      { ...kept, spec: { http: spec.http } },
      { ...deleted, deleted_at: new Date() },
      {
        ...changed,
        spec: { ...changedSpec, http: [{ ...changedSpec.http[0], url: 'http://127.0.0.1:9/new' }] },
      },
    ]);
    expect(after[0].map((check) => check.entry.name)).toEqual(['home']);
    expect(after[1]).toEqual([]);
    const { rows: states } = await db.pool.query<{
      canary: string;
      name: string;
      deleted: boolean;
      endpoint: string;
    }>(
      `SELECT k.name AS canary, c.name, c.deleted_at IS NOT NULL AS deleted, c.endpoint
       FROM checks c JOIN canaries k ON k.id = c.canary_id WHERE k.name LIKE 'batch-%' ORDER BY k.name, c.name`,
    );
    expect(states.map((row) => `${row.canary}/${row.name}:${row.deleted ? 'deleted' : 'live'}`)).toEqual([
      'batch-1/home:live',
      'batch-1/port:deleted',
      'batch-2/home:deleted',
      'batch-2/port:deleted',
      'batch-3/home:live',
      'batch-3/port:live',
    ]);
    expect(states.find((row) => row.canary === 'batch-3' && row.name === 'home')?.endpoint).toBe(
      'http://127.0.0.1:9/new',
    );
    const xminOf = new Map(synced.map((row) => [row.id, row.xmin]));
    const untouched = (await checksOf('batch')).filter((row) => xminOf.get(row.id) === row.xmin);
    // batch-1/home and batch-3/port were already as declared.
    expect(untouched).toHaveLength(2);

    // A check back in the spec is live again, with its id (and so its history).
    const restored = await syncCanaryChecks(db.pool, kept);
    expect(restored.find((check) => check.entry.name === 'port')?.id).toBe(
      first.find((check) => check.entry.name === 'port')?.id,
    );
    const { rows: back } = await db.pool.query<{ deleted: boolean }>(
      `SELECT deleted_at IS NOT NULL AS deleted FROM checks WHERE canary_id = $1 AND name = 'port'`,
      [kept.id],
    );
    expect(back).toEqual([{ deleted: false }]);
  });
});
