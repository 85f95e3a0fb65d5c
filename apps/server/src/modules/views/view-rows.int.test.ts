import { viewResultSchema, viewRowsPageSchema, type ViewRowsPage } from '@opsdeck/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPerson } from '../../../test/harness/factories.js';
import { startFullApp, type FullApp } from '../../../test/harness/full-app.js';
import { createTokenForUser } from '../auth/index.js';
import { COUNT_CAP } from './view-rows.js';

// Pages of a view's rows by keyset (POST /api/view/{id}/rows): every page read after the previous
// page's cursor, in the table's order, gives exactly the rows SQL orders the same way.
let full: FullApp;
const tokens: Record<string, string> = {};

const ITEMS = 137;

async function call(role: string, url: string, payload: unknown) {
  return full.app.inject({
    method: 'POST',
    url,
    payload: JSON.stringify(payload),
    headers: { authorization: `Bearer ${tokens[role]}`, 'content-type': 'application/json' },
  });
}

async function createView(name: string, spec: unknown): Promise<{ id: string; fingerprint: string }> {
  const created = await full.send('POST', '/api/db/views', { name, namespace: 'keyset', spec });
  expect(created.statusCode, created.body).toBe(201);
  const id = (created.json() as Array<{ id: string }>)[0].id;
  const ran = await call('viewer', `/api/view/${id}`, {});
  expect(ran.statusCode, ran.body).toBe(200);
  return { id, fingerprint: viewResultSchema.parse(ran.json()).requestFingerprint };
}

async function page(id: string, body: Record<string, unknown>): Promise<ViewRowsPage> {
  const response = await call('viewer', `/api/view/${id}/rows`, body);
  expect(response.statusCode, response.body).toBe(200);
  return viewRowsPageSchema.parse(response.json());
}

/** Every page from the first, each after the previous page's cursor. */
async function allPages(id: string, body: Record<string, unknown>, limit: number) {
  const pages: ViewRowsPage[] = [];
  let after: string | undefined;
  do {
    const next = await page(id, { ...body, limit, ...(after ? { after } : {}) });
    pages.push(next);
    after = next.next ?? undefined;
  } while (after && pages.length < 100);
  return pages;
}

const spec = (primaryKey: boolean) => ({
  cache: { maxAge: '10m', minAge: '0s' },
  queries: { items: { configs: { types: ['Keyset::Item'] } } },
  columns: [
    { name: 'name', type: 'string', primaryKey },
    { name: 'rank', type: 'number' },
    { name: 'health', type: 'health', filterable: true },
    { name: 'created_at', type: 'datetime' },
  ],
  mapping: { rank: 'row.cost_per_minute' },
});

let keyed: { id: string; fingerprint: string };
let unkeyed: { id: string; fingerprint: string };

beforeAll(async () => {
  full = await startFullApp('Keyset Admin');
  for (const role of ['viewer', 'none'] as const) {
    const person = await createPerson(full.db.pool, { roles: role === 'none' ? [] : [role] });
    tokens[role] = await createTokenForUser(full.db.pool, { email: person.email as string, name: role });
  }
  // Ranks repeat (ties broken by the tiebreak), every 10th is null (after the others), and the
  // timestamps carry microseconds (a cursor must keep them exactly).
  await full.db.pool.query(
    `INSERT INTO config_items (type, config_class, name, health, cost_per_minute, created_at)
     SELECT 'Keyset::Item', 'Item', 'item-' || lpad(i::text, 4, '0'),
            (ARRAY['healthy', 'unhealthy', 'warning'])[1 + i % 3],
            CASE WHEN i % 10 = 0 THEN NULL ELSE (i % 7)::numeric END,
            timestamptz '2026-01-01' + i * interval '1.000123 second'
       FROM generate_series(1, $1::int) AS i`,
    [ITEMS],
  );
  keyed = await createView('keyed', spec(true));
  unkeyed = await createView('unkeyed', spec(false));
}, 120_000);

afterAll(async () => {
  await full?.close();
});

describe('keyset pages of a view', () => {
  it('read, page after page, the rows of the default order: first column descending', async () => {
    const pages = await allPages(keyed.id, { requestFingerprint: keyed.fingerprint }, 50);
    expect(pages.map((p) => p.rows.length)).toEqual([50, 50, 37]);
    expect(pages.at(-1)!.next).toBeNull();
    expect(pages.every((p) => p.total === ITEMS && p.totalExact)).toBe(true);
    const names = pages.flatMap((p) => p.rows.map((row) => row.name));
    const { rows } = await full.db.pool.query<{ name: string }>(
      `SELECT name FROM config_items WHERE type = 'Keyset::Item' ORDER BY name DESC`,
    );
    expect(names).toEqual(rows.map((row) => row.name));
    expect(pages[0].rows[0]).toMatchObject({ name: 'item-0137', health: 'warning', rank: 4 });
  });

  for (const [label, view, tiebreak] of [
    ['with a primary key', () => keyed, 'name'],
    ['without one (the row position breaks ties)', () => unkeyed, null],
  ] as const) {
    for (const order of ['desc', 'asc'] as const) {
      it(`order by a column with ties and nulls, ${order}, ${label}`, async () => {
        const { id, fingerprint } = view();
        const pages = await allPages(
          id,
          { requestFingerprint: fingerprint, sortBy: 'rank', sortOrder: order },
          9,
        );
        const rows = pages.flatMap((p) => p.rows);
        expect(rows).toHaveLength(ITEMS);
        expect(new Set(rows.map((row) => row.name)).size).toBe(ITEMS);
        const ranks = rows.map((row) => row.rank as number | null);
        const present = ranks.filter((rank): rank is number => rank !== null);
        expect(ranks.slice(present.length).every((rank) => rank === null)).toBe(true);
        expect(present).toEqual([...present].sort((a, b) => (order === 'desc' ? b - a : a - b)));
        if (tiebreak) {
          const { rows: expected } = await full.db.pool.query<{ name: string }>(
            `SELECT name FROM config_items WHERE type = 'Keyset::Item'
              ORDER BY cost_per_minute ${order} NULLS LAST, name ${order}`,
          );
          expect(rows.map((row) => row.name)).toEqual(expected.map((row) => row.name));
        }
      });
    }
  }

  it('keeps sub-millisecond sort values exact in its cursor', async () => {
    const pages = await allPages(
      unkeyed.id,
      { requestFingerprint: unkeyed.fingerprint, sortBy: 'created_at', sortOrder: 'asc' },
      10,
    );
    const names = pages.flatMap((p) => p.rows.map((row) => row.name));
    expect(names).toEqual(Array.from({ length: ITEMS }, (_, i) => `item-${String(i + 1).padStart(4, '0')}`));
  });

  it('filters, counts the filtered rows, and answers an offset page like the keyset page', async () => {
    const body = { requestFingerprint: keyed.fingerprint, filters: { health: ['unhealthy', 'warning'] } };
    const pages = await allPages(keyed.id, body, 20);
    const rows = pages.flatMap((p) => p.rows);
    expect(rows.every((row) => row.health === 'unhealthy' || row.health === 'warning')).toBe(true);
    expect(rows).toHaveLength(92);
    expect(pages[0]).toMatchObject({ total: 92, totalExact: true });
    const byOffset = await page(keyed.id, { ...body, limit: 20, offset: 40 });
    expect(byOffset.rows).toEqual(pages[2].rows);
    expect(byOffset.next).not.toBeNull();
  });

  it('estimates a filtered total past the count cap, and says so', async () => {
    await full.db.pool.query(
      `INSERT INTO config_items (type, config_class, name, health)
       SELECT 'Keyset::Many', 'Item', 'many-' || i, 'healthy' FROM generate_series(1, $1::int) AS i`,
      [COUNT_CAP + 500],
    );
    const many = await createView('many', {
      queries: { items: { configs: { types: ['Keyset::Many'] } } },
      columns: [
        { name: 'name', type: 'string', primaryKey: true },
        { name: 'health', type: 'health', filterable: true },
      ],
    });
    await full.db.pool.query('ANALYZE view_keyset_many');
    const unfiltered = await page(many.id, { requestFingerprint: many.fingerprint });
    expect(unfiltered).toMatchObject({ total: COUNT_CAP + 500, totalExact: true });
    const filtered = await page(many.id, {
      requestFingerprint: many.fingerprint,
      filters: { health: ['healthy'] },
    });
    expect(filtered.totalExact).toBe(false);
    expect(filtered.total).toBeGreaterThan(COUNT_CAP);
    expect(filtered.rows).toHaveLength(50);
  }, 60_000);

  it('refuses what it cannot answer with a 4xx naming the field', async () => {
    const base = `/api/view/${keyed.id}/rows`;
    const cases: Array<[unknown, number, string, RegExp]> = [
      [{ requestFingerprint: keyed.fingerprint, sortBy: 'nope' }, 400, 'sortBy', /^sortBy: /],
      [
        { requestFingerprint: keyed.fingerprint, filters: { nope: ['x'] } },
        400,
        'filters.nope',
        /^filters\.nope: /,
      ],
      [{ requestFingerprint: keyed.fingerprint, after: 'garbage!' }, 400, 'after', /^after: /],
      [{ requestFingerprint: keyed.fingerprint, limit: 5000 }, 400, 'limit', /at most 1000/],
      [{ requestFingerprint: 'f'.repeat(32) }, 404, 'requestFingerprint', /^requestFingerprint: /],
    ];
    for (const [body, status, field, message] of cases) {
      const response = await call('viewer', base, body);
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json()).toMatchObject({ field, error: expect.stringMatching(message) });
    }
    // A cursor of another order is refused rather than misread.
    const first = await page(keyed.id, { requestFingerprint: keyed.fingerprint, limit: 5 });
    const other = await call('viewer', base, {
      requestFingerprint: keyed.fingerprint,
      sortBy: 'rank',
      after: first.next,
    });
    expect(other.statusCode).toBe(400);
    expect((other.json() as { error: string }).error).toMatch(/^after: the cursor belongs to another order/);
    expect((await call('none', base, { requestFingerprint: keyed.fingerprint })).statusCode).toBe(403);
  });
});
