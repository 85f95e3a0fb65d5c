import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSchedule } from '../../platform/jobs/index.js';
import { createLogger } from '../../platform/logger.js';
import { applyCommand, findResourceKind } from '../resources/index.js';
import { startCatalogWorkers, scraperScheduleName, updateScraper, type CatalogWorkers } from './index.js';
import { startFullApp, type FullApp } from '../../../test/harness/full-app.js';

/**
 * A scraper's schedule column, and the schedule the scheduler registers for it, follow its
 * spec whichever way the spec is written: the data API (POST/PUT/PATCH /api/db/config_scrapers,
 * wired as app.ts does), the editor's save, `opsdeck apply` and plain SQL.
 */
const FILE = [{ type: 'Sync::File', id: '$.id', paths: ['nothing.json'] }];

let full: FullApp;
let db: FullApp['db'];
let send: FullApp['send'];
let workers: CatalogWorkers;

beforeAll(async () => {
  full = await startFullApp('Sync admin');
  ({ db, send } = full);
  await full.jobs.start();
  // Polling is left to explicit refresh() calls: what a poll would see, without waiting for one.
  workers = await startCatalogWorkers({
    pool: db.pool,
    jobs: full.jobs,
    logger: createLogger('silent'),
    pollIntervalMs: 3_600_000,
  });
});

afterAll(async () => {
  await workers?.stop();
  await full?.jobs.stop();
  await full?.close();
});

interface Stored {
  schedule: string | null;
  spec: Record<string, unknown>;
  updated_at: Date;
}

async function stored(id: string): Promise<Stored> {
  const { rows } = await db.pool.query<Stored>(
    'SELECT schedule, spec, updated_at FROM config_scrapers WHERE id = $1',
    [id],
  );
  return rows[0];
}

/** The schedule row the scheduler keeps for a scraper: its expression and next run. */
async function registered(id: string): Promise<{ schedule: string; next: Date; now: Date } | undefined> {
  const { rows } = await db.pool.query<{ schedule: string; next_run_at: Date; now: Date }>(
    'SELECT schedule, next_run_at, now() AS now FROM job_schedules WHERE name = $1',
    [scraperScheduleName(id)],
  );
  return rows[0] ? { schedule: rows[0].schedule, next: rows[0].next_run_at, now: rows[0].now } : undefined;
}

/** The next run must be the schedule's next occurrence after the refresh, not a stale one. */
async function expectNextRun(id: string, schedule: string, refreshedAt: Date): Promise<void> {
  const row = await registered(id);
  expect(row?.schedule).toBe(schedule);
  const expected = parseSchedule(schedule).nextAfter(refreshedAt, scraperScheduleName(id)).getTime();
  // The refresh registered it a moment after `refreshedAt`: the same occurrence, give or take.
  expect(Math.abs((row?.next.getTime() ?? 0) - expected)).toBeLessThan(5_000);
}

async function refreshNow(): Promise<Date> {
  const { rows } = await db.pool.query<{ now: Date }>('SELECT now() AS now');
  await workers.refresh();
  return rows[0].now;
}

describe('a data-API write of a scraper spec', () => {
  it('moves the schedule column and the scheduler with PATCH, PUT and POST', async () => {
    const created = await send('POST', '/api/db/config_scrapers', {
      name: 'synced',
      spec: { schedule: '@every 30m', file: FILE },
    });
    expect(created.statusCode, created.body).toBe(201);
    const [row] = created.json<{ id: string; schedule: string | null }[]>();
    expect(row.schedule).toBe('@every 30m');
    await expectNextRun(row.id, '@every 30m', await refreshNow());

    const patched = await send('PATCH', `/api/db/config_scrapers?id=eq.${row.id}`, {
      spec: { schedule: '@every 2h', file: FILE },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject([{ schedule: '@every 2h' }]);
    expect((await stored(row.id)).schedule).toBe('@every 2h');
    await expectNextRun(row.id, '@every 2h', await refreshNow());

    // No schedule in the spec: the column is cleared and the scraper runs hourly.
    const cleared = await send('PATCH', `/api/db/config_scrapers?id=eq.${row.id}`, { spec: { file: FILE } });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect((await stored(row.id)).schedule).toBeNull();
    await expectNextRun(row.id, '@every 60m', await refreshNow());

    const put = await send('PUT', `/api/db/config_scrapers?id=eq.${row.id}`, {
      id: row.id,
      name: 'synced',
      spec: { schedule: '@daily', file: FILE },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await stored(row.id)).schedule).toBe('@daily');
    await expectNextRun(row.id, '@daily', await refreshNow());

    // Several rows at once, each from its own spec; a matching schedule column is accepted.
    const many = await send('POST', '/api/db/config_scrapers', [
      { name: 'many-a', spec: { schedule: '@every 5m', file: FILE }, schedule: '@every 5m' },
      { name: 'many-b', spec: { file: FILE }, schedule: null },
    ]);
    expect(many.statusCode, many.body).toBe(201);
    expect(many.json<{ name: string; schedule: string | null }[]>().map((r) => [r.name, r.schedule])).toEqual(
      [
        ['many-a', '@every 5m'],
        ['many-b', null],
      ],
    );
  });

  it('refuses an invalid schedule, or a schedule column of its own, with the field path and changes nothing', async () => {
    const created = await send('POST', '/api/db/config_scrapers', {
      name: 'guarded-schedule',
      spec: { schedule: '@every 10m', file: FILE },
    });
    expect(created.statusCode, created.body).toBe(201);
    const [{ id }] = created.json<{ id: string }[]>();
    await workers.refresh();
    const before = await stored(id);
    const scheduleBefore = await registered(id);
    expect(scheduleBefore?.schedule).toBe('@every 10m');

    const refusals: [Record<string, unknown>, string][] = [
      [{ spec: { schedule: 'every now and then', file: FILE } }, 'spec.schedule'],
      [{ spec: { schedule: 5, file: FILE } }, 'spec.schedule'],
      [{ schedule: '@every 1m' }, 'schedule'],
      [{ spec: { schedule: '@every 20m', file: FILE }, schedule: '@every 10m' }, 'schedule'],
    ];
    for (const [body, field] of refusals) {
      for (const method of ['PATCH', 'PUT'] as const) {
        const payload =
          method === 'PUT' ? { id, name: 'guarded-schedule', spec: before.spec, ...body } : body;
        const response = await send(method, `/api/db/config_scrapers?id=eq.${id}`, payload);
        expect(response.statusCode, `${method} ${JSON.stringify(body)}: ${response.body}`).toBe(400);
        const error = response.json<{ code: string; message: string; details: string }>();
        expect(error.code).toBe('23514');
        expect(error.details).toBe(`field: ${field}`);
        expect(error.message.startsWith(`${field}: `)).toBe(true);
      }
    }
    const insert = await send('POST', '/api/db/config_scrapers', {
      name: 'refused',
      spec: { file: FILE },
      schedule: '@hourly',
    });
    expect(insert.statusCode, insert.body).toBe(400);
    expect(insert.json<{ details: string }>().details).toBe('field: schedule');

    expect(await stored(id)).toEqual(before);
    await workers.refresh();
    const scheduleAfter = await registered(id);
    expect(scheduleAfter?.schedule).toBe('@every 10m');
    expect(scheduleAfter?.next).toEqual(scheduleBefore?.next);
    const names = await db.pool.query(`SELECT 1 FROM config_scrapers WHERE name = 'refused'`);
    expect(names.rowCount).toBe(0);
  });
});

describe('every other way in', () => {
  it('keeps the schedule column equal to what the ScrapeConfig kind derives', async () => {
    const kind = findResourceKind('scrapeconfig');
    if (!kind) throw new Error('ScrapeConfig kind missing');
    const derive = (spec: Record<string, unknown>) => kind.columns(kind.spec.parse(spec)).schedule;

    // Plain SQL, including an update that tries to set the column by itself.
    const specs = [
      { schedule: '@hourly', file: FILE },
      { file: FILE },
      { schedule: '*/5 * * * *', file: FILE },
    ];
    for (const spec of specs) {
      const { rows } = await db.pool.query<{ id: string; schedule: string | null }>(
        `INSERT INTO config_scrapers (name, spec, schedule) VALUES ($1, $2, '@every 99m') RETURNING id, schedule`,
        [`sql-${JSON.stringify(spec).length}`, JSON.stringify(spec)],
      );
      expect(rows[0].schedule).toBe(derive(spec));
      await db.pool.query(`UPDATE config_scrapers SET schedule = '@every 7m' WHERE id = $1`, [rows[0].id]);
      expect((await stored(rows[0].id)).schedule).toBe(derive(spec));
    }

    // The editor's save.
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO config_scrapers (name, spec) VALUES ('edited', $1) RETURNING id`,
      [JSON.stringify({ file: FILE })],
    );
    const saved = await updateScraper(db.pool, rows[0].id, { spec: { schedule: '@every 15m', file: FILE } });
    expect(saved.schedule).toBe('@every 15m');
    await workers.refresh();
    expect((await registered(rows[0].id))?.schedule).toBe('@every 15m');

    // opsdeck apply (RESOURCES_DIR stores through the same applyResource).
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'opsdeck-schedule-sync-'));
    try {
      const file = path.join(dir, 'scraper.yaml');
      const yaml = (schedule: string) =>
        [
          'apiVersion: configs.flanksource.com/v1',
          'kind: ScrapeConfig',
          'metadata: {name: applied, namespace: sync}',
          'spec:',
          `  schedule: "${schedule}"`,
          '  file: [{type: "Sync::File", id: "$.id", paths: ["nothing.json"]}]',
          '',
        ].join('\n');
      const out = { write: () => undefined };
      await fs.writeFile(file, yaml('@every 45m'));
      expect(await applyCommand(db.pool, [file], out)).toBe(0);
      await fs.writeFile(file, yaml('@every 3h'));
      expect(await applyCommand(db.pool, [file], out)).toBe(0);
      const applied = await db.pool.query<{ id: string; schedule: string }>(
        `SELECT id, schedule FROM config_scrapers WHERE namespace = 'sync' AND name = 'applied'`,
      );
      expect(applied.rows[0].schedule).toBe('@every 3h');
      await workers.refresh();
      expect((await registered(applied.rows[0].id))?.schedule).toBe('@every 3h');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
