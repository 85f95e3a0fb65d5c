import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import {
  createTestPerson,
  TestBrowser,
  type TestPerson,
} from '../src/modules/auth/test-fixtures/auth-test-app.js';
import { loadConfig } from '../src/config.js';
import { createJobsService } from '../src/platform/jobs/index.js';
import { createLogger } from '../src/platform/logger.js';
import { createSecretBox, keyFromSecret } from '../src/platform/secrets.js';
import { createTestDatabase, type TestDatabase } from './harness/db.js';

/**
 * Issue 18 §7 through the composed app: the session cookie's Secure flag follows https (the
 * public URL, or X-Forwarded-Proto from a trusted proxy only), security headers on the web app
 * and the API, and /metrics behind METRICS_TOKEN.
 */
const PROXY = '10.0.0.1';
const METRICS_TOKEN = 'metrics-token-for-the-test';

let db: TestDatabase;
let webDir: string;
const apps: FastifyInstance[] = [];
let person: TestPerson;

async function startApp(environment: Record<string, string>): Promise<FastifyInstance> {
  const logger = createLogger('silent');
  const config = loadConfig({ WEB_DIST_DIR: webDir, LOG_LEVEL: 'silent', ...environment });
  const { app } = await buildApp({
    config,
    pool: db.pool,
    logger,
    secrets: createSecretBox(keyFromSecret('a-test-secret-key')),
    jobs: createJobsService({ pool: db.pool, logger }),
  });
  await app.ready();
  apps.push(app);
  return app;
}

beforeAll(async () => {
  db = await createTestDatabase();
  webDir = mkdtempSync(path.join(os.tmpdir(), 'opsdeck-web-'));
  writeFileSync(
    path.join(webDir, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body><div id="root"></div></body></html>',
  );
  person = await createTestPerson(db.pool, { roles: ['viewer'] });
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await db?.close();
  if (webDir) rmSync(webDir, { recursive: true, force: true });
});

/** Signs in through a login flow from `remoteAddress` with extra headers; the answer that set the session. */
async function signInFrom(
  app: FastifyInstance,
  remoteAddress: string,
  headers: Record<string, string>,
): Promise<LightMyRequestResponse> {
  const browser = new TestBrowser(app, remoteAddress);
  const created = await browser.get('/api/auth/self-service/login/browser', headers);
  expect(created.statusCode, created.body).toBe(200);
  const flow = created.json<{ id: string; csrf_token: string }>();
  const answer = await browser.post(
    `/api/auth/self-service/login?flow=${flow.id}`,
    { csrf_token: flow.csrf_token, method: 'password', identifier: person.email, password: person.password },
    headers,
  );
  expect(answer.statusCode, answer.body).toBe(200);
  return answer;
}

function sessionCookie(response: LightMyRequestResponse): { secure?: boolean } {
  const cookies = response.cookies as { name: string; secure?: boolean }[];
  const cookie = cookies.find((entry) => entry.name === 'opsdeck_session');
  if (!cookie) throw new Error(`no session cookie in ${JSON.stringify(response.headers['set-cookie'])}`);
  return cookie;
}

describe('the Secure flag of the session cookie', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await startApp({ TRUSTED_PROXIES: `${PROXY},192.168.0.0/16` });
  });

  it('is set when a trusted proxy says the request came over https', async () => {
    const response = await signInFrom(app, PROXY, { 'x-forwarded-proto': 'https' });
    expect(sessionCookie(response).secure).toBe(true);
    const fromRange = await signInFrom(app, '192.168.4.5', { 'x-forwarded-proto': 'https' });
    expect(sessionCookie(fromRange).secure).toBe(true);
  });

  it('is not set when an untrusted client claims https, nor over plain http', async () => {
    const spoofed = await signInFrom(app, '10.9.9.9', { 'x-forwarded-proto': 'https' });
    expect(sessionCookie(spoofed).secure).toBeFalsy();
    const plain = await signInFrom(app, PROXY, {});
    expect(sessionCookie(plain).secure).toBeFalsy();
  });

  it('X-Forwarded-For names the client only through a trusted proxy', async () => {
    await signInFrom(app, PROXY, { 'x-forwarded-for': '203.0.113.7' });
    await signInFrom(app, '10.9.9.9', { 'x-forwarded-for': '203.0.113.8' });
    const { rows } = await db.pool.query<{ ip: string }>(
      `SELECT ip FROM auth_sessions WHERE person_id = $1`,
      [person.id],
    );
    const ips = rows.map((row) => row.ip);
    expect(ips).toContain('203.0.113.7');
    expect(ips).not.toContain('203.0.113.8');
    expect(ips).toContain('10.9.9.9');
  });

  it('is always set when PUBLIC_URL is https', async () => {
    const httpsApp = await startApp({ PUBLIC_URL: 'https://opsdeck.example.com' });
    const response = await signInFrom(httpsApp, '10.9.9.9', {});
    expect(sessionCookie(response).secure).toBe(true);
  });
});

describe('security headers', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await startApp({});
  });

  const common = {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
  };

  it("on the web app: a CSP that allows only this origin's scripts and no framing", async () => {
    for (const url of ['/', '/incidents/some/deep/link']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers).toMatchObject(common);
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'self'");
    }
  });

  it("on a 304 revalidating the page too (the browser keeps the 304's headers for the cached page)", async () => {
    const first = await app.inject({ method: 'GET', url: '/login' });
    const etag = String(first.headers.etag ?? '');
    const lastModified = String(first.headers['last-modified'] ?? '');
    expect(etag || lastModified).not.toBe('');
    const again = await app.inject({
      method: 'GET',
      url: '/login?return_to=%2F',
      headers: etag ? { 'if-none-match': etag } : { 'if-modified-since': lastModified },
    });
    expect(again.statusCode).toBe(304);
    expect(String(again.headers['content-security-policy'])).toContain("script-src 'self'");
  });

  it('on the API, errors included: a deny-all CSP', async () => {
    for (const url of [
      '/api/version',
      '/api/db/incidents',
      '/api/nothing-here',
      '/healthz',
      '/%61pi//version',
    ]) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.headers, url).toMatchObject({
        ...common,
        'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      });
    }
  });
});

describe('/metrics', () => {
  it('answers 401 without METRICS_TOKEN as a Bearer token, and the metrics with it', async () => {
    const app = await startApp({ METRICS_TOKEN });
    for (const authorization of [
      undefined,
      'Bearer wrong-token',
      `Basic ${METRICS_TOKEN}`,
      `Bearer ${METRICS_TOKEN}x`,
    ]) {
      const response = await app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(response.statusCode, String(authorization)).toBe(401);
      expect(response.body).not.toContain('opsdeck_');
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
    }
    const allowed = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.body).toContain('opsdeck_');
  });

  it('stays open when METRICS_TOKEN is not set', async () => {
    const app = await startApp({});
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('opsdeck_');
  });
});
