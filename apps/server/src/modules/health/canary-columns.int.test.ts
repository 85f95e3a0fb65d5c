import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findResourceKind } from '../resources/index.js';
import { startFullApp, type FullApp } from '../../../test/harness/full-app.js';
import { canaryScheduleOf } from './canary-runner.js';

/**
 * A canary's `icon` and `schedule` columns follow its spec whichever way the spec is written:
 * the data API (POST/PUT/PATCH /api/db/canaries, wired as app.ts does) and plain SQL
 * (migration 0062), with the values the Canary kind derives on apply.
 */
let full: FullApp;
let db: FullApp['db'];
let send: FullApp['send'];

beforeAll(async () => {
  full = await startFullApp('Canary columns admin');
  ({ db, send } = full);
});

afterAll(async () => {
  await full?.close();
});

interface Stored {
  icon: string | null;
  schedule: string | null;
  spec: Record<string, unknown>;
  updated_at: Date;
}

async function stored(id: string): Promise<Stored> {
  const { rows } = await db.pool.query<Stored>(
    'SELECT icon, schedule, spec, updated_at FROM canaries WHERE id = $1',
    [id],
  );
  return rows[0];
}

function derive(spec: Record<string, unknown>): { icon: unknown; schedule: unknown } {
  const kind = findResourceKind('canary');
  if (!kind) throw new Error('Canary kind missing');
  const columns = kind.columns(kind.spec.parse(spec));
  return { icon: columns.icon ?? null, schedule: columns.schedule ?? null };
}

describe('a data-API write of a canary spec', () => {
  it('moves the icon and schedule columns with POST, PATCH and PUT', async () => {
    const created = await send('POST', '/api/db/canaries', {
      name: 'synced',
      spec: { schedule: '@every 30m', icon: 'http' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const [row] = created.json<{ id: string; icon: string | null; schedule: string | null }[]>();
    expect([row.icon, row.schedule]).toEqual(['http', '@every 30m']);

    const patched = await send('PATCH', `/api/db/canaries?id=eq.${row.id}`, {
      spec: { schedule: '@every 2h', icon: 'dns' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject([{ icon: 'dns', schedule: '@every 2h' }]);
    expect(await stored(row.id)).toMatchObject({ icon: 'dns', schedule: '@every 2h' });

    // The deprecated interval (seconds) schedules it when the spec names no schedule.
    const interval = await send('PATCH', `/api/db/canaries?id=eq.${row.id}`, { spec: { interval: 90 } });
    expect(interval.statusCode, interval.body).toBe(200);
    expect(await stored(row.id)).toMatchObject({ icon: null, schedule: '@every 90s' });
    expect(canaryScheduleOf(await stored(row.id))).toBe('@every 90s');

    // Neither: both columns are cleared and the runner falls back to its default.
    const cleared = await send('PATCH', `/api/db/canaries?id=eq.${row.id}`, { spec: {} });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(await stored(row.id)).toMatchObject({ icon: null, schedule: null });

    const put = await send('PUT', `/api/db/canaries?id=eq.${row.id}`, {
      id: row.id,
      name: 'synced',
      spec: { schedule: '@daily', interval: 60, icon: 'tcp' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(await stored(row.id)).toMatchObject({ icon: 'tcp', schedule: '@daily' });

    // Several rows at once, each from its own spec; matching columns are accepted.
    const many = await send('POST', '/api/db/canaries', [
      { name: 'many-a', spec: { schedule: '@every 5m', icon: 'a' }, schedule: '@every 5m', icon: 'a' },
      { name: 'many-b', spec: { interval: 30 }, schedule: '@every 30s', icon: null },
    ]);
    expect(many.statusCode, many.body).toBe(201);
    expect(
      many
        .json<{ name: string; icon: string | null; schedule: string | null }[]>()
        .map((r) => [r.name, r.icon, r.schedule]),
    ).toEqual([
      ['many-a', 'a', '@every 5m'],
      ['many-b', null, '@every 30s'],
    ]);
  });

  it('refuses a column sent apart from its spec, or an invalid spec, with the field and changes nothing', async () => {
    const created = await send('POST', '/api/db/canaries', {
      name: 'guarded',
      spec: { schedule: '@every 10m', icon: 'http' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const [{ id }] = created.json<{ id: string }[]>();
    const before = await stored(id);

    const refusals: [Record<string, unknown>, string][] = [
      [{ schedule: '@every 1m' }, 'schedule'],
      [{ icon: 'dns' }, 'icon'],
      [{ spec: { schedule: '@every 20m' }, schedule: '@every 10m' }, 'schedule'],
      [{ spec: { interval: 60 }, schedule: '@every 60m' }, 'schedule'],
      [{ spec: { icon: 'dns' }, icon: 'http' }, 'icon'],
      [{ spec: { schedule: 'every now and then' } }, 'spec.schedule'],
      [{ spec: { interval: 'often' } }, 'spec.interval'],
    ];
    for (const [body, field] of refusals) {
      for (const method of ['PATCH', 'PUT'] as const) {
        const payload = method === 'PUT' ? { id, name: 'guarded', spec: before.spec, ...body } : body;
        const response = await send(method, `/api/db/canaries?id=eq.${id}`, payload);
        expect(response.statusCode, `${method} ${JSON.stringify(body)}: ${response.body}`).toBe(400);
        const error = response.json<{ message: string; details: string }>();
        expect(error.details).toBe(`field: ${field}`);
        expect(error.message.startsWith(`${field}: `)).toBe(true);
      }
    }
    const insert = await send('POST', '/api/db/canaries', {
      name: 'refused',
      spec: {},
      schedule: '@hourly',
    });
    expect(insert.statusCode, insert.body).toBe(400);
    expect(insert.json<{ details: string }>().details).toBe('field: schedule');

    expect(await stored(id)).toEqual(before);
    const names = await db.pool.query(`SELECT 1 FROM canaries WHERE name = 'refused'`);
    expect(names.rowCount).toBe(0);
  });
});

describe('plain SQL', () => {
  it('keeps the columns equal to what the Canary kind derives, and the runner schedules by them', async () => {
    const specs: Record<string, unknown>[] = [
      { schedule: '@hourly', icon: 'http' },
      { schedule: '  */5 * * * *  ' },
      { interval: 45, icon: '' },
      { interval: 0 },
      { schedule: '@every 1m', interval: 30 },
      {},
    ];
    for (const [index, spec] of specs.entries()) {
      const { rows } = await db.pool.query<{ id: string; icon: string | null; schedule: string | null }>(
        `INSERT INTO canaries (name, spec, icon, schedule) VALUES ($1, $2, 'stale', '@every 99m')
         RETURNING id, icon, schedule`,
        [`sql-${index}`, JSON.stringify(spec)],
      );
      expect({ icon: rows[0].icon, schedule: rows[0].schedule }, JSON.stringify(spec)).toEqual(derive(spec));
      // An update that sets a column by itself does not stick either.
      await db.pool.query(`UPDATE canaries SET schedule = '@every 7m', icon = 'x' WHERE id = $1`, [
        rows[0].id,
      ]);
      const after = await stored(rows[0].id);
      expect({ icon: after.icon, schedule: after.schedule }, JSON.stringify(spec)).toEqual(derive(spec));
      // The runner reads the spec first: it agrees with the column wherever the spec names one.
      if (after.schedule) expect(canaryScheduleOf(after)).toBe(after.schedule);
    }

    // The runner's looser inputs (a numeric string, a fraction) get the same value in the column.
    for (const interval of ['120', 2.4, 0.2]) {
      const spec = { interval };
      const { rows } = await db.pool.query<{ schedule: string | null; spec: unknown }>(
        `INSERT INTO canaries (name, spec) VALUES ($1, $2) RETURNING schedule, spec`,
        [`loose-${String(interval)}`, JSON.stringify(spec)],
      );
      expect(rows[0].schedule).toBe(canaryScheduleOf({ spec, schedule: null }));
    }
  });
});
