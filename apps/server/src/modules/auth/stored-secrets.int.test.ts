import { dataApiAllowlistInput } from '../../modules.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { SESSION_COOKIE } from './http.js';
import {
  bearer,
  buildAuthTestApp,
  createTestPerson,
  TestBrowser,
  type TestApp,
} from './test-fixtures/auth-test-app.js';

/**
 * The stored secrets (token hashes, password hashes, session and one-time-code hashes) are not
 * readable through any API: an admin, who may read everything, reads every data-API relation
 * with all its columns and the account API, and none of the stored values shows up; naming the
 * token hash column to select, filter, order or embed it is refused rather than answered.
 */

let db: TestDatabase;
let testApp: TestApp;
let admin: TestBrowser;
let adminToken: string;
const secrets: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  testApp = await buildAuthTestApp(db.pool);
  const person = await createTestPerson(db.pool, { roles: ['admin'] });
  await createTestPerson(db.pool, { roles: ['viewer'] });
  admin = new TestBrowser(testApp.app);
  expect((await admin.signIn(person.email, person.password)).statusCode).toBe(200);
  for (const name of ['one', 'two']) {
    const created = await admin.post('/api/auth/create_token', {
      name,
      scope: name === 'two' ? [{ subject: '', object: 'catalog', action: 'read' }] : [],
    });
    expect(created.statusCode).toBe(200);
    if (name === 'one') adminToken = created.json<{ payload: { token: string } }>().payload.token;
  }
  // An invite, so auth_codes holds a link token's hash too.
  const invite = await admin.post('/api/auth/invite_user', {
    firstName: 'In',
    lastName: 'Vited',
    email: 'invited@example.com',
    role: 'viewer',
  });
  expect(invite.statusCode, invite.body).toBe(200);

  const { rows } = await db.pool.query<{ secret: string }>(
    `SELECT value AS secret FROM access_tokens
     UNION ALL SELECT password_hash FROM identity_credentials
     UNION ALL SELECT token_hash FROM auth_sessions
     UNION ALL SELECT code_hash FROM auth_codes WHERE code_hash IS NOT NULL
     UNION ALL SELECT token_hash FROM auth_codes WHERE token_hash IS NOT NULL`,
  );
  secrets.push(...rows.map((row) => row.secret));
});

afterAll(async () => {
  await testApp?.app.close();
  await db?.close();
});

function leaks(body: string): string[] {
  return secrets.filter((secret) => body.includes(secret) || body.includes(secret.slice(-24)));
}

describe('stored secrets', () => {
  it('are there to look for: token and password hashes, session and invite-link hashes', () => {
    expect(secrets.filter((secret) => secret.startsWith('scrypt$')).length).toBeGreaterThanOrEqual(2);
    expect(secrets.length).toBeGreaterThanOrEqual(6);
  });

  it('appear in no data-API relation an admin reads, with every column', async () => {
    const relations = [
      ...Object.keys(dataApiAllowlistInput.tables ?? {}),
      ...Object.keys(dataApiAllowlistInput.views ?? {}),
    ];
    expect(relations).toContain('access_tokens');
    const found: string[] = [];
    let read = 0;
    for (const relation of relations) {
      for (const headers of [bearer(adminToken), { cookie: admin.cookieHeader() }]) {
        const response = await testApp.app.inject({ method: 'GET', url: `/api/db/${relation}`, headers });
        if (response.statusCode === 404) continue;
        expect(response.statusCode, `${relation}: ${response.body}`).toBe(200);
        read += 1;
        for (const secret of leaks(response.body)) found.push(`${relation}: ${secret.slice(0, 12)}…`);
      }
    }
    expect(read).toBeGreaterThan(100);
    const tokens = await testApp.app.inject({
      method: 'GET',
      url: '/api/db/access_tokens',
      headers: bearer(adminToken),
    });
    expect(tokens.json<unknown[]>().length).toBeGreaterThanOrEqual(2);
    expect(found).toEqual([]);
  });

  it('cannot be selected, filtered, ordered or embedded by name', async () => {
    const attempts = [
      '/api/db/access_tokens?select=value',
      '/api/db/access_tokens?select=id,v:value',
      '/api/db/access_tokens?value=like.scrypt*',
      '/api/db/access_tokens?value=not.is.null',
      '/api/db/access_tokens?order=value',
      '/api/db/access_tokens?or=(value.like.scrypt*)',
      '/api/db/people?select=id,access_tokens(value)',
      '/api/db/people?select=id,access_tokens!access_tokens_person_id_fkey(*)',
      '/api/db/identity_credentials',
      '/api/db/auth_sessions',
      '/api/db/auth_codes',
    ];
    const wrong: string[] = [];
    for (const url of attempts) {
      const response = await testApp.app.inject({ method: 'GET', url, headers: bearer(adminToken) });
      if (leaks(response.body).length > 0) wrong.push(`${url}: leaks`);
      // A filter on the hash would be an oracle even without the value in the answer.
      if (response.statusCode < 400 && /value[=.]|order=value/.test(url))
        wrong.push(`${url}: answered ${response.statusCode} ${response.body.slice(0, 120)}`);
      if (response.statusCode < 400 && /identity_credentials|auth_sessions|auth_codes/.test(url))
        wrong.push(`${url}: answered ${response.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });

  it('appear in no answer of the account API', async () => {
    const list = await admin.get('/api/auth/tokens');
    expect(list.statusCode).toBe(200);
    const ids = list.json<{ payload: { id: string }[] }>().payload.map((row) => row.id);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    const answers = [
      list,
      await admin.get('/api/auth/whoami'),
      await admin.get('/api/auth/session'),
      await admin.get('/api/auth/self-service/settings/browser'),
      ...(await Promise.all(ids.map((id) => admin.get(`/api/rbac/token/${id}/permissions`)))),
      await testApp.app.inject({ method: 'GET', url: '/api/auth/whoami', headers: bearer(adminToken) }),
      await testApp.app.inject({ method: 'GET', url: '/api/auth/tokens', headers: bearer(adminToken) }),
    ];
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(200);
      expect(leaks(answer.body)).toEqual([]);
    }
    // Nor does the session cookie itself (HTTP-only) come back in a body.
    const sessionCookie = admin.cookies.get(SESSION_COOKIE) ?? '';
    expect(sessionCookie).not.toBe('');
    for (const answer of answers) expect(answer.body).not.toContain(sessionCookie);
  });
});
