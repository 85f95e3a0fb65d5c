import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './harness/db.js';
import {
  createCheck,
  createCheckStatus,
  createConfigItem,
  createIncident,
  createPerson,
} from './harness/factories.js';

describe('test data factories', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.close();
  });

  it('build valid rows with defaults and overrides', async () => {
    const person = await createPerson(db.pool, { name: 'Ada', roles: ['editor', 'responder'] });
    const roles = await db.pool.query('SELECT roles FROM people_roles WHERE id = $1', [person.id]);
    expect(roles.rows[0]).toEqual({ roles: ['editor', 'responder'] });

    const check = await createCheck(db.pool, { name: 'api', labels: { team: 'ops' } });
    await createCheckStatus(db.pool, check.id, { status: false, message: 'down' });
    const statuses = await db.pool.query('SELECT status, message FROM check_statuses WHERE check_id = $1', [
      check.id,
    ]);
    expect(statuses.rows).toEqual([{ status: false, message: 'down' }]);
    expect(check.labels).toEqual({ team: 'ops' });

    const config = await createConfigItem(db.pool, { tags: { cluster: 'prod' } });
    expect(config.tags).toEqual({ cluster: 'prod' });

    const incident = await createIncident(db.pool, { created_by: person.id });
    expect(incident).toMatchObject({ status: 'open', severity: 'low', created_by: person.id });
  });
});
