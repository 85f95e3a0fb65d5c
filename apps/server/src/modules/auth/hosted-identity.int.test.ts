import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { loadAuthConfig } from './auth-config.js';
import { hostedProfileMessage } from './flows/settings-flow.js';
import { OIDC_CALLBACK_PATH } from './oidc.js';
import {
  buildAuthTestApp,
  createTestPerson,
  TestBrowser,
  type FlowJson,
  type TestApp,
} from './test-fixtures/auth-test-app.js';
import { startOidcProvider } from './test-fixtures/oidc-test-provider.js';

/**
 * Spec core §1/§2: under a hosted identity provider people are managed there, and the users page
 * is hidden. The server says so on whoami and refuses what the page would otherwise do
 * (invite, rename, remove) with 409 naming the provider; roles stay this product's.
 */

let db: TestDatabase;
let hosted: TestApp;
let local: TestApp;
let provider: Awaited<ReturnType<typeof startOidcProvider>>;
/** People come from a real OIDC provider (IDENTITY_PROVIDER=oidc). */
let sso: TestApp;

beforeAll(async () => {
  db = await createTestDatabase();
  hosted = await buildAuthTestApp(db.pool, { config: { hostedIdentityProvider: { name: 'Acme SSO' } } });
  local = await buildAuthTestApp(db.pool);
  provider = await startOidcProvider({
    clientId: 'opsdeck',
    clientSecret: 'opsdeck-secret',
    redirectUri: `http://opsdeck.test${OIDC_CALLBACK_PATH}`,
  });
  sso = await buildAuthTestApp(db.pool, {
    config: {
      hostedIdentityProvider: { name: 'Acme SSO' },
      oidc: {
        id: 'oidc',
        issuer: provider.issuer,
        clientId: 'opsdeck',
        clientSecret: 'opsdeck-secret',
        name: 'Acme SSO',
      },
    },
  });
});

afterAll(async () => {
  await hosted?.app.close();
  await local?.app.close();
  await sso?.app.close();
  await provider?.close();
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

/** Social sign-in through the provider as `sub`; answers our callback's redirect. */
async function signInWithProvider(browser: TestBrowser, sub: string) {
  const flow = await browser.startFlow('login', '?return_to=%2F');
  const started = await browser.submitFlow(flow, { method: 'oidc', provider: 'oidc' });
  expect(started.statusCode).toBe(422);
  provider.signInAs(sub);
  const callback = await provider.authorize(
    started.json<{ redirect_browser_to: string }>().redirect_browser_to,
  );
  return browser.get(callback.pathname + callback.search);
}

interface WhoamiUser {
  payload: { user: { id: string; name: string; email: string } };
}

describe('what a person may edit under a hosted identity provider (ADR 0039)', () => {
  it('the profile screen shows name and email read-only and refuses a change; password stays editable', async () => {
    const person = await createTestPerson(db.pool, { roles: ['viewer'] });
    const browser = new TestBrowser(hosted.app);
    expect((await browser.signIn(person.email, person.password)).statusCode).toBe(200);
    const flow = await browser.startFlow('settings');
    const profile = flow.ui.nodes.filter((entry) => entry.group === 'profile');
    expect(profile.map((entry) => [entry.name, entry.disabled])).toEqual([
      ['traits.email', true],
      ['traits.name.first', true],
      ['traits.name.last', true],
      ['method', true],
    ]);
    expect(profile.find((entry) => entry.name === 'traits.name.last')?.messages).toEqual([
      { id: 'profile_hosted', text: hostedProfileMessage('Acme SSO'), type: 'info' },
    ]);
    const password = flow.ui.nodes.filter((entry) => entry.group === 'password');
    expect(password.every((entry) => !entry.disabled)).toBe(true);

    const refused = await browser.submitFlow(flow, {
      method: 'profile',
      'traits.email': person.email,
      'traits.name.first': 'Someone',
      'traits.name.last': 'Else',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<FlowJson>().ui.messages).toEqual([
      expect.objectContaining({
        type: 'error',
        text: 'Your name and email cannot be changed here: they come from Acme SSO.',
      }),
    ]);
    const { rows } = await db.pool.query(`SELECT name FROM people WHERE id = $1`, [person.id]);
    expect(rows[0]?.name).toMatch(/^Test Person/);
    // Their own avatar is not the provider's: still theirs to set.
    const avatar = await browser.post('/api/people/update', {
      id: person.id,
      avatar: 'https://x.test/a.png',
    });
    expect(avatar.statusCode, avatar.body).toBe(200);
    expect(avatar.json()).toMatchObject({ avatar: 'https://x.test/a.png' });
  });

  it('locally the same profile change is saved', async () => {
    const person = await createTestPerson(db.pool, { roles: ['viewer'] });
    const browser = new TestBrowser(local.app);
    expect((await browser.signIn(person.email, person.password)).statusCode).toBe(200);
    const flow = await browser.startFlow('settings');
    expect(flow.ui.nodes.find((entry) => entry.name === 'traits.name.first')?.disabled).toBeUndefined();
    const saved = await browser.submitFlow(flow, {
      method: 'profile',
      'traits.email': person.email,
      'traits.name.first': 'Local',
      'traits.name.last': 'Rename',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await browser.get('/api/auth/whoami')).json<WhoamiUser>().payload.user.name).toBe('Local Rename');
  });

  it('each sign-in through the provider brings the name and email it holds', async () => {
    const person = await createTestPerson(db.pool, { roles: ['editor'] });
    provider.addAccount({ sub: 'hosted-1', email: person.email, email_verified: true, name: 'Ada Lovelace' });
    const first = new TestBrowser(sso.app);
    expect((await signInWithProvider(first, 'hosted-1')).statusCode).toBe(303);
    expect((await first.get('/api/auth/whoami')).json<WhoamiUser>().payload.user).toMatchObject({
      id: person.id,
      name: 'Ada Lovelace',
      email: person.email,
    });

    const moved = `ada-${Date.now()}@example.com`;
    provider.addAccount({ sub: 'hosted-1', email: moved, email_verified: true, name: 'Ada King' });
    const second = new TestBrowser(sso.app);
    expect((await signInWithProvider(second, 'hosted-1')).statusCode).toBe(303);
    expect((await second.get('/api/auth/whoami')).json<WhoamiUser>().payload.user).toMatchObject({
      id: person.id,
      name: 'Ada King',
      email: moved,
    });
    const identity = await db.pool.query<{ traits: unknown }>(`SELECT traits FROM identities WHERE id = $1`, [
      person.id,
    ]);
    expect(identity.rows[0]?.traits).toEqual({ email: moved, name: { first: 'Ada', last: 'King' } });

    // An address another person here already holds is not taken; the name still follows.
    const other = await createTestPerson(db.pool, { roles: ['viewer'] });
    provider.addAccount({ sub: 'hosted-1', email: other.email, email_verified: true, name: 'Ada Byron' });
    const third = new TestBrowser(sso.app);
    expect((await signInWithProvider(third, 'hosted-1')).statusCode).toBe(303);
    expect((await third.get('/api/auth/whoami')).json<WhoamiUser>().payload.user).toMatchObject({
      id: person.id,
      name: 'Ada Byron',
      email: moved,
    });
  });
});
