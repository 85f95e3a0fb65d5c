import type { Role } from '@opsdeck/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import {
  bearer,
  buildAuthTestApp,
  createTestPerson,
  createTestToken,
  TestBrowser,
  type FlowJson,
  type TestApp,
} from './test-fixtures/auth-test-app.js';
import { startSmtpCapture, type CapturedMail } from './test-fixtures/smtp-capture.js';

/**
 * The users page's API (issue 27 "Users"): invite by a real SMTP peer, role changes, deletion and
 * the last admin, each proven by what the person can do next.
 */

let db: TestDatabase;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
let mailing: TestApp;
let silent: TestApp;

beforeAll(async () => {
  db = await createTestDatabase();
  smtp = await startSmtpCapture();
  mailing = await buildAuthTestApp(db.pool, {
    config: { smtp: { url: smtp.url, from: 'Opsdeck <ops@opsdeck.test>' } },
  });
  silent = await buildAuthTestApp(db.pool);
});

afterAll(async () => {
  await mailing?.app.close();
  await silent?.app.close();
  await smtp?.close();
  await db?.close();
});

async function signedIn(app: TestApp, roles: Role[]) {
  const person = await createTestPerson(db.pool, { roles });
  const browser = new TestBrowser(app.app);
  expect((await browser.signIn(person.email, person.password)).statusCode).toBe(200);
  return { person, browser };
}

function del(browser: TestBrowser, url: string) {
  return browser.request({ method: 'DELETE', url });
}

function linkIn(mail: CapturedMail): URL {
  const match =
    /(http:\/\/opsdeck\.test\/api\/auth\/self-service\/recovery\/link\?token=[A-Za-z0-9_%-]+)/.exec(
      mail.text,
    );
  if (!match) throw new Error(`no link in ${mail.raw}`);
  return new URL(match[1] as string);
}

describe('invite user', () => {
  it('emails a link through SMTP; the link sets a password and the person signs in with the role', async () => {
    const { browser: admin } = await signedIn(mailing, ['admin']);
    const email = `invited-${Date.now()}@example.com`;
    const before = smtp.messages.length;
    const invited = await admin.post('/api/auth/invite_user', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email,
      role: 'editor',
    });
    expect(invited.statusCode).toBe(200);
    expect(invited.json()).toMatchObject({ emailed: true });
    const mail = (await smtp.waitFor(before + 1))[before] as CapturedMail;
    expect(mail.to).toEqual([email]);
    expect(mail.raw).toMatch(/^Subject: You have been invited to Opsdeck/m);
    const link = linkIn(mail);
    expect(link.toString()).toBe(invited.json<{ link: string }>().link);

    const invitee = new TestBrowser(mailing.app);
    const followed = await invitee.get(link.pathname + link.search);
    expect(followed.statusCode).toBe(303);
    const flowId = new URL(followed.headers.location as string, 'http://x').searchParams.get('flow');
    const settings = (
      await invitee.get(`/api/auth/self-service/settings/flows?id=${flowId}`)
    ).json<FlowJson>();
    expect(
      (await invitee.submitFlow(settings, { method: 'password', password: 'a brand new password' }))
        .statusCode,
    ).toBe(200);

    const fresh = new TestBrowser(mailing.app);
    expect((await fresh.signIn(email, 'a brand new password')).statusCode).toBe(200);
    const whoami = (await fresh.get('/api/auth/whoami')).json<{
      payload: { user: { name: string }; roles: string[] };
    }>();
    expect(whoami.payload.user.name).toBe('Ada Lovelace');
    expect(whoami.payload.roles).toEqual(['editor']);
    // The users page lists the identity with the role.
    const identities = await admin.get(`/api/db/identities?traits->>email=eq.${encodeURIComponent(email)}`);
    expect(identities.statusCode).toBe(200);
    const [identity] = identities.json<{ id: string; state: string }[]>();
    expect(identity?.state).toBe('active');
    const roles = await admin.get(`/api/db/people_roles?id=in.(${identity?.id})`);
    expect(roles.json()).toEqual([expect.objectContaining({ roles: ['editor'] })]);
  });

  it('without SMTP the link comes back to the admin only, and a second invite of the address is refused', async () => {
    const { browser: admin } = await signedIn(silent, ['admin']);
    const email = `handed-${Date.now()}@example.com`;
    const before = smtp.messages.length;
    const invited = await admin.post('/api/auth/invite_user', { email, role: 'viewer' });
    expect(invited.json()).toMatchObject({
      emailed: false,
      link: expect.stringContaining('/recovery/link?token='),
    });
    expect(smtp.messages.length).toBe(before);
    const again = await admin.post('/api/auth/invite_user', { email, role: 'viewer' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({
      error: 'A person with this email address already exists',
      field: 'email',
    });
  });

  it('editors and viewers cannot invite', async () => {
    for (const role of ['editor', 'viewer'] as const) {
      const { browser } = await signedIn(silent, [role]);
      const refused = await browser.post('/api/auth/invite_user', {
        email: `x-${role}-${Date.now()}@example.com`,
        role: 'viewer',
      });
      expect(refused.statusCode).toBe(403);
    }
  });
});

describe('roles and deletion', () => {
  it('a role change takes effect on the next request', async () => {
    const { browser: admin } = await signedIn(silent, ['admin']);
    const { person, browser } = await signedIn(silent, ['viewer']);
    expect((await browser.post('/api/test/canaries', {})).statusCode).toBe(403);
    const changed = await admin.post('/api/people/update', { id: person.id, roles: ['editor'] });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ roles: ['editor'] });
    expect((await browser.post('/api/test/canaries', {})).statusCode).toBe(200);
  });

  it('only an admin changes roles: an editor is refused naming the reason', async () => {
    const { browser: editor } = await signedIn(silent, ['editor']);
    const target = await createTestPerson(db.pool, { roles: ['viewer'] });
    const refused = await editor.post('/api/people/update', { id: target.id, roles: ['admin'] });
    expect(refused.statusCode).toBe(403);
  });

  it("a deleted person's session and token are refused at once; their history keeps the name", async () => {
    const { browser: admin } = await signedIn(silent, ['admin']);
    const { person, browser } = await signedIn(silent, ['editor']);
    const token = await createTestToken(db.pool, person.id);
    // Something they did, to read back after they are gone.
    const incident = await db.pool.query<{ id: string }>(
      `INSERT INTO incidents (title, type, severity, created_by) VALUES ('disk full', 'availability', 'high', $1) RETURNING id`,
      [person.id],
    );
    // Used on both server instances first (each has verified it and may remember it).
    for (const instance of [silent, mailing])
      expect(
        (await instance.app.inject({ url: '/api/auth/whoami', headers: bearer(token) })).statusCode,
      ).toBe(200);
    const removed = await del(admin, `/api/people/${person.id}`);
    expect(removed.statusCode).toBe(200);
    expect((await browser.get('/api/auth/whoami')).statusCode).toBe(401);
    // Refused at once by the instance that deleted them and by the other one on the same database.
    for (const instance of [silent, mailing])
      expect(
        (await instance.app.inject({ url: '/api/auth/whoami', headers: bearer(token) })).statusCode,
      ).toBe(401);
    expect((await mailing.app.inject({ url: '/api/db/canaries', headers: bearer(token) })).statusCode).toBe(
      401,
    );
    expect((await new TestBrowser(silent.app).signIn(person.email, person.password)).statusCode).not.toBe(
      200,
    );
    const kept = await db.pool.query<{ name: string; deleted_at: Date | null }>(
      'SELECT name, deleted_at FROM people WHERE id = $1',
      [person.id],
    );
    expect(kept.rows[0]?.name).toMatch(/^Test Person/);
    expect(kept.rows[0]?.deleted_at).not.toBeNull();
    const history = await admin.get(
      `/api/db/incidents?select=title,created_by(name)&id=eq.${incident.rows[0]?.id}`,
    );
    expect(history.json()).toEqual([{ title: 'disk full', created_by: { name: kept.rows[0]?.name } }]);
    const identity = await admin.get(`/api/db/identities?id=eq.${person.id}`);
    expect(identity.json()).toEqual([expect.objectContaining({ state: 'inactive' })]);
  });

  it('the last admin can be neither demoted nor deleted (400 with the reason)', async () => {
    // Only one admin left: every other admin of this database is deleted first.
    const { person: last, browser } = await signedIn(silent, ['admin']);
    const others = await db.pool.query<{ id: string }>(
      `SELECT person_id AS id FROM person_roles r JOIN people p ON p.id = r.person_id
        WHERE r.role = 'admin' AND p.deleted_at IS NULL AND p.id <> $1`,
      [last.id],
    );
    for (const other of others.rows)
      expect((await del(browser, `/api/people/${other.id}`)).statusCode).toBe(200);
    const demoted = await browser.post('/api/people/update', { id: last.id, roles: ['editor'] });
    expect(demoted.statusCode).toBe(400);
    expect(demoted.json()).toMatchObject({ error: 'At least one admin must remain', field: 'roles' });
    // Another admin cannot delete them either once they are the only one: make one, have them try.
    const second = await createTestPerson(db.pool, { roles: ['admin'] });
    const secondBrowser = new TestBrowser(silent.app);
    await secondBrowser.signIn(second.email, second.password);
    expect((await del(secondBrowser, `/api/people/${last.id}`)).statusCode).toBe(200);
    const lastStanding = await browser.get('/api/auth/whoami');
    expect(lastStanding.statusCode).toBe(401);
    const refused = await secondBrowser.post('/api/people/update', { id: second.id, roles: ['viewer'] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'At least one admin must remain' });
  });
});
