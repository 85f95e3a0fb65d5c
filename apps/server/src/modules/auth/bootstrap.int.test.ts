import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { ensureFirstAdmin } from './bootstrap.js';
import { buildAuthTestApp, TestBrowser } from './test-fixtures/auth-test-app.js';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.close();
});

describe('the first admin', () => {
  it('is created once, has an identity and can sign in', async () => {
    const created = await ensureFirstAdmin(db.pool, {
      adminEmail: 'Boss@Example.com',
      adminPassword: 'first admin password',
    });
    expect(created).toEqual({ email: 'boss@example.com' });
    expect(
      await ensureFirstAdmin(db.pool, { adminEmail: 'other@example.com', adminPassword: 'another password' }),
    ).toBeUndefined();
    const testApp = await buildAuthTestApp(db.pool);
    try {
      const browser = new TestBrowser(testApp.app);
      expect((await browser.signIn('boss@example.com', 'first admin password')).statusCode).toBe(200);
      const session = (await browser.get('/api/auth/session')).json<{
        identity: { traits: { email: string }; roles: string[] };
      }>();
      expect(session.identity).toMatchObject({ traits: { email: 'boss@example.com' }, roles: ['admin'] });
      const identities = await db.pool.query(
        `SELECT 1 FROM identities i JOIN people p ON p.id = i.id WHERE p.email = 'boss@example.com'`,
      );
      expect(identities.rowCount).toBe(1);
    } finally {
      await testApp.app.close();
    }
  });

  it('generates a password when none is given', async () => {
    const fresh = await createTestDatabase();
    try {
      const created = await ensureFirstAdmin(fresh.pool, { adminEmail: undefined, adminPassword: undefined });
      expect(created?.email).toBe('admin@opsdeck.local');
      expect(created?.generatedPassword).toHaveLength(20);
    } finally {
      await fresh.close();
    }
  });
});
