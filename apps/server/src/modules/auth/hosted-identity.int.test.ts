import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { loadAuthConfig } from './auth-config.js';
import {
  buildAuthTestApp,
  createTestPerson,
  TestBrowser,
  type TestApp,
} from './test-fixtures/auth-test-app.js';

/**
 * Spec core §1/§2: under a hosted identity provider people are managed there, and the users page
 * is hidden. The server says so on whoami and refuses what the page would otherwise do
 * (invite, rename, remove) with 409 naming the provider; roles stay this product's.
 */

let db: TestDatabase;
let hosted: TestApp;
let local: TestApp;

beforeAll(async () => {
  db = await createTestDatabase();
  hosted = await buildAuthTestApp(db.pool, { config: { hostedIdentityProvider: { name: 'Acme SSO' } } });
  local = await buildAuthTestApp(db.pool);
});

afterAll(async () => {
  await hosted?.app.close();
  await local?.app.close();
  await db?.close();
});

async function admin(app: TestApp) {
  const person = await createTestPerson(db.pool, { roles: ['admin'] });
  const browser = new TestBrowser(app.app);
  expect((await browser.signIn(person.email, person.password)).statusCode).toBe(200);
  return browser;
}

describe('IDENTITY_PROVIDER', () => {
  it('oidc needs the OIDC provider; local is the default', () => {
    expect(() => loadAuthConfig({ IDENTITY_PROVIDER: 'oidc' })).toThrow(
      /IDENTITY_PROVIDER: oidc needs OIDC_ISSUER/,
    );
    expect(() => loadAuthConfig({ IDENTITY_PROVIDER: 'clerk' })).toThrow(
      /IDENTITY_PROVIDER: must be local or oidc/,
    );
    expect(loadAuthConfig({}).hostedIdentityProvider).toBeUndefined();
    expect(
      loadAuthConfig({
        IDENTITY_PROVIDER: 'oidc',
        OIDC_ISSUER: 'https://sso.example.com',
        OIDC_CLIENT_ID: 'opsdeck',
        OIDC_NAME: 'Acme SSO',
      }).hostedIdentityProvider,
    ).toEqual({ name: 'Acme SSO' });
  });
});

describe('people from a hosted identity provider', () => {
  it('whoami names the provider; local mode says people are managed here', async () => {
    const onHosted = await admin(hosted);
    expect((await onHosted.get('/api/auth/whoami')).json().payload.identity_provider).toEqual({
      hosted: true,
      name: 'Acme SSO',
    });
    const onLocal = await admin(local);
    expect((await onLocal.get('/api/auth/whoami')).json().payload.identity_provider).toEqual({
      hosted: false,
      name: null,
    });
  });

  it('an admin can neither invite, rename nor remove people here; role changes still work', async () => {
    const browser = await admin(hosted);
    const person = await createTestPerson(db.pool, { roles: ['viewer'] });

    const invited = await browser.post('/api/auth/invite_user', {
      firstName: 'Grace',
      lastName: 'Hopper',
      email: `grace-${Date.now()}@example.com`,
      role: 'viewer',
    });
    expect(invited.statusCode).toBe(409);
    expect(invited.json()).toMatchObject({ error: 'People come from Acme SSO: invite them there' });

    const renamed = await browser.post('/api/people/update', { id: person.id, name: 'Someone Else' });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json()).toMatchObject({
      error: 'People come from Acme SSO: change their name there',
      field: 'name',
    });

    const removed = await browser.request({ method: 'DELETE', url: `/api/people/${person.id}` });
    expect(removed.statusCode).toBe(409);
    const { rows } = await db.pool.query(`SELECT name, deleted_at FROM people WHERE id = $1`, [person.id]);
    expect(rows[0]).toMatchObject({ name: expect.stringMatching(/^Test Person/), deleted_at: null });

    const roles = await browser.post('/api/people/update', { id: person.id, roles: ['editor'] });
    expect(roles.statusCode, roles.body).toBe(200);
    expect(roles.json()).toMatchObject({ roles: ['editor'] });
  });

  it('the same calls work when people are managed here', async () => {
    const browser = await admin(local);
    const invited = await browser.post('/api/auth/invite_user', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: `ada-${Date.now()}@example.com`,
      role: 'viewer',
    });
    expect(invited.statusCode, invited.body).toBe(200);
  });
});
