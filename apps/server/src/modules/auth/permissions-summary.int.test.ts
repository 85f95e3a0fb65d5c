import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import {
  buildAuthTestApp,
  createTestPerson,
  createTestToken,
  bearer,
  type TestApp,
} from './test-fixtures/auth-test-app.js';

let db: TestDatabase;
let testApp: TestApp;

beforeAll(async () => {
  db = await createTestDatabase();
  testApp = await buildAuthTestApp(db.pool);
});

afterAll(async () => {
  await testApp?.app.close();
  await db?.close();
});

interface SummaryRow {
  id: string;
  person: { id: string; email: string } | null;
  team: { id: string; name: string } | null;
  notification: { id: string; name: string } | null;
  subject_name: string | null;
}

describe('permissions_summary subjects', () => {
  it('fills person, team and notification whether the permission names them by id column or by subject', async () => {
    const person = await createTestPerson(db.pool, { roles: ['viewer'] });
    const admin = await createTestPerson(db.pool, { roles: ['admin'] });
    const team = (
      await db.pool.query<{ id: string }>(`INSERT INTO teams (name) VALUES ('summary-team') RETURNING id`)
    ).rows[0] as { id: string };
    const notification = (
      await db.pool.query<{ id: string }>(
        `INSERT INTO notifications (name, namespace) VALUES ('summary-hook', 'ops') RETURNING id`,
      )
    ).rows[0] as { id: string };
    const insert = async (subjectType: string, subject: string, columns: Record<string, string> = {}) =>
      (
        await db.pool.query<{ id: string }>(
          `INSERT INTO permissions (subject_type, subject, team_id, person_id, notification_id, action, object)
           VALUES ($1, $2, $3, $4, $5, 'read', 'canaries') RETURNING id`,
          [
            subjectType,
            subject,
            columns.team_id ?? null,
            columns.person_id ?? null,
            columns.notification_id ?? null,
          ],
        )
      ).rows[0]?.id as string;
    const ids = {
      teamByName: await insert('team', 'summary-team'),
      teamById: await insert('team', team.id.toUpperCase()),
      teamByColumn: await insert('team', '', { team_id: team.id }),
      personByEmail: await insert('person', person.email.toUpperCase()),
      personById: await insert('person', person.id),
      notificationByName: await insert('notification', 'ops/summary-hook'),
      unknownTeam: await insert('team', 'no-such-team'),
    };

    const token = await createTestToken(db.pool, admin.id);
    const response = await testApp.app.inject({
      method: 'GET',
      url: `/api/db/permissions_summary?select=id,person,team,notification,subject_name&id=in.(${Object.values(ids).join(',')})`,
      headers: bearer(token),
    });
    expect(response.statusCode).toBe(200);
    const rows = new Map(response.json<SummaryRow[]>().map((row) => [row.id, row]));
    for (const key of ['teamByName', 'teamById', 'teamByColumn'] as const) {
      expect(rows.get(ids[key])?.team, key).toMatchObject({ id: team.id, name: 'summary-team' });
      expect(rows.get(ids[key])?.subject_name, key).toBe('summary-team');
    }
    for (const key of ['personByEmail', 'personById'] as const) {
      expect(rows.get(ids[key])?.person, key).toMatchObject({ id: person.id, email: person.email });
    }
    expect(rows.get(ids.notificationByName)?.notification).toMatchObject({
      id: notification.id,
      name: 'summary-hook',
    });
    expect(rows.get(ids.unknownTeam)).toMatchObject({ team: null, subject_name: 'no-such-team' });
  });
});
