import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { OIDC_CALLBACK_PATH } from './oidc.js';
import {
  buildAuthTestApp,
  createTestPerson,
  TestBrowser,
  type FlowJson,
  type TestApp,
} from './test-fixtures/auth-test-app.js';
import { startOidcProvider } from './test-fixtures/oidc-test-provider.js';

let db: TestDatabase;
let provider: Awaited<ReturnType<typeof startOidcProvider>>;
let testApp: TestApp;

beforeAll(async () => {
  db = await createTestDatabase();
  provider = await startOidcProvider({
    clientId: 'opsdeck',
    clientSecret: 'opsdeck-secret',
    redirectUri: `http://opsdeck.test${OIDC_CALLBACK_PATH}`,
  });
  testApp = await buildAuthTestApp(db.pool, {
    config: {
      oidc: {
        id: 'oidc',
        issuer: provider.issuer,
        clientId: 'opsdeck',
        clientSecret: 'opsdeck-secret',
        name: 'Example SSO',
      },
    },
  });
});

afterAll(async () => {
  await testApp?.app.close();
  await provider?.close();
  await db?.close();
});

interface LocationChange {
  error: { id: string };
  redirect_browser_to: string;
}

/** Starts social sign-in from a login flow, plays the browser at the provider, returns our callback's answer. */
async function signInWithProvider(browser: TestBrowser, sub: string, returnTo = '/') {
  const flow = await browser.startFlow('login', `?return_to=${encodeURIComponent(returnTo)}`);
  expect(flow.ui.nodes.find((entry) => entry.group === 'oidc')).toMatchObject({
    name: 'provider',
    value: 'oidc',
    type: 'submit',
  });
  const started = await browser.submitFlow(flow, { method: 'oidc', provider: 'oidc' });
  expect(started.statusCode).toBe(422);
  const body = started.json<LocationChange>();
  expect(body.error.id).toBe('browser_location_change_required');
  const authorization = new URL(body.redirect_browser_to);
  expect(authorization.origin).toBe(provider.issuer);
  expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorization.searchParams.get('state')).toMatch(new RegExp(`^${flow.id}\\.`));
  expect(authorization.searchParams.get('nonce')).toBeTruthy();
  provider.signInAs(sub);
  const callback = await provider.authorize(body.redirect_browser_to);
  return browser.get(callback.pathname + callback.search);
}

describe('sign-in with an OpenID Connect provider', () => {
  it('creates an account for a new verified email, then finds it again by subject', async () => {
    provider.addAccount({
      sub: 'new-user',
      email: 'sso.newcomer@example.com',
      email_verified: true,
      name: 'Sso Newcomer',
    });
    const browser = new TestBrowser(testApp.app);
    const answer = await signInWithProvider(browser, 'new-user', '/catalog');
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe('/catalog');
    const whoami = (await browser.get('/api/auth/whoami')).json<{
      payload: { user: { email: string; name: string }; roles: string[] };
    }>();
    expect(whoami.payload.user).toMatchObject({ email: 'sso.newcomer@example.com', name: 'Sso Newcomer' });
    expect(whoami.payload.roles).toEqual([]);
    const links = await db.pool.query<{ subject: string; issuer: string }>(
      `SELECT subject, issuer FROM auth_oidc_links`,
    );
    expect(links.rows).toContainEqual({ subject: 'new-user', issuer: provider.issuer });

    provider.addAccount({
      sub: 'new-user',
      email: 'renamed@example.com',
      email_verified: true,
      name: 'Sso Newcomer',
    });
    const again = new TestBrowser(testApp.app);
    expect((await signInWithProvider(again, 'new-user')).headers.location).toBe('/');
    expect(
      (await again.get('/api/auth/whoami')).json<{ payload: { user: { email: string } } }>().payload.user
        .email,
    ).toBe('sso.newcomer@example.com');
  });

  it('links to an existing person by verified email', async () => {
    const person = await createTestPerson(db.pool, { roles: ['responder'] });
    provider.addAccount({
      sub: 'existing',
      email: person.email.toUpperCase(),
      email_verified: true,
      name: 'Existing Person',
    });
    const browser = new TestBrowser(testApp.app);
    const answer = await signInWithProvider(browser, 'existing');
    expect(answer.statusCode).toBe(303);
    const whoami = (await browser.get('/api/auth/whoami')).json<{
      payload: { user: { id: string }; roles: string[] };
    }>();
    expect(whoami.payload).toMatchObject({ user: { id: person.id }, roles: ['responder'] });
  });

  it('refuses to link an existing person when the provider does not vouch for the email', async () => {
    const person = await createTestPerson(db.pool, { roles: ['admin'] });
    provider.addAccount({ sub: 'unverified', email: person.email, email_verified: false, name: 'Impostor' });
    const browser = new TestBrowser(testApp.app);
    const answer = await signInWithProvider(browser, 'unverified');
    expect(answer.statusCode).toBe(303);
    const location = answer.headers.location as string;
    expect(location).toMatch(/^\/login\?flow=/);
    const flow = (
      await browser.get(
        `/api/auth/self-service/login/flows?id=${new URL(location, 'http://x').searchParams.get('flow')}`,
      )
    ).json<FlowJson>();
    expect(flow.ui.messages[0]?.text).toMatch(/did not confirm this email address/);
    expect((await browser.get('/api/auth/whoami')).statusCode).toBe(401);
  });

  it('ignores a callback whose state does not match a flow of this browser', async () => {
    const browser = new TestBrowser(testApp.app);
    const answer = await browser.get(
      `${OIDC_CALLBACK_PATH}?code=abc&state=00000000-0000-0000-0000-000000000000.forged`,
    );
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toMatch(/^\/login\?flow=/);
    expect((await browser.get('/api/auth/whoami')).statusCode).toBe(401);

    // A real state started in one browser, completed in another (login CSRF): refused.
    provider.addAccount({
      sub: 'victim-flow',
      email: 'victim-flow@example.com',
      email_verified: true,
      name: 'V',
    });
    const attacker = new TestBrowser(testApp.app);
    const flow = await attacker.startFlow('login');
    const started = (
      await attacker.submitFlow(flow, { method: 'oidc', provider: 'oidc' })
    ).json<LocationChange>();
    provider.signInAs('victim-flow');
    const callback = await provider.authorize(started.redirect_browser_to);
    const victim = new TestBrowser(testApp.app);
    const answered = await victim.get(callback.pathname + callback.search);
    expect(answered.headers.location).toMatch(/^\/login\?flow=/);
    expect((await victim.get('/api/auth/whoami')).statusCode).toBe(401);
  });

  it('links the provider from profile settings', async () => {
    const person = await createTestPerson(db.pool, { roles: ['viewer'] });
    provider.addAccount({
      sub: 'linker',
      email: 'other-address@example.com',
      email_verified: true,
      name: 'Linker',
    });
    const browser = new TestBrowser(testApp.app);
    await browser.signIn(person.email, person.password);
    const settings = await browser.startFlow('settings');
    expect(settings.ui.nodes.find((entry) => entry.group === 'oidc')).toMatchObject({
      name: 'link',
      value: 'oidc',
    });
    const started = await browser.submitFlow(settings, { method: 'oidc', link: 'oidc' });
    expect(started.statusCode).toBe(422);
    provider.signInAs('linker');
    const callback = await provider.authorize(started.json<LocationChange>().redirect_browser_to);
    const answer = await browser.get(callback.pathname + callback.search);
    expect(answer.headers.location).toBe(`/profile-settings?flow=${settings.id}`);
    const after = (
      await browser.get(`/api/auth/self-service/settings/flows?id=${settings.id}`)
    ).json<FlowJson>();
    expect(after.ui.nodes.find((entry) => entry.group === 'oidc')).toMatchObject({
      name: 'unlink',
      value: 'oidc',
    });
    const other = new TestBrowser(testApp.app);
    await signInWithProvider(other, 'linker');
    expect(
      (await other.get('/api/auth/whoami')).json<{ payload: { user: { id: string } } }>().payload.user.id,
    ).toBe(person.id);
  });
});
