import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './harness/db.js';
import { createCanary } from './harness/factories.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

it('job_histories names the resource and the agent of each run', async () => {
  const canary = await createCanary(db.pool, { name: 'web-checks' });
  await db.pool.query(
    `INSERT INTO job_history (name, resource_type, resource_id, status, success_count)
     VALUES ('Canary', 'canary', $1, 'SUCCESS', 3), ('Cleanup', NULL, NULL, 'FAILED', 0)`,
    [canary.id],
  );
  const { rows } = await db.pool.query(
    'SELECT name, resource_name, agent, status, success_count FROM job_histories ORDER BY name',
  );
  expect(rows).toEqual([
    {
      name: 'Canary',
      resource_name: 'web-checks',
      agent: { id: '00000000-0000-0000-0000-000000000000', name: 'local' },
      status: 'SUCCESS',
      success_count: 3,
    },
    {
      name: 'Cleanup',
      resource_name: null,
      agent: { id: '00000000-0000-0000-0000-000000000000', name: 'local' },
      status: 'FAILED',
      success_count: 0,
    },
  ]);
});
