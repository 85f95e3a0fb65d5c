import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanary, createCheck, createCheckStatus, createConfigItem } from './harness/factories.js';
import { startFullApp, type FullApp } from './harness/full-app.js';

/**
 * One time grammar on every endpoint (issue 19 §3, ADR 0010): `1mo`, `now-1mo` and `24h` mean
 * the same on the health API (`start`) and the catalog API (`from`, `changes.since`), through the
 * whole app, and a value that is not a time is a 400 naming the field.
 */
let full: FullApp;
const DAY = 86_400_000;
/** Ages of the seeded rows: inside 24h, inside a month, outside a month. */
const AGES_MS = [10 * 60_000, 3 * DAY, 20 * DAY, 40 * DAY];
let checkId: string;
let configId: string;

beforeAll(async () => {
  full = await startFullApp('Time parameters admin');
  const canary = await createCanary(full.db.pool, { name: 'time-parameters' });
  const check = await createCheck(full.db.pool, { canary_id: canary.id, name: 'time-parameters-check' });
  checkId = check.id as string;
  const config = await createConfigItem(full.db.pool, { type: 'Test::TimeParameters', config_class: 'Test' });
  configId = config.id as string;
  const now = Date.now();
  for (const age of AGES_MS) {
    await createCheckStatus(full.db.pool, checkId, { time: new Date(now - age), status: true });
    await full.db.pool.query(
      `INSERT INTO config_changes (config_id, change_type, created_at) VALUES ($1, 'diff', $2)`,
      [configId, new Date(now - age)],
    );
  }
});

afterAll(async () => {
  await full?.close();
});

/** How many of the seeded rows a start of this form covers. */
const COVERED: Array<[string, number]> = [
  ['1mo', 3],
  ['now-1mo', 3],
  ['24h', 1],
  ['now-24h', 1],
  ['now-7d', 2],
  ['2w', 2],
  ['1y', 4],
];

describe('health API', () => {
  it.each(COVERED)('GET /api/canary/api?start=%s lists the statuses in range', async (start, covered) => {
    const response = await full.get(`/api/canary/api?check=${checkId}&start=${encodeURIComponent(start)}`);
    expect(response.statusCode).toBe(200);
    const checks = response.json<{ checks: Array<{ id: string; checkStatuses: unknown[] }> }>().checks;
    expect(checks.find((row) => row.id === checkId)?.checkStatuses).toHaveLength(covered);
  });

  it.each(['1mo', 'now-1mo', '24h'])('GET and POST /api/canary/api/summary take start=%s', async (start) => {
    const get = await full.get(`/api/canary/api/summary?start=${encodeURIComponent(start)}`);
    expect(get.statusCode).toBe(200);
    const ids = get.json<{ checks_summary: Array<{ id: string }> }>().checks_summary.map((row) => row.id);
    expect(ids).toContain(checkId);
    const post = await full.send('POST', '/api/canary/api/summary', { start });
    expect(post.statusCode).toBe(200);
  });

  it('answers a value that is not a time with a 400 naming the field', async () => {
    for (const url of [
      '/api/canary/api/summary?start=1month',
      `/api/canary/api?check=${checkId}&start=yesterday`,
      '/api/canary/api/summary?start=now-1h&end=now%2B1x',
    ]) {
      const response = await full.get(url);
      expect(response.statusCode, url).toBe(400);
      const field = url.includes('end=') ? 'end' : 'start';
      expect(response.json(), url).toMatchObject({
        field,
        error: expect.stringMatching(new RegExp(`^${field}: `)),
      });
    }
    const unit = await full.get('/api/canary/api/summary?start=1month');
    expect(unit.json().error).toBe(
      'start: "1month" is not a time: unknown unit "month" (use ns, us, ms, s, m, h, d, w, y, mo)',
    );
  });
});

describe('catalog API', () => {
  it.each(COVERED)(
    'POST /api/catalog/changes with from=%s finds the changes in range',
    async (from, covered) => {
      const response = await full.send('POST', '/api/catalog/changes', { id: configId, from });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ total: covered });
    },
  );

  it.each(COVERED)(
    'POST /api/catalog/summary with changes.since=%s counts the changes in range',
    async (since, covered) => {
      const response = await full.send('POST', '/api/catalog/summary', { changes: { since } });
      expect(response.statusCode).toBe(200);
      const rows = response.json<Array<{ type: string; changes?: number }>>();
      expect(rows.find((row) => row.type === 'Test::TimeParameters')?.changes).toBe(covered);
    },
  );

  it('answers a value that is not a time with a 400 naming the field', async () => {
    const changes = await full.send('POST', '/api/catalog/changes', { id: configId, from: '1month' });
    expect(changes.statusCode).toBe(400);
    expect(changes.json()).toMatchObject({
      field: 'from',
      error: 'from: "1month" is not a time: unknown unit "month" (use ns, us, ms, s, m, h, d, w, y, mo)',
    });
    const to = await full.send('POST', '/api/catalog/changes', { id: configId, to: 'tomorrow' });
    expect(to.statusCode).toBe(400);
    expect(to.json()).toMatchObject({
      field: 'to',
      error: expect.stringMatching(/^to: "tomorrow" is not a time/),
    });
    const summary = await full.send('POST', '/api/catalog/summary', { changes: { since: 'now-1.5mo' } });
    expect(summary.statusCode).toBe(400);
    expect(summary.json()).toMatchObject({
      field: 'changes.since',
      error: 'changes.since: "now-1.5mo" is not a time: months and years must be whole numbers',
    });
  });
});

describe('data API date math', () => {
  it.each(COVERED)(
    'created_at.filter=>%s on /api/db/config_changes finds the changes in range',
    async (since, covered) => {
      const response = await full.get(
        `/api/db/config_changes?select=id&config_id=eq.${configId}&created_at.filter=${encodeURIComponent(`>${since}`)}`,
      );
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toHaveLength(covered);
    },
  );
});
