import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import {
  buildAuthTestApp,
  createTestPerson,
  TestBrowser,
  type FlowJson,
  type TestApp,
} from './test-fixtures/auth-test-app.js';
import { startSmtpCapture } from './test-fixtures/smtp-capture.js';

let db: TestDatabase;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
let testApp: TestApp;

const WINDOW_MS = 60 * 60_000;

beforeAll(async () => {
  db = await createTestDatabase();
  smtp = await startSmtpCapture();
  testApp = await buildAuthTestApp(db.pool, {
    config: {
      smtp: { url: smtp.url, from: 'Opsdeck <ops@opsdeck.test>' },
      emailThrottle: { windowMs: WINDOW_MS, addressMax: 2, clientMax: 3 },
    },
  });
});

afterAll(async () => {
  await testApp?.app.close();
  await smtp?.close();
  await db?.close();
});

interface ThrottledJson {
  error: { id: string; code: number; status: string; message: string };
}

/** Asks for a code by email from a new flow of `browser`; returns the answer. */
async function askForCode(browser: TestBrowser, type: 'recovery' | 'verification', email: string) {
  const flow = await browser.startFlow(type);
  return browser.submitFlow(flow, { method: 'code', email });
}

/** Waits a little and says how many emails have arrived since `before`. */
async function mailsSince(before: number): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 200));
  return smtp.messages.length - before;
}

function expectThrottled(response: Awaited<ReturnType<typeof askForCode>>): number {
  expect(response.statusCode).toBe(429);
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_MS / 1000);
  const body = response.json<ThrottledJson>();
  expect(body.error).toMatchObject({
    id: 'self_service_flow_throttled',
    code: 429,
    status: 'Too Many Requests',
  });
  expect(body.error.message).toMatch(/^Too many emails were requested\. Please try again in \d+ minutes\.$/);
  expect(body.error.message).toContain(`${Math.ceil(retryAfter / 60)} minutes`);
  return retryAfter;
}

describe('recovery and verification emails are rate limited', () => {
  it('per recipient address, across client addresses and flow types, until the window ends', async () => {
    const person = await createTestPerson(db.pool, { roles: ['viewer'] });
    const first = new TestBrowser(testApp.app, '198.51.100.1');
    const before = smtp.messages.length;
    expect((await askForCode(first, 'recovery', person.email)).statusCode).toBe(200);
    expect((await askForCode(first, 'recovery', person.email.toUpperCase())).statusCode).toBe(200);
    expect(await mailsSince(before)).toBe(2);

    // the third email to this address is refused, from this client and from any other
    expectThrottled(await askForCode(first, 'recovery', person.email));
    const second = new TestBrowser(testApp.app, '198.51.100.2');
    expectThrottled(await askForCode(second, 'recovery', person.email));
    expectThrottled(await askForCode(second, 'verification', person.email));
    expect(await mailsSince(before)).toBe(2);

    // the flow that was refused keeps its form and can still take the code sent earlier
    const flow = await second.startFlow('recovery');
    expectThrottled(await second.submitFlow(flow, { method: 'code', email: person.email }));
    const kept = (await second.get(`/api/auth/self-service/recovery/flows?id=${flow.id}`)).json<FlowJson>();
    expect(kept.state).toBe('choose_method');

    // another address from the second client is fine
    const other = await createTestPerson(db.pool, { roles: ['viewer'] });
    expect((await askForCode(second, 'recovery', other.email)).statusCode).toBe(200);
    expect(await mailsSince(before)).toBe(3);

    // once the window has passed, the address gets email again
    await db.pool.query(
      `UPDATE auth_login_throttle
          SET window_started_at = window_started_at - interval '61 minutes',
              locked_until = locked_until - interval '61 minutes'
        WHERE key = $1`,
      [`email-to:${person.email.toLowerCase()}`],
    );
    expect((await askForCode(second, 'recovery', person.email)).statusCode).toBe(200);
    expect(await mailsSince(before)).toBe(4);
  });

  it('per client address, counting unknown addresses like known ones', async () => {
    const client = new TestBrowser(testApp.app, '203.0.113.9');
    const known = await createTestPerson(db.pool, { roles: ['viewer'] });
    const before = smtp.messages.length;
    expect((await askForCode(client, 'recovery', known.email)).statusCode).toBe(200);
    const unknown = await askForCode(client, 'recovery', `nobody-${Date.now()}@example.com`);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json<FlowJson>().state).toBe('sent_email');
    expect((await askForCode(client, 'verification', known.email)).statusCode).toBe(200);
    // the fourth request from this client within the window, to yet another address
    const another = await createTestPerson(db.pool, { roles: ['viewer'] });
    const refused = await askForCode(client, 'recovery', another.email);
    const retryAfter = expectThrottled(refused);
    // a throttled unknown address gets the very same answer as a known one
    const refusedUnknown = await askForCode(client, 'recovery', `nobody-else-${Date.now()}@example.com`);
    expect(refusedUnknown.statusCode).toBe(429);
    expect(Number(refusedUnknown.headers['retry-after'])).toBeLessThanOrEqual(retryAfter);
    expect(refusedUnknown.json<ThrottledJson>().error.message).toMatch(/^Too many emails were requested/);
    expect(await mailsSince(before)).toBe(2);

    // other clients are not affected
    const elsewhere = new TestBrowser(testApp.app, '203.0.113.10');
    expect((await askForCode(elsewhere, 'recovery', another.email)).statusCode).toBe(200);
    expect(await mailsSince(before)).toBe(3);
  });

  it('a registration from a throttled client succeeds, without the verification email', async () => {
    const client = new TestBrowser(testApp.app, '192.0.2.44');
    for (let index = 0; index < 3; index += 1) {
      expect(
        (await askForCode(client, 'recovery', `filler-${index}-${Date.now()}@example.com`)).statusCode,
      ).toBe(200);
    }
    const before = smtp.messages.length;
    const flow = await client.startFlow('registration');
    const email = `throttled-${Date.now()}@example.com`;
    const registered = await client.submitFlow(flow, {
      method: 'password',
      traits: { email, name: { first: 'Rate', last: 'Limited' } },
      password: 'a long enough password',
    });
    expect(registered.statusCode).toBe(200);
    const { continue_with: next } = registered.json<{
      continue_with: { flow: { id: string } }[];
    }>();
    const verification = (
      await client.get(`/api/auth/self-service/verification/flows?id=${next[0]?.flow.id}`)
    ).json<FlowJson>();
    expect(verification.state).toBe('choose_method');
    expect(verification.ui.messages[0]).toMatchObject({
      type: 'error',
      text: expect.stringMatching(/^Too many emails were requested\. Please try again in \d+ minutes\.$/),
    });
    expect(await mailsSince(before)).toBe(0);
  });
});
