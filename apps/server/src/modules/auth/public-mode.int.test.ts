import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { loadAuthConfig } from './auth-config.js';
import { buildAuthTestApp, type TestApp } from './test-fixtures/auth-test-app.js';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.close();
});

describe('public mode (AUTH_MODE=none)', () => {
  it('reads AUTH_MODE and PUBLIC_ROLE from the environment, viewer by default', () => {
    expect(loadAuthConfig({ AUTH_MODE: 'none' })).toMatchObject({ mode: 'none', publicRole: 'viewer' });
    expect(loadAuthConfig({ AUTH_MODE: 'none', PUBLIC_ROLE: 'editor' }).publicRole).toBe('editor');
    expect(() => loadAuthConfig({ PUBLIC_ROLE: 'king' })).toThrow(/PUBLIC_ROLE/);
  });

  it('acts as the public role without sign-in, and offers no sign-in', async () => {
    let testApp: TestApp | undefined;
    try {
      testApp = await buildAuthTestApp(db.pool, { config: { mode: 'none', publicRole: 'viewer' } });
      const { app } = testApp;
      const whoami = await app.inject({ method: 'GET', url: '/api/auth/whoami' });
      expect(whoami.statusCode).toBe(200);
      expect(whoami.json<{ payload: { user: { name: string }; roles: string[] } }>().payload).toMatchObject({
        user: { name: 'Anonymous' },
        roles: ['viewer'],
      });
      expect((await app.inject({ method: 'GET', url: '/api/test/incident' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'POST', url: '/api/test/incident' })).statusCode).toBe(403);
      expect((await app.inject({ method: 'GET', url: '/api/db/connections' })).statusCode).toBe(403);
      expect((await app.inject({ method: 'GET', url: '/api/db/incidents' })).statusCode).toBe(200);
      const session = await app.inject({ method: 'GET', url: '/api/auth/session' });
      expect(session.json<{ active: boolean; identity: { roles: string[] } }>()).toMatchObject({
        active: true,
        identity: { roles: ['viewer'] },
      });
      const login = await app.inject({ method: 'GET', url: '/api/auth/self-service/login/browser' });
      expect(login.statusCode).toBe(400);
      expect(login.json<{ error: { id: string } }>().error.id).toBe('self_service_flow_disabled');
      expect(
        (await app.inject({ method: 'POST', url: '/api/auth/create_token', payload: { name: 'x' } }))
          .statusCode,
      ).toBe(403);
    } finally {
      await testApp?.app.close();
    }
  });

  it('uses one public person across requests and a configured role', async () => {
    const testApp = await buildAuthTestApp(db.pool, { config: { mode: 'none', publicRole: 'editor' } });
    try {
      expect((await testApp.app.inject({ method: 'POST', url: '/api/test/canaries' })).statusCode).toBe(200);
      expect((await testApp.app.inject({ method: 'POST', url: '/api/test/connections' })).statusCode).toBe(
        403,
      );
      const people = await db.pool.query(`SELECT id FROM people WHERE type = 'public'`);
      expect(people.rowCount).toBe(1);
    } finally {
      await testApp.app.close();
    }
  });
});
