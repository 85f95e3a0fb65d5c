import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import type { AuthConfig } from './auth-config.js';
import { penaltyMs } from './login-throttle.js';
import {
  buildAuthTestApp,
  createTestPerson,
  TestBrowser,
  type TestApp,
} from './test-fixtures/auth-test-app.js';

/**
 * Sign-in throttling through the login flow over HTTP (issue 18 §6): a client that keeps failing
 * waits longer at each failure (429 + Retry-After), even with the right password, while the
 * owner signing in from another address is never refused.
 */
const THROTTLE: AuthConfig['throttle'] = {
  windowMs: 15 * 60_000,
  freeAttempts: 3,
  addressFreeAttempts: 8,
  accountFreeAttempts: 4,
  // Long enough that no wait ends while a test runs: the tests never depend on the clock.
  baseDelayMs: 60_000,
  maxDelayMs: 15 * 60_000,
  accountMaxDelayMs: 2 * 60_000,
};

let db: TestDatabase;
let testApp: TestApp;
let addressSequence = 0;

beforeAll(async () => {
  db = await createTestDatabase();
  testApp = await buildAuthTestApp(db.pool, { config: { throttle: THROTTLE } });
});

afterAll(async () => {
  await testApp?.app.close();
  await db?.close();
});

/** A browser at its own client address. */
function client(address = `203.0.113.${++addressSequence}`): TestBrowser & { address: string } {
  return Object.assign(new TestBrowser(testApp.app, address), { address });
}

async function attempt(
  browser: TestBrowser,
  email: string,
  password: string,
): Promise<LightMyRequestResponse> {
  return browser.signIn(email, password);
}

function retryAfter(response: LightMyRequestResponse): number {
  expect(response.statusCode, response.body).toBe(429);
  expect(response.json<{ error: { id: string } }>().error.id).toBe('self_service_flow_throttled');
  return Number(response.headers['retry-after']);
}

describe('sign-in throttling', () => {
  it('makes a failing client wait, even with the right password, while the owner elsewhere signs in', async () => {
    const owner = await createTestPerson(db.pool);
    const attacker = client();
    expect((await attempt(attacker, owner.email, 'guess one')).statusCode).toBe(400);
    expect((await attempt(attacker, owner.email, 'guess two')).statusCode).toBe(400);
    const third = retryAfter(await attempt(attacker, owner.email, 'guess three'));
    expect(third).toBeGreaterThan(0);
    expect(third).toBeLessThanOrEqual(60);
    // While it waits, the attacker is refused before its password is looked at.
    retryAfter(await attempt(attacker, owner.email, owner.password));

    const home = client('198.51.100.10');
    const signedIn = await attempt(home, owner.email, owner.password);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
  });

  it('doubles the wait at each further failure, up to the cap', async () => {
    const owner = await createTestPerson(db.pool);
    const attacker = client();
    for (let i = 0; i < THROTTLE.freeAttempts - 1; i += 1)
      expect((await attempt(attacker, owner.email, `guess ${i}`)).statusCode).toBe(400);
    const waits: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      waits.push(retryAfter(await attempt(attacker, owner.email, `more ${i}`)));
      // Stand in for the passing of time: end this client's waits, keep its count.
      await db.pool.query(
        `UPDATE auth_login_throttle SET locked_until = now() - interval '1 second' WHERE key = ANY($1)`,
        [[`pair:${owner.email}|${attacker.address}`, `account:${owner.email}`]],
      );
    }
    const expected = [60, 120, 240, 480, 900, 900];
    waits.forEach((wait, i) => {
      expect(wait, `wait ${i}: ${waits.join(', ')}`).toBeLessThanOrEqual(expected[i]!);
      expect(wait, `wait ${i}: ${waits.join(', ')}`).toBeGreaterThanOrEqual(expected[i]! - 1);
    });
    expect((await attempt(client(), owner.email, owner.password)).statusCode).toBe(200);
  });

  it('an account hammered from many addresses slows the failing clients a little, never a fresh one', async () => {
    const owner = await createTestPerson(db.pool);
    const botnet = Array.from({ length: THROTTLE.accountFreeAttempts + 1 }, () => client());
    // One failure each: none of them has used up its own free attempts.
    for (const bot of botnet) {
      const response = await attempt(bot, owner.email, 'a guess');
      if (response.statusCode !== 400) retryAfter(response);
    }
    // A bot that failed once now waits for the account, at most the account cap.
    const slowed = retryAfter(await attempt(botnet[0]!, owner.email, 'another guess'));
    expect(slowed).toBeGreaterThan(0);
    expect(slowed).toBeLessThanOrEqual(THROTTLE.accountMaxDelayMs / 1000);
    // The owner, from an address that has not been failing, signs in at once.
    const fresh = await attempt(client('198.51.100.20'), owner.email, owner.password);
    expect(fresh.statusCode, fresh.body).toBe(200);
  });

  it('an address failing across accounts waits for every account; the owners elsewhere do not', async () => {
    const victim = await createTestPerson(db.pool);
    const sprayer = client();
    for (let i = 1; i < THROTTLE.addressFreeAttempts; i += 1)
      expect(
        (await attempt(sprayer, `nobody-${i}-${Date.now()}@example.com`, 'Summer2024!')).statusCode,
      ).toBe(400);
    retryAfter(await attempt(sprayer, `nobody-last-${Date.now()}@example.com`, 'Summer2024!'));
    // Even the right password of an account it never tried waits.
    retryAfter(await attempt(sprayer, victim.email, victim.password));
    expect((await attempt(client(), victim.email, victim.password)).statusCode).toBe(200);
  });

  it("a success clears that client's own failures only; counts are forgotten after a quiet window", async () => {
    const owner = await createTestPerson(db.pool);
    const typist = client();
    expect((await attempt(typist, owner.email, 'typo one')).statusCode).toBe(400);
    expect((await attempt(typist, owner.email, 'typo two')).statusCode).toBe(400);
    expect((await attempt(typist, owner.email, owner.password)).statusCode).toBe(200);
    // The next typo is free again: the count started over after the success.
    const again = client(typist.address);
    expect((await attempt(again, owner.email, 'typo three')).statusCode).toBe(400);
    // A window without failures (moved into the past here) forgets the counts as well.
    await db.pool.query(
      `UPDATE auth_login_throttle SET window_started_at = now() - interval '16 minutes', locked_until = NULL
        WHERE key = ANY($1)`,
      [[`pair:${owner.email}|${typist.address}`, `account:${owner.email}`, `address:${typist.address}`]],
    );
    expect((await attempt(again, owner.email, 'typo four')).statusCode).toBe(400);
    expect((await attempt(again, owner.email, 'typo five')).statusCode).toBe(400);
    retryAfter(await attempt(again, owner.email, 'typo six'));
  });
});

describe('penaltyMs', () => {
  it('is free, then doubles from the base up to the cap', () => {
    const waits = [1, 2, 3, 4, 5, 6, 60].map((failures) => penaltyMs(failures, 3, 1000, 5000));
    expect(waits).toEqual([0, 0, 1000, 2000, 4000, 5000, 5000]);
  });
});
