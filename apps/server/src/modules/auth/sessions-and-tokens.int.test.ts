import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { createTokenForUser, TokenInputError } from './access-tokens.js';
import { CSRF_COOKIE, SESSION_COOKIE } from './http.js';
import {
  bearer,
  buildAuthTestApp,
  createTestPerson,
  TestBrowser,
  type FlowJson,
  type TestApp,
  type TestPerson,
} from './test-fixtures/auth-test-app.js';

let db: TestDatabase;
let testApp: TestApp;
let admin: TestPerson;
let viewer: TestPerson;

beforeAll(async () => {
  db = await createTestDatabase();
  testApp = await buildAuthTestApp(db.pool, {
    config: {
      throttle: {
        windowMs: 15 * 60_000,
        freeAttempts: 3,
        addressFreeAttempts: 100,
        accountFreeAttempts: 100,
        baseDelayMs: 60_000,
        maxDelayMs: 15 * 60_000,
        accountMaxDelayMs: 60_000,
      },
    },
  });
  admin = await createTestPerson(db.pool, { roles: ['admin'] });
  viewer = await createTestPerson(db.pool, { roles: ['viewer'] });
});

afterAll(async () => {
  await testApp?.app.close();
  await db?.close();
});

describe('password sign-in', () => {
  it('signs in, sets an HTTP-only SameSite=Lax cookie and answers whoami', async () => {
    const browser = new TestBrowser(testApp.app);
    const response = await browser.signIn(viewer.email, viewer.password);
    expect(response.statusCode).toBe(200);
    const body = response.json<{
      session: { identity: { id: string }; authenticator_assurance_level: string; csrf_token: string };
      redirect_browser_to: string;
    }>();
    expect(body.session.identity.id).toBe(viewer.id);
    expect(body.session.authenticator_assurance_level).toBe('aal1');
    expect(body.redirect_browser_to).toBe('/');
    const cookie = response.cookies.find((entry) => entry.name === SESSION_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBeFalsy();
    expect(body.session.csrf_token).toBe(browser.cookies.get(CSRF_COOKIE));
    const stored = await db.pool.query<{ token_hash: string }>(
      'SELECT token_hash FROM auth_sessions WHERE person_id = $1',
      [viewer.id],
    );
    expect(stored.rows.map((row) => row.token_hash)).not.toContain(cookie?.value);
    const whoami = await browser.get('/api/auth/whoami');
    expect(whoami.statusCode).toBe(200);
    expect(whoami.json<{ payload: { user: { email: string } } }>().payload.user.email).toBe(viewer.email);
    const session = await browser.get('/api/auth/session');
    expect(session.json<{ identity: { traits: { email: string } } }>().identity.traits.email).toBe(
      viewer.email,
    );
  });

  it('marks the cookies Secure on https (behind a proxy that says so)', async () => {
    const secureApp = await buildAuthTestApp(db.pool, { fastify: { trustProxy: true } });
    const browser = new TestBrowser(secureApp.app);
    const flow = await browser.request({
      method: 'GET',
      url: '/api/auth/self-service/login/browser',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(flow.cookies.find((entry) => entry.name === 'opsdeck_flow_csrf')?.secure).toBe(true);
    const login = await browser.request({
      method: 'POST',
      url: `/api/auth/self-service/login?flow=${flow.json<FlowJson>().id}`,
      headers: { 'x-forwarded-proto': 'https' },
      payload: {
        csrf_token: flow.json<FlowJson>().csrf_token,
        method: 'password',
        identifier: viewer.email,
        password: viewer.password,
      },
    });
    expect(login.statusCode).toBe(200);
    expect(login.cookies.find((entry) => entry.name === SESSION_COOKIE)).toMatchObject({
      secure: true,
      httpOnly: true,
      sameSite: 'Lax',
    });
    await secureApp.app.close();
  });

  it('re-renders the flow with a message on a wrong password and on missing fields', async () => {
    const person = await createTestPerson(db.pool, { roles: ['viewer'] });
    const browser = new TestBrowser(testApp.app);
    const flow = await browser.startFlow('login');
    const wrong = await browser.submitFlow(flow, {
      method: 'password',
      identifier: person.email,
      password: 'nope nope',
    });
    expect(wrong.statusCode).toBe(400);
    const rendered = wrong.json<FlowJson>();
    expect(rendered.id).toBe(flow.id);
    expect(rendered.ui.messages[0]).toMatchObject({
      type: 'error',
      text: 'The email address or password is incorrect.',
    });
    expect(rendered.ui.nodes.find((entry) => entry.name === 'identifier')?.value).toBe(person.email);
    const missing = await browser.submitFlow(flow, { method: 'password', identifier: '', password: '' });
    expect(missing.statusCode).toBe(400);
    const nodes = missing.json<FlowJson>().ui.nodes;
    expect(nodes.find((entry) => entry.name === 'password')?.messages[0]?.text).toBe(
      'This field is required',
    );
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it('makes a client that keeps failing on an account wait, with 429 and Retry-After', async () => {
    const person = await createTestPerson(db.pool, { roles: ['viewer'] });
    const browser = new TestBrowser(testApp.app);
    const flow = await browser.startFlow('login');
    const attempt = (password: string) =>
      browser.submitFlow(flow, { method: 'password', identifier: person.email, password });
    expect((await attempt('wrong 1')).statusCode).toBe(400);
    expect((await attempt('wrong 2')).statusCode).toBe(400);
    const locked = await attempt('wrong 3');
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(900);
    expect(locked.json<{ error: { id: string; message: string } }>().error.message).toMatch(
      /Too many failed attempts/,
    );
    // Even the right password waits until the lock ends.
    const right = await attempt(person.password);
    expect(right.statusCode).toBe(429);
    expect(right.headers['retry-after']).toBeDefined();
    await db.pool.query(
      `UPDATE auth_login_throttle SET locked_until = now() - interval '1 second' WHERE key = $1`,
      [`pair:${person.email}|127.0.0.1`],
    );
    expect((await attempt(person.password)).statusCode).toBe(200);
  });

  it('throttles an address across accounts', async () => {
    const local = await buildAuthTestApp(db.pool, {
      config: {
        throttle: {
          windowMs: 60_000,
          freeAttempts: 100,
          addressFreeAttempts: 2,
          accountFreeAttempts: 100,
          baseDelayMs: 60_000,
          maxDelayMs: 15 * 60_000,
          accountMaxDelayMs: 60_000,
        },
      },
    });
    const browser = new TestBrowser(local.app);
    const flow = await browser.startFlow('login');
    const attempt = (email: string) =>
      browser.request({
        method: 'POST',
        url: `/api/auth/self-service/login?flow=${flow.id}`,
        payload: {
          csrf_token: flow.csrf_token,
          method: 'password',
          identifier: email,
          password: 'guess guess',
        },
        remoteAddress: '10.9.8.7',
      });
    expect((await attempt('a@example.com')).statusCode).toBe(400);
    const locked = await attempt('b@example.com');
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    await local.app.close();
  });

  it('refuses a flow submission with a wrong CSRF token or from another browser', async () => {
    const browser = new TestBrowser(testApp.app);
    const flow = await browser.startFlow('login');
    const forged = await browser.post(`/api/auth/self-service/login?flow=${flow.id}`, {
      csrf_token: 'forged',
      method: 'password',
      identifier: viewer.email,
      password: viewer.password,
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toMatchObject({
      error: {
        id: 'security_csrf_violation',
        message: 'A security violation was detected, please fill out the form again.',
      },
    });
    const other = new TestBrowser(testApp.app);
    const stolen = await other.submitFlow(flow, {
      method: 'password',
      identifier: viewer.email,
      password: viewer.password,
    });
    expect(stolen.statusCode).toBe(403);
    expect(stolen.json<{ error: { id: string } }>().error.id).toBe('security_csrf_violation');
    expect((await other.get(`/api/auth/self-service/login/flows?id=${flow.id}`)).statusCode).toBe(403);
  });

  it('refuses a state-changing cookie request without the CSRF header; bearer requests need none', async () => {
    const browser = new TestBrowser(testApp.app);
    await browser.signIn(admin.email, admin.password);
    const refused = await browser.request({
      method: 'POST',
      url: '/api/test/incident',
      payload: {},
      csrf: false,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ code: string }>().code).toBe('security_csrf_violation');
    const wrong = await browser.request({
      method: 'POST',
      url: '/api/test/incident',
      payload: {},
      headers: { 'x-csrf-token': 'nope' },
    });
    expect(wrong.statusCode).toBe(403);
    expect((await browser.post('/api/test/incident', {})).statusCode).toBe(200);
    expect(
      (await browser.request({ method: 'GET', url: '/api/test/incident', csrf: false })).statusCode,
    ).toBe(200);
  });

  it('an expired session is no session', async () => {
    const browser = new TestBrowser(testApp.app);
    await browser.signIn(viewer.email, viewer.password);
    expect((await browser.get('/api/auth/whoami')).statusCode).toBe(200);
    await db.pool.query(
      `UPDATE auth_sessions SET expires_at = now() - interval '1 second' WHERE person_id = $1`,
      [viewer.id],
    );
    expect((await browser.get('/api/auth/whoami')).statusCode).toBe(401);
    const session = await browser.get('/api/auth/session');
    expect(session.statusCode).toBe(401);
    expect(session.json<{ error: { id: string } }>().error.id).toBe('session_inactive');
  });

  it('logs out with the logout token and rotates the cookie on sign-in', async () => {
    const browser = new TestBrowser(testApp.app);
    await browser.signIn(viewer.email, viewer.password);
    const first = browser.cookies.get(SESSION_COOKIE);
    const again = await browser.get('/api/auth/self-service/login/browser');
    expect(again.statusCode).toBe(400);
    expect(again.json<{ error: { id: string } }>().error.id).toBe('session_already_available');
    const refresh = await browser.startFlow('login', '?refresh=true');
    expect(refresh.refresh).toBe(true);
    expect(
      (await browser.submitFlow(refresh, { method: 'password', password: viewer.password })).statusCode,
    ).toBe(200);
    expect(browser.cookies.get(SESSION_COOKIE)).not.toBe(first);
    const logout = await browser.get('/api/auth/self-service/logout/browser');
    const { logout_token: token } = logout.json<{ logout_token: string }>();
    expect(
      (await browser.get('/api/auth/self-service/logout?token=wrong', { accept: 'application/json' }))
        .statusCode,
    ).toBe(403);
    const done = await browser.get(`/api/auth/self-service/logout?token=${token}`, {
      accept: 'application/json',
    });
    expect(done.statusCode).toBe(204);
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
    expect((await browser.get('/api/auth/whoami')).statusCode).toBe(401);
  });
});

describe('API tokens', () => {
  it('creates, uses, lists, explains and revokes a token; the hash is never returned', async () => {
    const browser = new TestBrowser(testApp.app);
    await browser.signIn(admin.email, admin.password);
    const missing = await browser.post('/api/auth/create_token', { name: '  ', expiry: 'never', scope: [] });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ error: 'Name is required', field: 'name' });
    const badScope = await browser.post('/api/auth/create_token', {
      name: 'x',
      scope: [{ subject: '', object: 'mcp', action: 'read' }],
    });
    expect(badScope.statusCode).toBe(400);
    // The route's contract schema refused it: the field is named in the body and in the text.
    expect(badScope.json()).toEqual({
      error: 'This action is not allowed for this scope object',
      field: 'scope.0.action',
    });
    const notAList = await browser.post('/api/auth/create_token', { name: 'x', scope: 'all' });
    expect(notAList.json()).toEqual({
      error: 'scope: Invalid input: expected array, received string',
      field: 'scope',
    });
    const notAnObject = await browser.post('/api/auth/create_token', ['x']);
    expect(notAnObject.statusCode).toBe(400);
    const badExpiry = await browser.post('/api/auth/create_token', { name: 'x', expiry: 'tomorrow' });
    expect(badExpiry.json()).toMatchObject({ field: 'expiry' });
    const created = await browser.post('/api/auth/create_token', {
      name: 'ci',
      expiry: 'never',
      scope: [{ subject: '', object: 'catalog', action: 'read' }],
    });
    expect(created.statusCode).toBe(200);
    const token = created.json<{ payload: { token: string } }>().payload.token;
    expect(token).toMatch(/^opsdeck_[0-9a-f]{32}_/);

    expect(
      (await testApp.app.inject({ method: 'GET', url: '/api/db/configs', headers: bearer(token) }))
        .statusCode,
    ).toBe(200);
    const list = await browser.get('/api/auth/tokens');
    const entry = list
      .json<{ payload: { id: string; name: string; person: { id: string } }[] }>()
      .payload.find((row) => row.name === 'ci');
    expect(entry?.person.id).toBe(admin.id);
    const stored = await db.pool.query<{ value: string }>('SELECT value FROM access_tokens WHERE id = $1', [
      entry?.id,
    ]);
    const hash = stored.rows[0]?.value as string;
    expect(hash).toMatch(/^scrypt\$/);
    expect(hash).not.toContain(token.slice('opsdeck_'.length + 33));
    const permissions = await browser.get(`/api/rbac/token/${entry?.id}/permissions`);
    expect(permissions.json()).toEqual({
      payload: [{ subject: entry?.id, object: 'catalog', action: 'read', deny: false }],
    });
    for (const response of [list, permissions, created, await browser.get('/api/db/access_tokens')]) {
      expect(response.body).not.toContain(hash);
    }
    expect(
      (
        await browser.request({
          method: 'DELETE',
          url: '/api/auth/token/00000000-0000-0000-0000-000000000001',
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await browser.request({ method: 'DELETE', url: `/api/auth/token/${entry?.id}` })).statusCode,
    ).toBe(200);
    expect(
      (await testApp.app.inject({ method: 'GET', url: '/api/db/configs', headers: bearer(token) }))
        .statusCode,
    ).toBe(401);
  });

  it('a token revoked while in use stops working at once, and others cannot revoke it', async () => {
    const owner = new TestBrowser(testApp.app);
    await owner.signIn(viewer.email, viewer.password);
    const token = (await owner.post('/api/auth/create_token', { name: 'script' })).json<{
      payload: { token: string };
    }>().payload.token;
    const use = () => testApp.app.inject({ method: 'GET', url: '/api/auth/whoami', headers: bearer(token) });
    expect((await use()).statusCode).toBe(200);
    expect((await use()).statusCode).toBe(200);
    const id = (await owner.get('/api/auth/tokens'))
      .json<{ payload: { id: string; name: string }[] }>()
      .payload.find((row) => row.name === 'script')?.id;
    const stranger = await createTestPerson(db.pool, { roles: ['editor'] });
    const strangerBrowser = new TestBrowser(testApp.app);
    await strangerBrowser.signIn(stranger.email, stranger.password);
    expect(
      (await strangerBrowser.request({ method: 'DELETE', url: `/api/auth/token/${id}` })).statusCode,
    ).toBe(403);
    expect((await strangerBrowser.get('/api/auth/tokens')).json<{ payload: unknown[] }>().payload).toEqual(
      [],
    );
    expect((await owner.request({ method: 'DELETE', url: `/api/auth/token/${id}` })).statusCode).toBe(200);
    expect((await use()).statusCode).toBe(401);
    expect(
      (
        await testApp.app.inject({
          method: 'POST',
          url: '/api/auth/create_token',
          headers: bearer(token),
          payload: { name: 'x' },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('a token cannot mint tokens; an expired token is refused', async () => {
    const token = await createTokenForUser(db.pool, { email: admin.email, name: 'cli' });
    const minted = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/create_token',
      headers: bearer(token),
      payload: { name: 'more' },
    });
    expect(minted.statusCode).toBe(403);
    await db.pool.query(
      `UPDATE access_tokens SET expires_at = now() - interval '1 second' WHERE name = 'cli'`,
    );
    expect(
      (await testApp.app.inject({ method: 'GET', url: '/api/auth/whoami', headers: bearer(token) }))
        .statusCode,
    ).toBe(401);
  });

  it('createTokenForUser takes OBJECT:ACTION scopes as the CLI passes them', async () => {
    const token = await createTokenForUser(db.pool, {
      email: admin.email.toUpperCase(),
      name: 'runner',
      scopes: ['playbooks:playbook:run', 'catalog:read'],
    });
    const stored = await db.pool.query<{ scope: unknown }>(
      `SELECT scope FROM access_tokens WHERE name = 'runner'`,
    );
    expect(stored.rows[0]?.scope).toEqual([
      { subject: '', object: 'playbooks', action: 'playbook:run' },
      { subject: '', object: 'catalog', action: 'read' },
    ]);
    expect(
      (await testApp.app.inject({ method: 'GET', url: '/api/db/incidents', headers: bearer(token) }))
        .statusCode,
    ).toBe(403);
    await expect(
      createTokenForUser(db.pool, { email: 'nobody@example.com', name: 'x' }),
    ).rejects.toBeInstanceOf(TokenInputError);
    await expect(
      createTokenForUser(db.pool, { email: admin.email, name: 'x', scopes: ['mcp:read'] }),
    ).rejects.toThrow(/not allowed/);
    await expect(createTokenForUser(db.pool, { email: admin.email, name: ' ' })).rejects.toThrow(
      'Name is required',
    );
  });
});

describe('people administration', () => {
  it('invites a person, who follows the link to set a password', async () => {
    const browser = new TestBrowser(testApp.app);
    await browser.signIn(admin.email, admin.password);
    const bad = await browser.post('/api/auth/invite_user', {
      firstName: 'A',
      lastName: 'B',
      email: 'not-an-email',
      role: 'viewer',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'email' });
    const badRole = await browser.post('/api/auth/invite_user', {
      firstName: 'A',
      lastName: 'B',
      email: 'a@example.com',
      role: 'king',
    });
    expect(badRole.json()).toMatchObject({ field: 'role' });
    const invited = await browser.post('/api/auth/invite_user', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      role: 'responder',
    });
    expect(invited.statusCode).toBe(200);
    const { link } = invited.json<{ link: string }>();
    expect(link).toMatch(/^http:\/\/opsdeck\.test\/api\/auth\/self-service\/recovery\/link\?token=/);
    expect(
      (await browser.post('/api/auth/invite_user', { email: 'ada@example.com', role: 'viewer' })).json(),
    ).toMatchObject({ field: 'email' });
    const viewerBrowser = new TestBrowser(testApp.app);
    await viewerBrowser.signIn(viewer.email, viewer.password);
    expect(
      (await viewerBrowser.post('/api/auth/invite_user', { email: 'x@example.com', role: 'viewer' }))
        .statusCode,
    ).toBe(403);

    const invitee = new TestBrowser(testApp.app);
    const follow = await invitee.get(new URL(link).pathname + new URL(link).search);
    expect(follow.statusCode).toBe(303);
    const location = follow.headers.location as string;
    expect(location).toMatch(/^\/profile-settings\?flow=/);
    const flowId = new URL(location, 'http://x').searchParams.get('flow');
    const settings = (
      await invitee.get(`/api/auth/self-service/settings/flows?id=${flowId}`)
    ).json<FlowJson>();
    expect(settings.identity?.traits.email).toBe('ada@example.com');
    const saved = await invitee.submitFlow(settings, { method: 'password', password: 'analytical engine' });
    expect(saved.statusCode).toBe(200);
    const whoami = (await invitee.get('/api/auth/whoami')).json<{ payload: { roles: string[] } }>();
    expect(whoami.payload.roles).toEqual(['responder']);
    const fresh = new TestBrowser(testApp.app);
    expect((await fresh.signIn('ada@example.com', 'analytical engine')).statusCode).toBe(200);
    // The link works once.
    expect(
      (await new TestBrowser(testApp.app).get(new URL(link).pathname + new URL(link).search)).headers
        .location,
    ).toMatch(/^\/recovery\?flow=/);
  });

  it('edits people, assigns roles and soft-deletes, with 400/403/404 as it should', async () => {
    const browser = new TestBrowser(testApp.app);
    await browser.signIn(admin.email, admin.password);
    const person = await createTestPerson(db.pool, { roles: ['guest'] });
    const personBrowser = new TestBrowser(testApp.app);
    await personBrowser.signIn(person.email, person.password);
    const cookieBefore = personBrowser.cookies.get(SESSION_COOKIE);

    const renamed = await personBrowser.post('/api/people/update', { id: person.id, name: 'Grace Hopper' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Grace Hopper', roles: ['guest'] });
    expect(
      (await personBrowser.post('/api/people/update', { id: person.id, roles: ['admin'] })).statusCode,
    ).toBe(403);
    expect((await personBrowser.post('/api/people/update', { id: admin.id, name: 'x' })).statusCode).toBe(
      403,
    );
    expect((await browser.post('/api/people/update', { id: person.id, email: 'nope' })).json()).toMatchObject(
      { field: 'email' },
    );
    expect(
      (await browser.post('/api/people/update', { id: '00000000-0000-0000-0000-00000000abcd', name: 'x' }))
        .statusCode,
    ).toBe(404);

    const roles = await browser.post(`/api/rbac/${person.id}/update_role`, {
      roles: ['editor', 'responder'],
    });
    expect(roles.json()).toMatchObject({ payload: { roles: ['editor', 'responder'] } });
    expect(
      (await browser.post(`/api/rbac/${person.id}/update_role`, { roles: ['wizard'] })).json(),
    ).toMatchObject({ field: 'roles.0' });
    expect((await browser.post(`/api/rbac/${admin.id}/update_role`, { roles: [] })).json()).toEqual({
      error: 'At least one admin must remain',
      field: 'roles',
    });
    // The person's next request swaps their cookie: a privilege change rotates the session.
    expect((await personBrowser.post('/api/test/canaries', {})).statusCode).toBe(200);
    expect(personBrowser.cookies.get(SESSION_COOKIE)).not.toBe(cookieBefore);

    expect(
      (await personBrowser.request({ method: 'DELETE', url: `/api/people/${admin.id}` })).statusCode,
    ).toBe(403);
    expect(
      (await browser.request({ method: 'DELETE', url: `/api/people/${admin.id}` })).json(),
    ).toMatchObject({ field: 'id' });
    expect((await browser.request({ method: 'DELETE', url: `/api/people/${person.id}` })).statusCode).toBe(
      200,
    );
    expect((await browser.request({ method: 'DELETE', url: `/api/people/${person.id}` })).statusCode).toBe(
      404,
    );
    const row = await db.pool.query<{ deleted_at: Date | null }>(
      'SELECT deleted_at FROM people WHERE id = $1',
      [person.id],
    );
    expect(row.rows[0]?.deleted_at).toBeInstanceOf(Date);
    expect((await personBrowser.get('/api/auth/whoami')).statusCode).toBe(401);
    expect((await new TestBrowser(testApp.app).signIn(person.email, person.password)).statusCode).toBe(400);
  });
});
