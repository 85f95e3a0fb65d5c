import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import {
  Configuration,
  FrontendApi,
  type LoginFlow,
  type RecoveryFlow,
  type SettingsFlow,
  type UiNode,
  type UiNodeInputAttributes,
  type UiNodeTextAttributes,
} from '@ory/client';
import { kratosFlowSchema, kratosSessionSchema } from '@opsdeck/contracts';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test/harness/db.js';
import { createSecretBox } from '../../../platform/secrets.js';
import { buildAuthTestApp, createTestPerson, type TestApp } from '../test-fixtures/auth-test-app.js';
import { startSmtpCapture, type CapturedMail } from '../test-fixtures/smtp-capture.js';

/**
 * The Kratos-shaped door driven by the official Ory client (`@ory/client` FrontendApi) against a
 * listening server: what an ecosystem client pointed at Opsdeck does.
 */

let db: TestDatabase;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
let testApp: TestApp;
let origin: string;

beforeAll(async () => {
  db = await createTestDatabase();
  smtp = await startSmtpCapture();
  testApp = await buildAuthTestApp(db.pool, {
    secrets: createSecretBox(randomBytes(32)),
    config: { smtp: { url: smtp.url, from: 'Opsdeck <ops@opsdeck.test>' } },
  });
  await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(testApp.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await testApp?.app.close();
  await smtp?.close();
  await db?.close();
});

/** One browser: the Ory client plus the cookies the server set (the client keeps none in Node). */
class OryBrowser {
  readonly cookies = new Map<string, string>();
  readonly api = new FrontendApi(new Configuration({ basePath: `${origin}/api/kratos` }));

  /** Request options carrying this browser's cookies. */
  get with(): { headers: Record<string, string>; maxRedirects: number } {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    return { headers: cookie ? { Cookie: cookie } : {}, maxRedirects: 0 };
  }

  /** Keeps the cookies of an answer (or of an error's answer). */
  keep<T extends { headers: unknown }>(response: T): T {
    const set = (response.headers as Record<string, unknown>)['set-cookie'];
    for (const line of Array.isArray(set) ? (set as string[]) : []) {
      const [pair, ...attributes] = line.split(';');
      const index = (pair as string).indexOf('=');
      const name = (pair as string).slice(0, index).trim();
      const value = (pair as string).slice(index + 1).trim();
      const expired = attributes.some((attribute) => /expires=Thu, 01 Jan 1970/i.test(attribute));
      if (value === '' || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  async call<T extends { headers: unknown }>(work: (options: OryBrowser['with']) => Promise<T>): Promise<T> {
    try {
      return this.keep(await work(this.with));
    } catch (error) {
      const response = (error as { response?: { headers: unknown } }).response;
      if (response) this.keep(response);
      throw error;
    }
  }
}

/** What a refused call answers: a Kratos error, or (400) the flow re-rendered. */
interface RefusalBody {
  error: { id?: string; code?: number; status?: string };
  redirect_browser_to?: string;
  use_flow_id?: string;
  id?: string;
  ui: { messages: unknown[] };
}

/** The HTTP status and body of a refused call. */
async function refusal(work: Promise<unknown>): Promise<{ status: number; data: RefusalBody }> {
  try {
    await work;
  } catch (error) {
    const response = (error as { response?: { status: number; data: RefusalBody } }).response;
    if (response) return { status: response.status, data: response.data };
    throw error;
  }
  throw new Error('the call was not refused');
}

function csrfOf(flow: { ui: { nodes: UiNode[] } }): string {
  const csrf = flow.ui.nodes.find(
    (entry) => (entry.attributes as UiNodeInputAttributes).name === 'csrf_token',
  );
  return String((csrf?.attributes as UiNodeInputAttributes).value);
}

function totpCode(secret: string, stepsAhead = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });
}

async function signInWithPassword(browser: OryBrowser, email: string, password: string) {
  const flow = (await browser.call((options) => browser.api.createBrowserLoginFlow({}, options))).data;
  return browser.call((options) =>
    browser.api.updateLoginFlow(
      {
        flow: flow.id,
        updateLoginFlowBody: { csrf_token: csrfOf(flow), method: 'password', identifier: email, password },
      },
      options,
    ),
  );
}

describe('the Kratos door with @ory/client', () => {
  it('creates a login flow in the Kratos shape, re-renders a wrong password with 400, signs in and reads the session', async () => {
    const person = await createTestPerson(db.pool, { roles: ['viewer'] });
    const browser = new OryBrowser();
    const created = await browser.call((options) => browser.api.createBrowserLoginFlow({}, options));
    const flow: LoginFlow = created.data;
    expect(kratosFlowSchema.parse(flow).type).toBe('browser');
    expect(flow.ui.action).toBe(`http://opsdeck.test/api/kratos/self-service/login?flow=${flow.id}`);
    const identifier = flow.ui.nodes.find(
      (entry) => (entry.attributes as UiNodeInputAttributes).name === 'identifier',
    );
    expect(identifier).toMatchObject({
      type: 'input',
      group: 'default',
      attributes: { node_type: 'input', type: 'email', required: true, disabled: false },
      meta: { label: { text: 'Email', type: 'info' } },
    });
    expect(csrfOf(flow)).toMatch(/^[A-Za-z0-9_-]{20,}$/);

    // The same flow, fetched again by id, from the same browser.
    const fetched = await browser.call((options) => browser.api.getLoginFlow({ id: flow.id }, options));
    expect(fetched.data.id).toBe(flow.id);

    const wrong = await refusal(
      browser.call((options) =>
        browser.api.updateLoginFlow(
          {
            flow: flow.id,
            updateLoginFlowBody: {
              csrf_token: csrfOf(flow),
              method: 'password',
              identifier: person.email,
              password: 'not the password',
            },
          },
          options,
        ),
      ),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.data.id).toBe(flow.id);
    expect(wrong.data.ui.messages[0]).toMatchObject({
      id: 4000006,
      type: 'error',
      text: 'The email address or password is incorrect.',
    });

    const done = await browser.call((options) =>
      browser.api.updateLoginFlow(
        {
          flow: flow.id,
          updateLoginFlowBody: {
            csrf_token: csrfOf(flow),
            method: 'password',
            identifier: person.email,
            password: person.password,
          },
        },
        options,
      ),
    );
    expect(done.status).toBe(200);
    expect(done.data.session.identity?.traits).toMatchObject({ email: person.email });
    expect(done.data.session_token).toBeUndefined();
    expect(browser.cookies.get('opsdeck_session')).toBeTruthy();

    const session = await browser.call((options) => browser.api.toSession({}, options));
    expect(kratosSessionSchema.parse(session.data)).toMatchObject({
      id: done.data.session.id,
      active: true,
      authenticator_assurance_level: 'aal1',
      authentication_methods: [{ method: 'password', aal: 'aal1' }],
      identity: {
        id: person.id,
        schema_id: 'default',
        state: 'active',
        traits: { email: person.email, name: { first: 'Test' } },
        verifiable_addresses: [{ value: person.email, verified: true, via: 'email' }],
        recovery_addresses: [{ value: person.email, via: 'email' }],
      },
    });
    expect(session.headers['x-kratos-authenticated-identity-id']).toBe(person.id);
    // The identity's schema_url serves its schema.
    const schema = await fetch(
      (session.data.identity?.schema_url as string).replace('http://opsdeck.test', origin),
    );
    expect(
      ((await schema.json()) as { properties: { traits: { required: string[] } } }).properties.traits
        .required,
    ).toEqual(['email']);
    expect((await fetch(`${origin}/api/kratos/schemas/other`)).status).toBe(404);

    // The session is the one the web app's own door sees.
    const own = await testApp.app.inject({
      method: 'GET',
      url: '/api/auth/session',
      cookies: { opsdeck_session: browser.cookies.get('opsdeck_session') as string },
    });
    expect(own.json<{ id: string }>().id).toBe(session.data.id);

    // Signed in, a new login flow is refused as Kratos refuses it.
    const again = await refusal(browser.call((options) => browser.api.createBrowserLoginFlow({}, options)));
    expect(again.status).toBe(400);
    expect(again.data.error.id).toBe('session_already_available');
  });

  it('answers 401 session_inactive to toSession without a session', async () => {
    const browser = new OryBrowser();
    const answer = await refusal(browser.call((options) => browser.api.toSession({}, options)));
    expect(answer.status).toBe(401);
    expect(answer.data.error).toMatchObject({ id: 'session_inactive', code: 401, status: 'Unauthorized' });
  });

  it('signs in through an api flow with a session token, and logs out natively', async () => {
    const person = await createTestPerson(db.pool, { roles: ['viewer'] });
    const api = new FrontendApi(new Configuration({ basePath: `${origin}/api/kratos` }));
    const flow = (await api.createNativeLoginFlow({})).data;
    expect(flow.type).toBe('api');
    expect(csrfOf(flow)).toBe('');
    const done = await api.updateLoginFlow({
      flow: flow.id,
      updateLoginFlowBody: {
        csrf_token: '',
        method: 'password',
        identifier: person.email,
        password: person.password,
      },
    });
    const token = done.data.session_token as string;
    expect(token).toBeTruthy();
    const session = await api.toSession({ xSessionToken: token });
    expect(session.data.identity?.id).toBe(person.id);

    // A browser flow is not an api flow: without its cookie and token it is refused.
    const browser = new OryBrowser();
    const browserFlow = (await browser.call((options) => browser.api.createBrowserLoginFlow({}, options)))
      .data;
    const forged = await refusal(
      api.updateLoginFlow({
        flow: browserFlow.id,
        updateLoginFlowBody: {
          csrf_token: '',
          method: 'password',
          identifier: person.email,
          password: person.password,
        },
      }),
    );
    expect(forged.status).toBe(403);
    expect(forged.data.error.id).toBe('security_csrf_violation');

    await api.performNativeLogout({ performNativeLogoutBody: { session_token: token } });
    expect((await refusal(api.toSession({ xSessionToken: token }))).status).toBe(401);
    expect(
      (await refusal(api.performNativeLogout({ performNativeLogoutBody: { session_token: '' } }))).status,
    ).toBe(400);
  });

  it('enables TOTP through the settings flow, then a new sign-in needs aal2, met with a code', async () => {
    const person = await createTestPerson(db.pool, { roles: ['editor'] });
    const browser = new OryBrowser();
    await signInWithPassword(browser, person.email, person.password);
    const settings: SettingsFlow = (
      await browser.call((options) => browser.api.createBrowserSettingsFlow({}, options))
    ).data;
    expect(settings.identity.id).toBe(person.id);
    const secretNode = settings.ui.nodes.find(
      (entry) => entry.type === 'text' && (entry.attributes as UiNodeTextAttributes).id === 'totp_secret_key',
    );
    const secret = (secretNode?.attributes as UiNodeTextAttributes).text.text;
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);

    const enabled = await browser.call(async (options) =>
      browser.api.updateSettingsFlow(
        {
          flow: settings.id,
          updateSettingsFlowBody: {
            csrf_token: csrfOf(settings),
            method: 'totp',
            totp_code: await totpCode(secret),
          },
        },
        options,
      ),
    );
    expect(enabled.data.state).toBe('success');
    expect(enabled.data.ui.messages?.[0]).toMatchObject({ id: 1050001, type: 'success' });
    expect(
      (await browser.call((options) => browser.api.toSession({}, options))).data
        .authenticator_assurance_level,
    ).toBe('aal2');

    // Next sign-in: the password alone gives aal1, and toSession asks for the second factor.
    const logout = (await browser.call((options) => browser.api.createBrowserLogoutFlow({}, options))).data;
    expect(logout.logout_url).toContain('/api/kratos/self-service/logout?token=');
    await browser.call((options) => browser.api.updateLogoutFlow({ token: logout.logout_token }, options));
    expect((await refusal(browser.call((options) => browser.api.toSession({}, options)))).status).toBe(401);

    await signInWithPassword(browser, person.email, person.password);
    const needs = await refusal(browser.call((options) => browser.api.toSession({}, options)));
    expect(needs.status).toBe(403);
    expect(needs.data.error.id).toBe('session_aal2_required');
    expect(needs.data.redirect_browser_to).toBe(
      'http://opsdeck.test/api/kratos/self-service/login/browser?aal=aal2',
    );

    const second: LoginFlow = (
      await browser.call((options) => browser.api.createBrowserLoginFlow({ aal: 'aal2' }, options))
    ).data;
    expect(second.requested_aal).toBe('aal2');
    expect(
      second.ui.nodes.some((entry) => (entry.attributes as UiNodeInputAttributes).name === 'totp_code'),
    ).toBe(true);
    const met = await browser.call(async (options) =>
      browser.api.updateLoginFlow(
        {
          flow: second.id,
          updateLoginFlowBody: {
            csrf_token: csrfOf(second),
            method: 'totp',
            totp_code: await totpCode(secret, 1),
          },
        },
        options,
      ),
    );
    expect(met.data.session.authenticator_assurance_level).toBe('aal2');
    const session = await browser.call((options) => browser.api.toSession({}, options));
    expect(session.data.authentication_methods?.map((entry) => entry.method)).toEqual(['password', 'totp']);

    // refresh=true asks the signed-in person to confirm who they are.
    const refresh = (
      await browser.call((options) => browser.api.createBrowserLoginFlow({ refresh: true }, options))
    ).data;
    expect(refresh.refresh).toBe(true);
  });

  it('recovers an account by email code through a real SMTP server', async () => {
    const person = await createTestPerson(db.pool, { roles: ['viewer'] });
    const browser = new OryBrowser();
    const flow: RecoveryFlow = (
      await browser.call((options) => browser.api.createBrowserRecoveryFlow({}, options))
    ).data;
    expect(flow.state).toBe('choose_method');
    const before = smtp.messages.length;
    const sent = await browser.call((options) =>
      browser.api.updateRecoveryFlow(
        {
          flow: flow.id,
          updateRecoveryFlowBody: { csrf_token: csrfOf(flow), method: 'code', email: person.email },
        },
        options,
      ),
    );
    expect(sent.data.state).toBe('sent_email');
    const mail = (await smtp.waitFor(before + 1))[before] as CapturedMail;
    expect(mail.to).toEqual([person.email]);
    const code = /code: (\d{6})/.exec(mail.text)?.[1] as string;
    expect(code).toMatch(/^\d{6}$/);

    const passed = await refusal(
      browser.call((options) =>
        browser.api.updateRecoveryFlow(
          { flow: flow.id, updateRecoveryFlowBody: { csrf_token: csrfOf(flow), method: 'code', code } },
          options,
        ),
      ),
    );
    expect(passed.status).toBe(422);
    expect(passed.data.error.id).toBe('browser_location_change_required');
    expect(passed.data.redirect_browser_to).toMatch(/^http:\/\/opsdeck\.test\/profile-settings\?flow=/);
    const session = await browser.call((options) => browser.api.toSession({}, options));
    expect(session.data.identity?.id).toBe(person.id);
    expect(session.data.authentication_methods?.[0]?.method).toBe('code_recovery');
  });

  it('answers 410 self_service_flow_expired with a replacement flow id', async () => {
    const browser = new OryBrowser();
    const flow = (await browser.call((options) => browser.api.createBrowserLoginFlow({}, options))).data;
    await db.pool.query(`UPDATE auth_flows SET expires_at = now() - interval '1 minute' WHERE id = $1`, [
      flow.id,
    ]);
    const expired = await refusal(
      browser.call((options) =>
        browser.api.updateLoginFlow(
          {
            flow: flow.id,
            updateLoginFlowBody: {
              csrf_token: csrfOf(flow),
              method: 'password',
              identifier: 'a@b.c',
              password: 'x',
            },
          },
          options,
        ),
      ),
    );
    expect(expired.status).toBe(410);
    expect(expired.data.error).toMatchObject({ id: 'self_service_flow_expired', code: 410, status: 'Gone' });
    expect(expired.data.use_flow_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(expired.data.use_flow_id).not.toBe(flow.id);
    const fresh = await browser.call((options) =>
      browser.api.getLoginFlow({ id: expired.data.use_flow_id as string }, options),
    );
    expect(fresh.data.id).toBe(expired.data.use_flow_id);
    expect(
      (await refusal(browser.call((options) => browser.api.getLoginFlow({ id: flow.id }, options)))).status,
    ).toBe(410);
  });

  it("refuses a submission without the flow's CSRF token, or from another browser, with security_csrf_violation", async () => {
    const person = await createTestPerson(db.pool, { roles: ['viewer'] });
    const browser = new OryBrowser();
    const flow = (await browser.call((options) => browser.api.createBrowserLoginFlow({}, options))).data;
    const body = { method: 'password' as const, identifier: person.email, password: person.password };

    const missing = await refusal(
      browser.call((options) =>
        browser.api.updateLoginFlow(
          { flow: flow.id, updateLoginFlowBody: { ...body, csrf_token: 'forged' } },
          options,
        ),
      ),
    );
    expect(missing.status).toBe(403);
    expect(missing.data.error).toMatchObject({ id: 'security_csrf_violation', code: 403 });

    const other = new OryBrowser();
    const elsewhere = await refusal(
      other.call((options) =>
        other.api.updateLoginFlow(
          { flow: flow.id, updateLoginFlowBody: { ...body, csrf_token: csrfOf(flow) } },
          options,
        ),
      ),
    );
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.data.error.id).toBe('security_csrf_violation');
    expect(
      (await refusal(other.call((options) => other.api.getLoginFlow({ id: flow.id }, options)))).status,
    ).toBe(403);
    expect(browser.cookies.has('opsdeck_session')).toBe(false);
  });

  it('sends a navigating browser to the screen, and failures to the error screen whose id reads back', async () => {
    const browser = new OryBrowser();
    const navigate = await fetch(`${origin}/api/kratos/self-service/login/browser`, {
      redirect: 'manual',
      headers: { accept: 'text/html' },
    });
    expect(navigate.status).toBe(303);
    expect(navigate.headers.get('location')).toMatch(/^http:\/\/opsdeck\.test\/login\?flow=[0-9a-f-]{36}$/);

    // Signed in, a navigating browser asking for a login flow is sent home.
    const person = await createTestPerson(db.pool, { roles: ['viewer'] });
    await signInWithPassword(browser, person.email, person.password);
    const home = await fetch(`${origin}/api/kratos/self-service/login/browser`, {
      redirect: 'manual',
      headers: { accept: 'text/html', cookie: browser.with.headers.Cookie as string },
    });
    expect(home.status).toBe(303);
    expect(home.headers.get('location')).toBe('http://opsdeck.test/');
    // A native client gets JSON whatever it accepts.
    const native = await fetch(`${origin}/api/kratos/self-service/settings/api`, {
      headers: { accept: 'text/html' },
    });
    expect(native.status).toBe(401);
    expect(((await native.json()) as { error: { id: string } }).error.id).toBe('session_inactive');

    const bad = await fetch(
      `${origin}/api/kratos/self-service/login/browser?return_to=https://evil.example`,
      {
        redirect: 'manual',
        headers: { accept: 'text/html' },
      },
    );
    expect(bad.status).toBe(303);
    const location = new URL(bad.headers.get('location') as string);
    expect(location.pathname).toBe('/error');
    const stored = await browser.call((options) =>
      browser.api.getFlowError({ id: location.searchParams.get('id') as string }, options),
    );
    expect(stored.data.error).toMatchObject({ id: 'self_service_flow_return_to_forbidden', code: 400 });
    expect((await refusal(browser.api.getFlowError({ id: 'nonsense' }))).status).toBe(404);
  });

  it('takes an HTML form post of ui.action and answers with the browser redirects Kratos gives', async () => {
    const person = await createTestPerson(db.pool, { roles: ['viewer'] });
    const browser = new OryBrowser();
    const flow = (
      await browser.call((options) => browser.api.createBrowserLoginFlow({ returnTo: '/health' }, options))
    ).data;
    const post = (fields: Record<string, string>) =>
      fetch(`${origin}/api/kratos/self-service/login?flow=${flow.id}`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          accept: 'text/html',
          'content-type': 'application/x-www-form-urlencoded',
          cookie: browser.with.headers.Cookie as string,
        },
        body: new URLSearchParams(fields).toString(),
      });
    const wrong = await post({
      csrf_token: csrfOf(flow),
      method: 'password',
      identifier: person.email,
      password: 'nope',
    });
    expect(wrong.status).toBe(303);
    expect(wrong.headers.get('location')).toBe(`http://opsdeck.test/login?flow=${flow.id}`);
    const forged = await post({
      csrf_token: 'forged',
      method: 'password',
      identifier: person.email,
      password: person.password,
    });
    expect(forged.status).toBe(303);
    expect(new URL(forged.headers.get('location') as string).pathname).toBe('/error');
    const right = await post({
      csrf_token: csrfOf(flow),
      method: 'password',
      identifier: person.email,
      password: person.password,
    });
    expect(right.status).toBe(303);
    expect(right.headers.get('location')).toBe('http://opsdeck.test/health');
    expect(right.headers.getSetCookie().some((line) => line.startsWith('opsdeck_session='))).toBe(true);
  });

  it('registers an account: identity, session and the verification flow to show next', async () => {
    const browser = new OryBrowser();
    const flow = (await browser.call((options) => browser.api.createBrowserRegistrationFlow({}, options)))
      .data;
    expect(flow.type).toBe('browser');
    const email = `kratos-registered-${Date.now()}@example.com`;
    const before = smtp.messages.length;
    const done = await browser.call((options) =>
      browser.api.updateRegistrationFlow(
        {
          flow: flow.id,
          updateRegistrationFlowBody: {
            csrf_token: csrfOf(flow),
            method: 'password',
            password: 'a long and unusual passphrase 42',
            traits: { email, name: { first: 'Kim', last: 'Kratos' } },
          },
        },
        options,
      ),
    );
    expect(done.data.identity).toMatchObject({ traits: { email, name: { first: 'Kim', last: 'Kratos' } } });
    expect(done.data.session?.identity?.id).toBe(done.data.identity.id);
    const next = done.data.continue_with?.find((entry) => entry.action === 'show_verification_ui');
    expect(next).toBeTruthy();
    await smtp.waitFor(before + 1);
    const session = await browser.call((options) => browser.api.toSession({}, options));
    expect(session.data.identity?.id).toBe(done.data.identity.id);
  });
});
