/**
 * `notifications_summary.most_common_error` (issue 21, migration 0380): through the data API, the
 * error text a rule's failed sends carried most often (a tie goes to the most recent), NULL for a
 * rule without failed sends; sent rows' and NULL errors never count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import {
  bearer,
  buildAuthTestApp,
  createTestPerson,
  createTestToken,
  type TestApp,
} from '../auth/test-fixtures/auth-test-app.js';

let db: TestDatabase;
let testApp: TestApp;
let viewer: Record<string, string>;

beforeAll(async () => {
  db = await createTestDatabase();
  testApp = await buildAuthTestApp(db.pool);
  const person = await createTestPerson(db.pool, { roles: ['viewer'] });
  viewer = bearer(await createTestToken(db.pool, person.id));
  await db.pool.query(`
    INSERT INTO notifications (id, name, events) VALUES
      ('b0380000-0000-4000-8000-000000000001', 'mostly-500', '{check.failed}'),
      ('b0380000-0000-4000-8000-000000000002', 'tied', '{check.failed}'),
      ('b0380000-0000-4000-8000-000000000003', 'never-failed', '{check.failed}');
    INSERT INTO notification_send_history (notification_id, status, source_event, error, created_at)
    SELECT n::uuid, s, 'check.failed', e, now() - age * interval '1 minute'
    FROM (VALUES
      ('b0380000-0000-4000-8000-000000000001', 'failed', 'webhook: HTTP 500', 9),
      ('b0380000-0000-4000-8000-000000000001', 'failed', 'webhook: HTTP 500', 8),
      ('b0380000-0000-4000-8000-000000000001', 'error', 'webhook: HTTP 500', 7),
      ('b0380000-0000-4000-8000-000000000001', 'failed', 'dial tcp: refused', 1),
      ('b0380000-0000-4000-8000-000000000001', 'failed', NULL, 1),
      ('b0380000-0000-4000-8000-000000000001', 'failed', NULL, 1),
      ('b0380000-0000-4000-8000-000000000001', 'failed', NULL, 1),
      ('b0380000-0000-4000-8000-000000000001', 'failed', NULL, 1),
      ('b0380000-0000-4000-8000-000000000001', 'sent', 'dial tcp: refused', 1),
      ('b0380000-0000-4000-8000-000000000001', 'retrying', 'dial tcp: refused', 1),
      ('b0380000-0000-4000-8000-000000000001', 'retrying', 'dial tcp: refused', 1),
      ('b0380000-0000-4000-8000-000000000001', 'retrying', 'dial tcp: refused', 1),
      ('b0380000-0000-4000-8000-000000000002', 'failed', 'older error', 5),
      ('b0380000-0000-4000-8000-000000000002', 'failed', 'newer error', 2),
      ('b0380000-0000-4000-8000-000000000003', 'sent', NULL, 1)
    ) AS rows(n, s, e, age);
  `);
});

afterAll(async () => {
  await testApp?.app.close();
  await db?.close();
});

describe('notifications_summary.most_common_error', () => {
  it('is the most frequent error of failed sends, the newest on a tie, null without failures', async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/api/db/notifications_summary?select=name,failed,most_common_error&order=name.asc',
      headers: viewer,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual([
      { name: 'mostly-500', failed: 8, most_common_error: 'webhook: HTTP 500' },
      { name: 'never-failed', failed: 0, most_common_error: null },
      { name: 'tied', failed: 2, most_common_error: 'newer error' },
    ]);
  });
});
