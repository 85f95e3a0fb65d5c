import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import {
  buildAuthTestApp,
  createTestPerson,
  TestBrowser,
  type FlowJson,
  type TestApp,
  type TestPerson,
} from './test-fixtures/auth-test-app.js';

interface FlowErrorJson {
  error: { id: string; code: number; message: string };
  redirect_browser_to?: string;
  use_flow_id?: string;
}

let db: TestDatabase;
let testApp: TestApp;
let person: TestPerson;

beforeAll(async () => {
  db = await createTestDatabase();
  testApp = await buildAuthTestApp(db.pool, {
    config: { allowedReturnOrigins: ['https://docs.opsdeck.test'] },
  });
  person = await createTestPerson(db.pool, { roles: ['editor'] });
});

afterAll(async () => {
  await testApp?.app.close();
  await db?.close();
});

describe('flows', () => {
  it('a login flow carries id, type, expiry, return_to, a CSRF token and a UI', async () => {
    const browser = new TestBrowser(testApp.app);
    const flow = await browser.startFlow('login', '?return_to=%2Fincidents%3Fstatus%3Dopen');
    expect(flow.type).toBe('login');
    expect(flow.return_to).toBe('/incidents?status=open');
    expect(new Date(flow.expires_at).getTime()).toBeGreaterThan(Date.now());
    expect(flow.csrf_token).toMatch(/^[\w-]{20,}$/);
    expect(flow.ui.method).toBe('POST');
    expect(flow.ui.action).toBe(`http://opsdeck.test/api/auth/self-service/login?flow=${flow.id}`);
    expect(flow.ui.nodes.find((entry) => entry.name === 'csrf_token')).toMatchObject({
      type: 'hidden',
      value: flow.csrf_token,
    });
    expect(flow.ui.nodes.find((entry) => entry.name === 'identifier')).toMatchObject({
      type: 'email',
      required: true,
    });
    expect(flow.ui.nodes.find((entry) => entry.name === 'password')).toMatchObject({
      type: 'password',
      required: true,
    });
    const fetched = await browser.get(`/api/auth/self-service/login/flows?id=${flow.id}`);
    expect(fetched.json<FlowJson>()).toMatchObject({ id: flow.id, csrf_token: flow.csrf_token });
    const signedIn = await browser.submitFlow(flow, {
      method: 'password',
      identifier: person.email,
      password: person.password,
    });
    expect(signedIn.json<{ redirect_browser_to: string }>().redirect_browser_to).toBe(
      '/incidents?status=open',
    );
    // A finished flow cannot be submitted again.
    const replay = await browser.submitFlow(flow, {
      method: 'password',
      identifier: person.email,
      password: person.password,
    });
    expect(replay.statusCode).toBe(410);
    // Nor fetched from another browser.
    expect(
      (await new TestBrowser(testApp.app).get(`/api/auth/self-service/login/flows?id=${flow.id}`)).statusCode,
    ).toBe(403);
  });

  it('refuses a return_to on another site with the exact message', async () => {
    const browser = new TestBrowser(testApp.app);
    for (const target of [
      'https://evil.example/x',
      '//evil.example',
      'javascript:alert(1)',
      '/\\evil.example',
    ]) {
      const response = await browser.get(
        `/api/auth/self-service/login/browser?return_to=${encodeURIComponent(target)}`,
      );
      expect(response.statusCode).toBe(400);
      expect(response.json<FlowErrorJson>().error).toMatchObject({
        id: 'self_service_flow_return_to_forbidden',
        message: 'The return_to address is not allowed.',
      });
    }
    const allowed = await browser.startFlow(
      'login',
      `?return_to=${encodeURIComponent('https://docs.opsdeck.test/guide')}`,
    );
    expect(allowed.return_to).toBe('https://docs.opsdeck.test/guide');
    const own = await browser.startFlow(
      'registration',
      `?return_to=${encodeURIComponent('http://opsdeck.test/health')}`,
    );
    expect(own.return_to).toBe('http://opsdeck.test/health');
  });

  it('answers an expired flow with 410 self_service_flow_expired and a replacement', async () => {
    const browser = new TestBrowser(testApp.app);
    const flow = await browser.startFlow('login', '?return_to=/topology');
    await db.pool.query(`UPDATE auth_flows SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      flow.id,
    ]);
    const fetched = await browser.get(`/api/auth/self-service/login/flows?id=${flow.id}`);
    expect(fetched.statusCode).toBe(410);
    const body = fetched.json<FlowErrorJson>();
    expect(body.error).toMatchObject({
      id: 'self_service_flow_expired',
      code: 410,
      message: 'Your interaction expired, please fill out the form again.',
    });
    expect(body.use_flow_id).toMatch(/^[0-9a-f-]{36}$/);
    const replacement = (
      await browser.get(`/api/auth/self-service/login/flows?id=${body.use_flow_id}`)
    ).json<FlowJson>();
    expect(replacement.return_to).toBe('/topology');
    const submitted = await browser.submitFlow(flow, {
      method: 'password',
      identifier: person.email,
      password: person.password,
    });
    expect(submitted.statusCode).toBe(410);
  });

  it('answers 404 for a flow that does not exist', async () => {
    const browser = new TestBrowser(testApp.app);
    expect(
      (await browser.get('/api/auth/self-service/login/flows?id=00000000-0000-0000-0000-000000000000'))
        .statusCode,
    ).toBe(404);
    expect((await browser.get('/api/auth/self-service/login/flows?id=not-a-uuid')).statusCode).toBe(404);
    expect(
      (
        await browser.post(
          '/api/auth/self-service/registration?flow=00000000-0000-0000-0000-000000000000',
          {},
        )
      ).statusCode,
    ).toBe(404);
  });

  it('tells a signed-in browser session_already_available, and has no session without one', async () => {
    const browser = new TestBrowser(testApp.app);
    const none = await browser.get('/api/auth/session');
    expect(none.statusCode).toBe(401);
    expect(none.json<FlowErrorJson>().error.id).toBe('session_inactive');
    await browser.signIn(person.email, person.password);
    for (const type of ['login', 'registration', 'recovery']) {
      const response = await browser.get(`/api/auth/self-service/${type}/browser`);
      expect(response.statusCode).toBe(400);
      expect(response.json<FlowErrorJson>().error.id).toBe('session_already_available');
    }
  });
});

describe('registration', () => {
  it('validates on the server and re-renders with field messages', async () => {
    const browser = new TestBrowser(testApp.app);
    const flow = await browser.startFlow('registration');
    expect(flow.ui.nodes.map((entry) => entry.name)).toEqual(
      expect.arrayContaining([
        'csrf_token',
        'traits.email',
        'traits.name.first',
        'traits.name.last',
        'password',
        'method',
      ]),
    );
    const bad = await browser.submitFlow(flow, {
      method: 'password',
      traits: { email: 'nope', name: { first: 'A', last: 'B' } },
      password: 'short',
    });
    expect(bad.statusCode).toBe(400);
    const rendered = bad.json<FlowJson>();
    const messages = (name: string) =>
      rendered.ui.nodes.find((entry) => entry.name === name)?.messages.map((message) => message.text);
    expect(messages('traits.email')).toEqual(['Enter a valid email address.']);
    expect(messages('password')).toEqual(['The password must be at least 8 characters long.']);
    expect(rendered.ui.nodes.find((entry) => entry.name === 'traits.name.first')?.value).toBe('A');
    const taken = await browser.submitFlow(flow, {
      method: 'password',
      'traits.email': person.email,
      password: 'long enough password',
    });
    expect(
      taken.json<FlowJson>().ui.nodes.find((entry) => entry.name === 'traits.email')?.messages[0]?.text,
    ).toBe('An account with this email address already exists.');
  });

  it('creates an account without roles and signs it in', async () => {
    const browser = new TestBrowser(testApp.app);
    const flow = await browser.startFlow('registration', '?return_to=/health');
    const response = await browser.submitFlow(flow, {
      method: 'password',
      traits: { email: 'New.Person@Example.com', name: { first: 'New', last: 'Person' } },
      password: 'a good long password',
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{
      identity: { traits: { email: string }; roles: string[]; verifiable_addresses: { verified: boolean }[] };
      redirect_browser_to: string;
    }>();
    expect(body.identity.traits.email).toBe('new.person@example.com');
    expect(body.identity.roles).toEqual([]);
    expect(body.identity.verifiable_addresses[0]?.verified).toBe(false);
    expect(body.redirect_browser_to).toBe('/health');
    const whoami = (await browser.get('/api/auth/whoami')).json<{
      payload: { user: { name: string }; roles: string[] };
    }>();
    expect(whoami.payload).toMatchObject({ user: { name: 'New Person' }, roles: [] });
    expect((await browser.get('/api/test/incident')).statusCode).toBe(403);
    const identity = await db.pool.query(
      `SELECT traits FROM identities i JOIN people p ON p.id = i.id WHERE p.email = 'new.person@example.com'`,
    );
    expect(identity.rows[0]?.traits).toEqual({
      email: 'new.person@example.com',
      name: { first: 'New', last: 'Person' },
    });
    expect(
      (await new TestBrowser(testApp.app).signIn('new.person@example.com', 'a good long password'))
        .statusCode,
    ).toBe(200);
  });

  it('gives the configured role, and can be switched off', async () => {
    const withRole = await buildAuthTestApp(db.pool, {
      config: { registration: { enabled: true, role: 'viewer' } },
    });
    const browser = new TestBrowser(withRole.app);
    const flow = await browser.startFlow('registration');
    const created = await browser.submitFlow(flow, {
      method: 'password',
      'traits.email': 'viewer.signup@example.com',
      password: 'another long password',
    });
    expect(created.json<{ identity: { roles: string[] } }>().identity.roles).toEqual(['viewer']);
    await withRole.app.close();
    const closed = await buildAuthTestApp(db.pool, {
      config: { registration: { enabled: false, role: undefined } },
    });
    const refused = await new TestBrowser(closed.app).get('/api/auth/self-service/registration/browser');
    expect(refused.statusCode).toBe(400);
    expect(refused.json<FlowErrorJson>().error.id).toBe('self_service_flow_disabled');
    await closed.app.close();
  });
});

describe('settings', () => {
  it('needs a session, belongs to its person, and edits the profile', async () => {
    const anonymous = await new TestBrowser(testApp.app).get('/api/auth/self-service/settings/browser');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json<FlowErrorJson>().error.id).toBe('session_inactive');

    const owner = await createTestPerson(db.pool, { roles: ['viewer'] });
    const browser = new TestBrowser(testApp.app);
    await browser.signIn(owner.email, owner.password);
    const flow = await browser.startFlow('settings');
    expect(flow.state).toBe('show_form');
    expect(flow.identity?.id).toBe(owner.id);
    const groups = new Set(flow.ui.nodes.map((entry) => entry.group));
    for (const group of ['profile', 'password', 'lookup_secret', 'totp', 'webauthn'])
      expect(groups).toContain(group);

    // Same browser, another person signed in: the flow is not theirs.
    const intruder = await createTestPerson(db.pool, { roles: ['viewer'] });
    const logout = (await browser.get('/api/auth/self-service/logout/browser')).json<{
      logout_token: string;
    }>();
    await browser.get(`/api/auth/self-service/logout?token=${logout.logout_token}`, {
      accept: 'application/json',
    });
    await browser.signIn(intruder.email, intruder.password);
    const mismatch = await browser.submitFlow(flow, {
      method: 'profile',
      traits: { email: owner.email, name: { first: 'X', last: 'Y' } },
    });
    expect(mismatch.statusCode).toBe(403);
    expect(mismatch.json<FlowErrorJson>().error.id).toBe('security_identity_mismatch');

    const own = await browser.startFlow('settings');
    const saved = await browser.submitFlow(own, {
      method: 'profile',
      traits: { email: intruder.email, name: { first: 'Alan', last: 'Turing' } },
    });
    expect(saved.statusCode).toBe(200);
    const view = saved.json<FlowJson>();
    expect(view.state).toBe('success');
    expect(view.ui.messages[0]).toMatchObject({ type: 'success' });
    const row = await db.pool.query<{ name: string }>('SELECT name FROM people WHERE id = $1', [intruder.id]);
    expect(row.rows[0]?.name).toBe('Alan Turing');
  });

  it('asks for a fresh sign-in before a password change (session_refresh_required), then allows it', async () => {
    const owner = await createTestPerson(db.pool, { roles: ['viewer'] });
    const browser = new TestBrowser(testApp.app);
    await browser.signIn(owner.email, owner.password);
    const other = new TestBrowser(testApp.app);
    await other.signIn(owner.email, owner.password);
    const flow = await browser.startFlow('settings');
    await db.pool.query(
      `UPDATE auth_sessions SET authenticated_at = now() - interval '1 hour' WHERE person_id = $1`,
      [owner.id],
    );
    const stale = await browser.submitFlow(flow, { method: 'password', password: 'brand new password' });
    expect(stale.statusCode).toBe(403);
    const body = stale.json<FlowErrorJson>();
    expect(body.error.id).toBe('session_refresh_required');
    expect(body.redirect_browser_to).toBe(
      `/login?refresh=true&return_to=${encodeURIComponent(`/profile-settings?flow=${flow.id}`)}`,
    );

    const refresh = await browser.startFlow('login', '?refresh=true');
    expect(refresh.ui.nodes.find((entry) => entry.name === 'identifier')?.value).toBe(owner.email);
    const wrongPerson = await browser.submitFlow(refresh, { method: 'password', password: 'not it at all' });
    expect(wrongPerson.statusCode).toBe(400);
    expect(
      (await browser.submitFlow(refresh, { method: 'password', password: owner.password })).statusCode,
    ).toBe(200);
    const tooShort = await browser.submitFlow(flow, { method: 'password', password: 'short' });
    expect(tooShort.statusCode).toBe(400);
    const changed = await browser.submitFlow(flow, { method: 'password', password: 'brand new password' });
    expect(changed.statusCode).toBe(200);
    // Other browsers of this person are signed out by a password change.
    expect((await other.get('/api/auth/whoami')).statusCode).toBe(401);
    expect((await browser.get('/api/auth/whoami')).statusCode).toBe(200);
    expect((await new TestBrowser(testApp.app).signIn(owner.email, 'brand new password')).statusCode).toBe(
      200,
    );
  });
});
