import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { PASSWORD_TOO_COMMON } from './flows/password-policy.js';
import {
  buildAuthTestApp,
  createTestPerson,
  TestBrowser,
  type FlowJson,
  type TestApp,
} from './test-fixtures/auth-test-app.js';
import { startSmtpCapture } from './test-fixtures/smtp-capture.js';

/**
 * Common passwords are refused wherever a password is chosen (issue 18 §6): registration, the
 * settings password change and the new password after recovery, through the flows over HTTP,
 * with the message next to the password field.
 */
let db: TestDatabase;
let testApp: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;

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

/** Long enough for the length rule, and all on the common-passwords list. */
const COMMON = ['password', 'Password1', 'qwertyuiop', 'iloveyou', '  Sunshine '];

function passwordMessages(flow: FlowJson): string[] {
  return (
    flow.ui.nodes.find((node) => node.name === 'password')?.messages.map((message) => message.text) ?? []
  );
}

describe('common passwords', () => {
  it('are refused at registration with the message on the password field', async () => {
    const browser = new TestBrowser(testApp.app);
    const flow = await browser.startFlow('registration');
    const email = `common-${Date.now()}@example.com`;
    for (const password of COMMON) {
      const refused = await browser.submitFlow(flow, {
        method: 'password',
        traits: { email, name: { first: 'C', last: 'P' } },
        password,
      });
      expect(refused.statusCode, password).toBe(400);
      expect(passwordMessages(refused.json<FlowJson>()), password).toEqual([PASSWORD_TOO_COMMON]);
    }
    const { rows } = await db.pool.query('SELECT 1 FROM people WHERE email = $1', [email]);
    expect(rows).toHaveLength(0);
    const accepted = await browser.submitFlow(flow, {
      method: 'password',
      traits: { email, name: { first: 'C', last: 'P' } },
      password: 'violet kettle orbit',
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
  });

  it('are refused as a new password in settings', async () => {
    const person = await createTestPerson(db.pool);
    const browser = new TestBrowser(testApp.app);
    expect((await browser.signIn(person.email, person.password)).statusCode).toBe(200);
    const flow = await browser.startFlow('settings');
    const refused = await browser.submitFlow(flow, { method: 'password', password: 'football' });
    expect(refused.statusCode).toBe(400);
    expect(passwordMessages(refused.json<FlowJson>())).toEqual([PASSWORD_TOO_COMMON]);
    // The old password still signs in.
    expect((await new TestBrowser(testApp.app).signIn(person.email, person.password)).statusCode).toBe(200);
  });

  it('are refused as the new password after recovery', async () => {
    const person = await createTestPerson(db.pool);
    const browser = new TestBrowser(testApp.app);
    const flow = await browser.startFlow('recovery');
    const before = smtp.messages.length;
    expect((await browser.submitFlow(flow, { method: 'code', email: person.email })).statusCode).toBe(200);
    const mail = (await smtp.waitFor(before + 1))[before];
    const code = /code: (\d{6})/.exec(mail?.text ?? '')?.[1];
    expect(code, mail?.raw).toBeDefined();
    const recovered = await browser.submitFlow(flow, { method: 'code', code });
    expect(recovered.statusCode).toBe(422);
    const target = recovered.json<{ redirect_browser_to: string }>().redirect_browser_to;
    const settingsId = new URL(target, 'http://x').searchParams.get('flow');
    const settings = (
      await browser.get(`/api/auth/self-service/settings/flows?id=${settingsId}`)
    ).json<FlowJson>();
    const refused = await browser.submitFlow(settings, { method: 'password', password: 'letmein123' });
    expect(refused.statusCode).toBe(400);
    expect(passwordMessages(refused.json<FlowJson>())).toEqual([PASSWORD_TOO_COMMON]);
    const chosen = await browser.submitFlow(settings, {
      method: 'password',
      password: 'copper lantern drift',
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
  });
});
