/**
 * The plan cache (engine.ts): a request's plan is cached by its shape (relation, select tree,
 * filter operators, order, preferences, media) with every value bound as a parameter, and row
 * restrictions are compiled per restriction shape with their values bound too. These tests run
 * the engine against the fixture schema and check rows, not only hit counts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness/db.js';
import { createSchemaCatalog, type SchemaCatalog } from './catalog.js';
import { fixtureAllowlist, FIXTURE_SCHEMA, ID, installFixture } from './conformance-fixture.js';
import { DataApiEngine, type EngineRequest, type TargetAuthorizer } from './engine.js';
import type { RowFilter } from './row-filters.js';

let db: TestDatabase;
let catalog: SchemaCatalog;

beforeAll(async () => {
  db = await createTestDatabase();
  await installFixture(db.pool);
  catalog = createSchemaCatalog(db.pool, { schema: FIXTURE_SCHEMA });
});

afterAll(async () => {
  await db.close();
});

function engineWith(planCacheSize?: number): DataApiEngine {
  return new DataApiEngine({
    pool: db.pool,
    readPool: null,
    catalog,
    allowlist: fixtureAllowlist,
    maxRows: 1000,
    statementTimeoutMs: 5000,
    planCacheSize,
  });
}

function get(path: string, prefer?: string): EngineRequest {
  const [name, query = ''] = path.split('?');
  return {
    method: 'GET',
    target: { kind: 'relation', name },
    rawQuery: query,
    headers: { accept: 'application/json', prefer },
    body: undefined,
    basePath: '/api/db',
  };
}

const allowAll: TargetAuthorizer = async () => ({ allow: true });

/** Incidents created by `person` only: the person's id is a value of the restriction. */
function createdBy(person: string): TargetAuthorizer {
  return async (target) => {
    const rowFilters: RowFilter[] =
      target.relation === 'incidents'
        ? [{ kind: 'compare', column: 'created_by', op: 'eq', value: person }]
        : [];
    return { allow: true, rowFilters };
  };
}

async function rows(
  engine: DataApiEngine,
  request: EngineRequest,
  authorize: TargetAuthorizer = allowAll,
): Promise<{ status: number; body: unknown; range: string | undefined }> {
  const response = await engine.handle(request, authorize);
  return {
    status: response.status,
    body: response.body === null ? null : JSON.parse(response.body),
    range: response.headers['content-range'],
  };
}

describe('plan cache', () => {
  it('reuses one plan for one shape with different values, and each answer has its own rows', async () => {
    const engine = engineWith();
    const first = await rows(engine, get(`incidents?select=id,title&id=eq.${ID.dbDown}`));
    const second = await rows(engine, get(`incidents?select=id,title&id=eq.${ID.slowApi}`));
    const third = await rows(engine, get(`incidents?select=id,title&id=eq.${ID.diskFull}`));
    expect(first.body).toEqual([{ id: ID.dbDown, title: 'Database down' }]);
    expect(second.body).toEqual([{ id: ID.slowApi, title: 'Slow API' }]);
    expect(third.body).toEqual([{ id: ID.diskFull, title: 'Disk full' }]);
    expect(engine.planCacheStats()).toMatchObject({ size: 1, misses: 1, hits: 2 });

    // in-lists of different lengths, limits and offsets are values too
    const a = await rows(engine, get(`incidents?select=title&status=in.(open)&order=title.asc&limit=1`));
    const b = await rows(
      engine,
      get(`incidents?select=title&status=in.(open,closed)&order=title.asc&limit=3&offset=1`),
    );
    expect(a.body).toEqual([{ title: 'Database down' }]);
    expect(b.body).toEqual([{ title: 'Database down' }, { title: 'Disk full' }, { title: 'Slow API' }]);
    expect(engine.planCacheStats()).toMatchObject({ size: 2, misses: 2, hits: 3 });
  });

  it('keeps shapes apart: operator, negation, column, order, select, count and media each get their own plan', async () => {
    const engine = engineWith();
    const variants: Array<[EngineRequest, unknown]> = [
      [
        get('incidents?select=title&severity=eq.1&order=title.asc'),
        [{ title: 'Cert expiry, again' }, { title: 'Database down' }],
      ],
      [
        get('incidents?select=title&severity=gt.1&order=title.asc'),
        [{ title: 'Disk full' }, { title: 'Slow API' }],
      ],
      [
        get('incidents?select=title&severity=not.eq.1&order=title.asc'),
        [{ title: 'Disk full' }, { title: 'Slow API' }],
      ],
      [
        get('incidents?select=title&severity=eq.1&order=title.desc'),
        [{ title: 'Database down' }, { title: 'Cert expiry, again' }],
      ],
      [get('incidents?select=id&severity=eq.1&order=title.asc'), [{ id: ID.certExpiry }, { id: ID.dbDown }]],
      [get('incidents?select=title&status=eq.1&order=title.asc'), []],
      [get('incidents?select=title&severity=is.null&order=title.asc'), []],
    ];
    for (const [request, expected] of variants) {
      expect((await rows(engine, request)).body, request.rawQuery).toEqual(expected);
    }
    const counted = await rows(engine, get('incidents?select=title&severity=eq.1&order=title.asc'), allowAll);
    expect(counted.range).toBe('0-1/*');
    const withCount = await rows(
      engine,
      get('incidents?select=title&severity=eq.1&order=title.asc', 'count=exact'),
      allowAll,
    );
    expect(withCount.range).toBe('0-1/2');
    const single = await engine.handle(
      {
        ...get(`incidents?select=title&id=eq.${ID.dbDown}`),
        headers: { accept: 'application/vnd.pgrst.object+json' },
      },
      allowAll,
    );
    expect(JSON.parse(single.body ?? 'null')).toEqual({ title: 'Database down' });
    // 7 variants + count=exact + the object media; the repeat without count was a hit
    expect(engine.planCacheStats()).toMatchObject({ size: 9, misses: 9, hits: 1 });
  });

  it('binds a user’s row-scope values as parameters: one plan, each user sees only their rows', async () => {
    const engine = engineWith();
    const path = 'incidents?select=title&order=title.asc';
    const alice = await rows(engine, get(path), createdBy(ID.alice));
    const bob = await rows(engine, get(path), createdBy(ID.bob));
    const everyone = await rows(engine, get(path), allowAll);
    const aliceAgain = await rows(engine, get(path, 'count=exact'), createdBy(ID.alice));
    expect(alice.body).toEqual([{ title: 'Cert expiry, again' }, { title: 'Database down' }]);
    expect(bob.body).toEqual([{ title: 'Slow API' }]);
    expect(everyone.body).toHaveLength(4);
    expect(aliceAgain.range).toBe('0-1/2');
    expect(engine.planCacheStats()).toMatchObject({ size: 2, misses: 2, hits: 2 });

    // a different restriction shape (a deny-everything constant) on the cached plan
    const nobody = await rows(engine, get(path), async () => ({
      allow: true,
      rowFilters: [{ kind: 'constant', value: false }],
    }));
    expect(nobody.body).toEqual([]);
    // and the first restriction shape still answers with the right values afterwards
    expect((await rows(engine, get(path), createdBy(ID.carol))).body).toEqual([{ title: 'Disk full' }]);
  });

  it('restrictions on embedded relations are compiled per shape and bound per request', async () => {
    const engine = engineWith();
    const path = `incidents?select=title,hypotheses(title)&id=eq.${ID.dbDown}`;
    const scoped =
      (incidentOwner: string): TargetAuthorizer =>
      async (target) => ({
        allow: true,
        rowFilters:
          target.relation === 'hypotheses'
            ? [{ kind: 'compare', column: 'created_by', op: 'eq', value: incidentOwner }]
            : [],
      });
    const byAlice = await rows(engine, get(path), scoped(ID.alice));
    const byBob = await rows(engine, get(path), scoped(ID.bob));
    expect(byAlice.body).toEqual([{ title: 'Database down', hypotheses: [{ title: 'Primary crashed' }] }]);
    expect(byBob.body).toEqual([{ title: 'Database down', hypotheses: [{ title: 'Network partition' }] }]);
    expect(engine.planCacheStats()).toMatchObject({ size: 1, hits: 1 });
  });

  it('is bounded, evicting the least recently used shape', async () => {
    const engine = engineWith(2);
    const a = get('people?select=name&name=eq.Alice');
    const b = get('people?select=name&name=neq.Alice&order=name.asc&limit=1');
    const c = get('people?select=email&name=eq.Alice');
    await rows(engine, a);
    await rows(engine, b);
    await rows(engine, a); // a is now the most recently used
    await rows(engine, c); // evicts b
    expect(engine.planCacheStats()).toMatchObject({ size: 2, misses: 3, hits: 1 });
    await rows(engine, a);
    expect(engine.planCacheStats()).toMatchObject({ misses: 3, hits: 2 });
    await rows(engine, b);
    expect(engine.planCacheStats()).toMatchObject({ size: 2, misses: 4 });
  });

  it('empties when the catalog refreshes, and the new plan sees the new schema', async () => {
    const engine = engineWith();
    const request = get(`config_scrapers?select=*&id=eq.${ID.scraper}`);
    expect((await rows(engine, request)).body).toEqual([
      expect.not.objectContaining({ region: expect.anything() }),
    ]);
    expect((await rows(engine, request)).status).toBe(200);
    const before = engine.planCacheStats();
    expect(before).toMatchObject({ size: 1, misses: 1, hits: 1 });
    await db.pool.query(`ALTER TABLE ${FIXTURE_SCHEMA}.config_scrapers ADD COLUMN region text DEFAULT 'eu'`);
    try {
      catalog.invalidate();
      const after = await rows(engine, request);
      expect(after.body).toEqual([expect.objectContaining({ id: ID.scraper, region: 'eu' })]);
      const stats = engine.planCacheStats();
      expect(stats).toMatchObject({ size: 1, misses: 2, hits: 1 });
      expect(stats.catalogVersion).toBeGreaterThan(before.catalogVersion);
    } finally {
      await db.pool.query(`ALTER TABLE ${FIXTURE_SCHEMA}.config_scrapers DROP COLUMN region`);
      catalog.invalidate();
    }
    expect((await rows(engine, request)).body).toEqual([{ id: ID.scraper, name: 'kubernetes' }]);
  });
});
