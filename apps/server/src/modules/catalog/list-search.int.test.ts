// The catalog list's search as the web sends it (configListSearch) through the data API: it finds
// items by name, type, description and namespace, with or without the list narrowed to a type,
// and the exact total matches the rows.
import { dataApiAllowlist } from '../../modules.js';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  configListSearch,
  type ConfigListFilters,
} from '../../../../web/src/features/catalog/lib/catalog-query.js';
import { createConfigItem } from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { createSchemaCatalog } from '../../data-api/catalog.js';
import { dataApiRoutes } from '../../data-api/index.js';

let db: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  db = await createTestDatabase();
  app = Fastify({ logger: false });
  await app.register(dataApiRoutes, {
    prefix: '/api/db',
    pool: db.pool,
    allowlist: dataApiAllowlist,
    catalog: createSchemaCatalog(db.pool),
    authorize: async () => ({ allow: true }),
  });
  await app.ready();
  const item = (overrides: Record<string, unknown>) =>
    createConfigItem(db.pool, { namespace: 'default', description: null, health: 'healthy', ...overrides });
  await item({ type: 'Npm::Package', name: 'left-pad' });
  await item({ type: 'Npm::Package', name: 'right-pad', description: 'Pads strings on the LEFT side' });
  await item({ type: 'Npm::Package', name: 'is-odd', namespace: 'left-team' });
  await item({ type: 'Npm::Package', name: 'is-even', health: 'unhealthy' });
  await item({ type: 'Npm::Package', name: 'gone-left', deleted_at: new Date() });
  await item({ type: 'Leftover::Thing', name: 'thing' });
  await item({ type: 'Other::Thing', name: 'other', tags: { env: 'prod' } });
});

afterAll(async () => {
  await app?.close();
  await db?.close();
});

const none: ConfigListFilters = { health: {}, status: {}, tags: {}, labels: {}, showDeleted: false };

async function list(filters: Partial<ConfigListFilters>): Promise<{ names: string[]; total: number }> {
  const search = configListSearch({ ...none, ...filters }, { pageIndex: 0, pageSize: 50, sortOrder: 'asc' });
  const response = await app.inject({
    method: 'GET',
    url: `/api/db/configs?${search.toString()}`,
    headers: { prefer: 'count=exact' },
  });
  expect(response.statusCode, response.body).toBeLessThan(300);
  const rows = JSON.parse(response.body) as Array<{ name: string }>;
  const total = Number(/\/(\d+)$/.exec(String(response.headers['content-range']))?.[1]);
  return { names: rows.map((row) => row.name), total };
}

describe('catalog list search', () => {
  it('finds by name, type, description and namespace across types', async () => {
    expect(await list({ search: 'LEFT' })).toEqual({
      names: ['thing', 'is-odd', 'left-pad', 'right-pad'],
      total: 4,
    });
    expect(await list({ search: 'left', showDeleted: true })).toMatchObject({ total: 5 });
  });

  it('within one type: matches the other columns, or every item when the type itself matches', async () => {
    expect(await list({ type: 'Npm::Package', search: 'left' })).toEqual({
      names: ['is-odd', 'left-pad', 'right-pad'],
      total: 3,
    });
    expect(await list({ type: 'Npm::Package', search: 'npm::pack' })).toEqual({
      names: ['is-even', 'is-odd', 'left-pad', 'right-pad'],
      total: 4,
    });
    expect(await list({ type: 'Npm::Package', search: 'pm::p_ck', health: { healthy: 1 } })).toEqual({
      names: ['is-odd', 'left-pad', 'right-pad'],
      total: 3,
    });
    expect(await list({ type: 'Leftover::Thing', search: 'left' })).toEqual({ names: ['thing'], total: 1 });
    expect(await list({ type: 'Other::Thing', search: 'left' })).toEqual({ names: [], total: 0 });
  });
});
