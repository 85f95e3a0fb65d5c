import { randomBytes } from 'node:crypto';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { createSecretBox } from '../../platform/secrets.js';
import {
  buildAuthTestApp,
  createTestPerson,
  nodeValue,
  TestBrowser,
  type FlowJson,
  type TestApp,
  type TestPerson,
} from './test-fixtures/auth-test-app.js';
import { SoftwareAuthenticator } from './test-fixtures/software-authenticator.js';

let db: TestDatabase;
let testApp: TestApp;

beforeAll(async () => {
  db = await createTestDatabase();
  testApp = await buildAuthTestApp(db.pool, { secrets: createSecretBox(randomBytes(32)) });
});

afterAll(async () => {
  await testApp?.app.close();
  await db?.close();
});

interface FlowErrorJson {
  error: { id: string };
  redirect_browser_to?: string;
}

/** A TOTP code for `stepsAhead` 30-second steps from now (the server accepts ±1 step). */
function totpCode(secret: string, stepsAhead = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });
}

async function sessionAal(browser: TestBrowser): Promise<string> {
  return (await browser.get('/api/auth/session')).json<{ authenticator_assurance_level: string }>()
    .authenticator_assurance_level;
}

describe('TOTP', () => {
  let person: TestPerson;
  let secret: string;

  it('is set up in settings with a code from the app, which makes the session aal2', async () => {
    person = await createTestPerson(db.pool, { roles: ['editor'] });
    const browser = new TestBrowser(testApp.app);
    await browser.signIn(person.email, person.password);
    const flow = await browser.startFlow('settings');
    secret = nodeValue(flow, 'totp_secret_key', 'totp') as string;
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(nodeValue(flow, 'totp_url', 'totp')).toMatch(/^otpauth:\/\/totp\/Opsdeck:/);
    // The pending secret waits in the flow row sealed: neither its data nor its UI holds it in clear.
    const row = await db.pool.query<{ ui: string; data: string; pending: string }>(
      `SELECT ui::text AS ui, data::text AS data, data->>'pendingTotpSecret' AS pending FROM auth_flows WHERE id = $1`,
      [flow.id],
    );
    expect(row.rows[0]?.pending).toMatch(/^enc:v1:/);
    expect(row.rows[0]?.data).not.toContain(secret);
    expect(row.rows[0]?.ui).not.toContain(secret);
    // Fetched again, the flow shows the same secret (opened for the answer only).
    const again = (await browser.get(`/api/auth/self-service/settings/flows?id=${flow.id}`)).json<FlowJson>();
    expect(nodeValue(again, 'totp_secret_key', 'totp')).toBe(secret);
    const wrong = await browser.submitFlow(flow, {
      method: 'totp',
      totp_code: '123456' === (await totpCode(secret)) ? '654321' : '123456',
    });
    expect(wrong.statusCode).toBe(400);
    expect(
      wrong.json<FlowJson>().ui.nodes.find((entry) => entry.name === 'totp_code')?.messages[0]?.text,
    ).toBe('The code is not valid. Please try again.');
    const enabled = await browser.submitFlow(flow, { method: 'totp', totp_code: await totpCode(secret) });
    expect(enabled.statusCode).toBe(200);
    expect(enabled.json<FlowJson>().ui.nodes.some((entry) => entry.name === 'totp_unlink')).toBe(true);
    expect(await sessionAal(browser)).toBe('aal2');
    expect((await browser.get('/api/auth/whoami')).statusCode).toBe(200);
    const stored = await db.pool.query<{ secret: string }>(
      'SELECT secret FROM auth_totp WHERE person_id = $1',
      [person.id],
    );
    expect(stored.rows[0]?.secret).toMatch(/^enc:v1:/);
    expect(stored.rows[0]?.secret).not.toContain(secret);
  });

  it('then sign-in needs the second factor (session_aal2_required) and accepts a TOTP code once', async () => {
    const browser = new TestBrowser(testApp.app);
    const first = await browser.signIn(person.email, person.password);
    expect(first.statusCode).toBe(200);
    expect(first.json<{ redirect_browser_to: string }>().redirect_browser_to).toBe(
      '/login?aal=aal2&return_to=%2F',
    );
    expect((await browser.get('/api/auth/whoami')).statusCode).toBe(401);
    const session = await browser.get('/api/auth/session');
    expect(session.statusCode).toBe(403);
    expect(session.json<FlowErrorJson>()).toMatchObject({
      error: { id: 'session_aal2_required' },
      redirect_browser_to: '/login?aal=aal2',
    });
    const settings = await browser.get('/api/auth/self-service/settings/browser');
    expect(settings.json<FlowErrorJson>().error.id).toBe('session_aal2_required');
    // A plain login flow for a half-signed-in browser turns into the second-factor step.
    const flow = await browser.startFlow('login', '?aal=aal2&return_to=%2Fhealth');
    expect(flow.requested_aal).toBe('aal2');
    expect(flow.ui.nodes.some((entry) => entry.name === 'password')).toBe(false);
    expect(flow.ui.nodes.find((entry) => entry.name === 'totp_code')).toMatchObject({ required: true });
    expect((await browser.submitFlow(flow, { method: 'totp', totp_code: '000000' })).statusCode).toBe(400);
    const code = await totpCode(secret, 1);
    const passed = await browser.submitFlow(flow, { method: 'totp', totp_code: code });
    expect(passed.statusCode).toBe(200);
    expect(passed.json<{ redirect_browser_to: string }>().redirect_browser_to).toBe('/health');
    expect(await sessionAal(browser)).toBe('aal2');
    expect((await browser.get('/api/auth/whoami')).statusCode).toBe(200);

    // The same code cannot be used again (replay).
    const other = new TestBrowser(testApp.app);
    await other.signIn(person.email, person.password);
    const second = await other.startFlow('login', '?aal=aal2');
    expect((await other.submitFlow(second, { method: 'totp', totp_code: code })).statusCode).toBe(400);
  });

  it('backup codes are shown once, hashed, and each works once', async () => {
    const browser = new TestBrowser(testApp.app);
    await browser.signIn(person.email, person.password);
    const step = await browser.startFlow('login', '?aal=aal2');
    // Codes of the steps used above are spent; as if the next 30 seconds had passed:
    await db.pool.query('UPDATE auth_totp SET last_time_step = last_time_step - 3 WHERE person_id = $1', [
      person.id,
    ]);
    expect(
      (await browser.submitFlow(step, { method: 'totp', totp_code: await totpCode(secret) })).statusCode,
    ).toBe(200);
    const settings = await browser.startFlow('settings');
    const generated = await browser.submitFlow(settings, {
      method: 'lookup_secret',
      lookup_secret_regenerate: true,
    });
    expect(generated.statusCode).toBe(200);
    const codes = nodeValue(generated.json<FlowJson>(), 'lookup_secret_codes') as string[];
    expect(codes).toHaveLength(12);
    const stored = await db.pool.query<{ code_hash: string }>(
      'SELECT code_hash FROM auth_lookup_secrets WHERE person_id = $1',
      [person.id],
    );
    expect(stored.rows).toHaveLength(12);
    for (const row of stored.rows) for (const code of codes) expect(row.code_hash).not.toContain(code);
    const refetched = (
      await browser.get(`/api/auth/self-service/settings/flows?id=${settings.id}`)
    ).json<FlowJson>();
    expect(nodeValue(refetched, 'lookup_secret_codes')).toBeUndefined();
    expect(nodeValue(refetched, 'lookup_secret_remaining')).toBe(12);

    const useCode = async (code: string) => {
      const other = new TestBrowser(testApp.app);
      await other.signIn(person.email, person.password);
      const flow = await other.startFlow('login', '?aal=aal2');
      expect(flow.ui.nodes.some((entry) => entry.name === 'lookup_secret')).toBe(true);
      return other.submitFlow(flow, { method: 'lookup_secret', lookup_secret: code });
    };
    expect((await useCode(codes[0] as string)).statusCode).toBe(200);
    expect((await useCode(codes[0] as string)).statusCode).toBe(400);
    expect((await useCode((codes[1] as string).toUpperCase())).statusCode).toBe(200);
    const left = await db.pool.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM auth_lookup_secrets WHERE person_id = $1 AND used_at IS NULL',
      [person.id],
    );
    expect(left.rows[0]?.count).toBe(10);
  });
});

describe('WebAuthn', () => {
  it('registers a key in settings, signs in with it as a passkey and uses it as a second factor', async () => {
    const person = await createTestPerson(db.pool, { roles: ['viewer'] });
    const key = new SoftwareAuthenticator('http://opsdeck.test');
    const browser = new TestBrowser(testApp.app);
    await browser.signIn(person.email, person.password);
    const settings = await browser.startFlow('settings');
    const options = JSON.parse(nodeValue(settings, 'webauthn_register_options', 'webauthn') as string);
    expect(options.rp.id).toBe('opsdeck.test');
    const bogus = await browser.submitFlow(settings, { method: 'webauthn', webauthn_register: '{"id":"x"}' });
    expect(bogus.statusCode).toBe(400);
    const registered = await browser.submitFlow(settings, {
      method: 'webauthn',
      webauthn_register_displayname: 'Laptop',
      webauthn_register: JSON.stringify(key.register(options)),
    });
    expect(registered.statusCode).toBe(200);
    expect(
      registered.json<FlowJson>().ui.nodes.find((entry) => entry.name === 'webauthn_remove'),
    ).toMatchObject({
      value: key.id,
    });
    const stored = await db.pool.query<{ display_name: string; counter: number }>(
      'SELECT display_name, counter FROM auth_webauthn_credentials WHERE person_id = $1',
      [person.id],
    );
    expect(stored.rows[0]?.display_name).toBe('Laptop');
    expect(await sessionAal(browser)).toBe('aal2');

    // Passwordless: the login flow offers a challenge for any passkey.
    const phone = new TestBrowser(testApp.app);
    const login = await phone.startFlow('login');
    const request = JSON.parse(nodeValue(login, 'passkey_options', 'passkey') as string);
    const tampered = await phone.submitFlow(login, {
      method: 'passkey',
      passkey_login: JSON.stringify(key.authenticate(request, { tamper: true })),
    });
    expect(tampered.statusCode).toBe(400);
    const signedIn = await phone.submitFlow(login, {
      method: 'passkey',
      passkey_login: JSON.stringify(key.authenticate(request)),
    });
    expect(signedIn.statusCode).toBe(200);
    expect(
      signedIn.json<{ session: { identity: { id: string }; authenticator_assurance_level: string } }>()
        .session,
    ).toMatchObject({
      identity: { id: person.id },
      authenticator_assurance_level: 'aal2',
    });
    expect((await phone.get('/api/auth/whoami')).statusCode).toBe(200);

    // As a second factor after the password.
    const desk = new TestBrowser(testApp.app);
    await desk.signIn(person.email, person.password);
    expect((await desk.get('/api/auth/whoami')).statusCode).toBe(401);
    const step = await desk.startFlow('login', '?aal=aal2');
    const challenge = JSON.parse(nodeValue(step, 'webauthn_options', 'webauthn') as string);
    expect(challenge.allowCredentials).toEqual([expect.objectContaining({ id: key.id })]);
    const passed = await desk.submitFlow(step, {
      method: 'webauthn',
      webauthn_login: key.authenticate(challenge),
    });
    expect(passed.statusCode).toBe(200);
    expect((await desk.get('/api/auth/whoami')).statusCode).toBe(200);

    // A key of someone else does not pass another person's second factor.
    const stranger = await createTestPerson(db.pool, { roles: ['viewer'] });
    const strangerKey = new SoftwareAuthenticator('http://opsdeck.test');
    const strangerBrowser = new TestBrowser(testApp.app);
    await strangerBrowser.signIn(stranger.email, stranger.password);
    const strangerSettings = await strangerBrowser.startFlow('settings');
    const strangerOptions = JSON.parse(
      nodeValue(strangerSettings, 'webauthn_register_options', 'webauthn') as string,
    );
    await strangerBrowser.submitFlow(strangerSettings, {
      method: 'webauthn',
      webauthn_register: JSON.stringify(strangerKey.register(strangerOptions)),
    });
    const victim = new TestBrowser(testApp.app);
    await victim.signIn(person.email, person.password);
    const victimStep = await victim.startFlow('login', '?aal=aal2');
    const victimChallenge = JSON.parse(nodeValue(victimStep, 'webauthn_options', 'webauthn') as string);
    expect(
      (
        await victim.submitFlow(victimStep, {
          method: 'webauthn',
          webauthn_login: strangerKey.authenticate(victimChallenge),
        })
      ).statusCode,
    ).toBe(400);

    // Removing the key in settings.
    const manage = await phone.startFlow('settings');
    const removed = await phone.submitFlow(manage, { method: 'webauthn', webauthn_remove: key.id });
    expect(removed.statusCode).toBe(200);
    expect(
      (await db.pool.query('SELECT 1 FROM auth_webauthn_credentials WHERE person_id = $1', [person.id]))
        .rowCount,
    ).toBe(0);
  });

  it('refuses an assertion made for another origin', async () => {
    const person = await createTestPerson(db.pool, { roles: ['viewer'] });
    const key = new SoftwareAuthenticator('http://opsdeck.test');
    const browser = new TestBrowser(testApp.app);
    await browser.signIn(person.email, person.password);
    const settings = await browser.startFlow('settings');
    const options = JSON.parse(nodeValue(settings, 'webauthn_register_options', 'webauthn') as string);
    await browser.submitFlow(settings, {
      method: 'webauthn',
      webauthn_register: JSON.stringify(key.register(options)),
    });
    const other = new TestBrowser(testApp.app);
    const flow = await other.startFlow('login');
    const request = JSON.parse(nodeValue(flow, 'passkey_options', 'passkey') as string);
    const fake = await other.submitFlow(flow, {
      method: 'passkey',
      passkey_login: JSON.stringify(key.authenticate(request, { origin: 'http://opsdeck.evil' })),
    });
    expect(fake.statusCode).toBe(400);
    const genuine = await other.submitFlow(flow, {
      method: 'passkey',
      passkey_login: JSON.stringify(key.authenticate(request)),
    });
    expect(genuine.statusCode).toBe(200);
  });
});
