import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { NO_MAIL_MESSAGE } from './flows/recovery-verification-flows.js';
import {
  buildAuthTestApp,
  createTestPerson,
  recordingLogger,
  TestBrowser,
  type FlowJson,
  type TestApp,
} from './test-fixtures/auth-test-app.js';
import { startSmtpCapture, type CapturedMail } from './test-fixtures/smtp-capture.js';

let db: TestDatabase;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
let testApp: TestApp;

beforeAll(async () => {
  db = await createTestDatabase();
  smtp = await startSmtpCapture();
  testApp = await buildAuthTestApp(db.pool, {
    config: { smtp: { url: smtp.url, from: 'Opsdeck <ops@opsdeck.test>' } },
  });
});

afterAll(async () => {
  await testApp?.app.close();
  await smtp?.close();
  await db?.close();
});

function codeIn(mail: CapturedMail): string {
  const match = /code: (\d{6})/.exec(mail.text);
  if (!match) throw new Error(`no code in ${mail.raw}`);
  return match[1] as string;
}

function linkIn(mail: CapturedMail): URL {
  const match = /(http:\/\/opsdeck\.test\/api\/auth\/self-service\/[a-z]+\/link\?token=[A-Za-z0-9_%-]+)/.exec(
    mail.text,
  );
  if (!match) throw new Error(`no link in ${mail.raw}`);
  return new URL(match[1] as string);
}

async function nextMail(previous: number): Promise<CapturedMail> {
  const messages = await smtp.waitFor(previous + 1);
  return messages[previous] as CapturedMail;
}

describe('recovery by email', () => {
  it('sends a code, refuses a wrong one, and the right one signs in to choose a password', async () => {
    const person = await createTestPerson(db.pool, { roles: ['viewer'] });
    const browser = new TestBrowser(testApp.app);
    const flow = await browser.startFlow('recovery');
    expect(flow.state).toBe('choose_method');
    const before = smtp.messages.length;
    const sent = await browser.submitFlow(flow, { method: 'code', email: person.email.toUpperCase() });
    expect(sent.statusCode).toBe(200);
    const sentFlow = sent.json<FlowJson>();
    expect(sentFlow.state).toBe('sent_email');
    expect(sentFlow.ui.nodes.find((entry) => entry.name === 'code')).toMatchObject({ required: true });
    const mail = await nextMail(before);
    expect(mail.to).toEqual([person.email]);
    expect(mail.raw).toMatch(/^From: Opsdeck <ops@opsdeck\.test>/m);
    expect(mail.raw).toMatch(/^Subject: Recover access to your Opsdeck account/m);
    const code = codeIn(mail);

    const wrong = await browser.submitFlow(flow, {
      method: 'code',
      code: code === '000000' ? '111111' : '000000',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<FlowJson>().ui.messages[0]?.text).toBe('The code is not valid. Please try again.');

    const right = await browser.submitFlow(flow, { method: 'code', code });
    expect(right.statusCode).toBe(422);
    const body = right.json<{ error: { id: string }; redirect_browser_to: string }>();
    expect(body.error.id).toBe('browser_location_change_required');
    expect(body.redirect_browser_to).toMatch(/^\/profile-settings\?flow=/);
    const settingsId = new URL(body.redirect_browser_to, 'http://x').searchParams.get('flow');
    const settings = (
      await browser.get(`/api/auth/self-service/settings/flows?id=${settingsId}`)
    ).json<FlowJson>();
    expect(settings.ui.messages[0]?.text).toMatch(/recovered your account/);
    expect(
      (await browser.submitFlow(settings, { method: 'password', password: 'recovered password' })).statusCode,
    ).toBe(200);
    expect((await new TestBrowser(testApp.app).signIn(person.email, 'recovered password')).statusCode).toBe(
      200,
    );
    // The code works once.
    expect((await browser.submitFlow(flow, { method: 'code', code })).statusCode).toBe(410);
    const address = await db.pool.query<{ verified: boolean }>(
      'SELECT verified FROM auth_verifiable_addresses WHERE person_id = $1',
      [person.id],
    );
    expect(address.rows[0]?.verified).toBe(true);
  });

  it('the link from the email works in another browser, once', async () => {
    const person = await createTestPerson(db.pool, { roles: ['viewer'] });
    const browser = new TestBrowser(testApp.app);
    const flow = await browser.startFlow('recovery');
    const before = smtp.messages.length;
    await browser.submitFlow(flow, { method: 'code', email: person.email });
    const link = linkIn(await nextMail(before));
    const phone = new TestBrowser(testApp.app);
    const followed = await phone.get(link.pathname + link.search);
    expect(followed.statusCode).toBe(303);
    expect(followed.headers.location).toMatch(/^\/profile-settings\?flow=/);
    expect(
      (await phone.get('/api/auth/whoami')).json<{ payload: { user: { id: string } } }>().payload.user.id,
    ).toBe(person.id);
    const again = await new TestBrowser(testApp.app).get(link.pathname + link.search);
    expect(again.headers.location).toMatch(/^\/recovery\?flow=/);
  });

  it('gives no hint whether an address has an account', async () => {
    const browser = new TestBrowser(testApp.app);
    const flow = await browser.startFlow('recovery');
    const before = smtp.messages.length;
    const response = await browser.submitFlow(flow, { method: 'code', email: 'nobody-here@example.com' });
    expect(response.statusCode).toBe(200);
    expect(response.json<FlowJson>().state).toBe('sent_email');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smtp.messages.length).toBe(before);
  });

  it('without SMTP the server logs that it cannot send and the flow says so', async () => {
    const { logger, lines } = recordingLogger();
    const noMail = await buildAuthTestApp(db.pool, { logger, config: { smtp: undefined } });
    const person = await createTestPerson(db.pool, { roles: ['viewer'] });
    const browser = new TestBrowser(noMail.app);
    const flow = await browser.startFlow('recovery');
    const response = await browser.submitFlow(flow, { method: 'code', email: person.email });
    expect(response.statusCode).toBe(400);
    const rendered = response.json<FlowJson>();
    expect(rendered.state).toBe('choose_method');
    expect(rendered.ui.messages[0]).toMatchObject({ type: 'error', text: NO_MAIL_MESSAGE });
    expect(lines().some((line) => String(line.msg).includes('SMTP_URL is not set'))).toBe(true);
    await noMail.app.close();
  });
});

describe('verification by email', () => {
  it('registration sends a code that verifies the address', async () => {
    const browser = new TestBrowser(testApp.app);
    const registration = await browser.startFlow('registration');
    const before = smtp.messages.length;
    const created = await browser.submitFlow(registration, {
      method: 'password',
      traits: { email: 'verify.me@example.com', name: { first: 'Verify', last: 'Me' } },
      password: 'verification password',
    });
    expect(created.statusCode).toBe(200);
    const continueWith = created.json<{ continue_with: { action: string; flow: { id: string } }[] }>()
      .continue_with;
    expect(continueWith[0]?.action).toBe('show_verification_ui');
    const mail = await nextMail(before);
    expect(mail.to).toEqual(['verify.me@example.com']);
    expect(mail.raw).toMatch(/^Subject: Verify your email address for Opsdeck/m);
    const flow = (
      await browser.get(`/api/auth/self-service/verification/flows?id=${continueWith[0]?.flow.id}`)
    ).json<FlowJson>();
    expect(flow.state).toBe('sent_email');
    const verified = await browser.submitFlow(flow, { method: 'code', code: codeIn(mail) });
    expect(verified.statusCode).toBe(200);
    expect(verified.json<FlowJson>()).toMatchObject({ state: 'passed_challenge' });
    expect(verified.json<FlowJson>().ui.messages[0]?.text).toBe('Your email address has been verified.');
    const session = (await browser.get('/api/auth/session')).json<{
      identity: { verifiable_addresses: { verified: boolean }[] };
    }>();
    expect(session.identity.verifiable_addresses[0]?.verified).toBe(true);
  });

  it('the verification link verifies from any browser, and keeps where the person was going', async () => {
    const person = await createTestPerson(db.pool, { roles: ['viewer'], verified: false });
    const browser = new TestBrowser(testApp.app);
    await browser.signIn(person.email, person.password);
    const flow = await browser.startFlow('verification', `?return_to=${encodeURIComponent('/health?x=1')}`);
    expect(flow.ui.nodes.find((entry) => entry.name === 'email')?.value).toBe(person.email);
    const before = smtp.messages.length;
    expect((await browser.submitFlow(flow, { method: 'code', email: person.email })).statusCode).toBe(200);
    const link = linkIn(await nextMail(before));
    const other = new TestBrowser(testApp.app);
    const followed = await other.get(link.pathname + link.search);
    expect(followed.statusCode).toBe(303);
    const location = followed.headers.location as string;
    expect(location).toMatch(/^\/verification\?flow=/);
    const shown = (
      await other.get(
        `/api/auth/self-service/verification/flows?id=${new URL(location, 'http://x').searchParams.get('flow')}`,
      )
    ).json<FlowJson>();
    expect(shown.state).toBe('passed_challenge');
    expect(shown.return_to).toBe('/health?x=1');
    const address = await db.pool.query<{ verified: boolean }>(
      'SELECT verified FROM auth_verifiable_addresses WHERE person_id = $1',
      [person.id],
    );
    expect(address.rows[0]?.verified).toBe(true);
  });
});

describe('invites by email', () => {
  it('emails the invite link when SMTP is set', async () => {
    const admin = await createTestPerson(db.pool, { roles: ['admin'] });
    const browser = new TestBrowser(testApp.app);
    await browser.signIn(admin.email, admin.password);
    const before = smtp.messages.length;
    const invited = await browser.post('/api/auth/invite_user', {
      firstName: 'Linus',
      lastName: 'T',
      email: 'linus@example.com',
      role: 'viewer',
    });
    expect(invited.statusCode).toBe(200);
    const mail = await nextMail(before);
    expect(mail.to).toEqual(['linus@example.com']);
    expect(linkIn(mail).toString()).toBe(invited.json<{ link: string }>().link);
  });
});
