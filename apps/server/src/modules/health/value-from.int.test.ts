import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { createPerson } from '../../../test/harness/factories.js';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { createJobsService, type JobsService } from '../../platform/jobs/index.js';
import { createLogger } from '../../platform/logger.js';
import { createSecretBox, keyFromSecret } from '../../platform/secrets.js';
import { createTokenForUser } from '../auth/index.js';
import { applyResources, parseResourceDocuments } from '../resources/index.js';

/**
 * `valueFrom` references in check specs read the Secret and ConfigMap resources, on the composed
 * server (buildApp, listening on a port): Run Now, webhook tokens, and what the APIs show.
 */
const USERNAME = 'svc-user';
const PASSWORD = 'Pa55-w0rd-never-shown';
const HOOK_TOKEN = 'hook-token-never-shown';

let db: TestDatabase;
let jobs: JobsService;
let app: FastifyInstance;
let baseUrl = '';
let adminToken = '';
let target: http.Server;
let targetUrl = '';

beforeAll(async () => {
  db = await createTestDatabase();
  const logger = createLogger('silent');
  jobs = createJobsService({ pool: db.pool, logger });
  const config = loadConfig({ WEB_DIST_DIR: '/nonexistent', LOG_LEVEL: 'silent' });
  ({ app } = await buildApp({
    config,
    pool: db.pool,
    logger,
    secrets: createSecretBox(keyFromSecret('a-test-secret-key')),
    jobs,
  }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const admin = await createPerson(db.pool, { roles: ['admin'] });
  adminToken = await createTokenForUser(db.pool, { email: admin.email as string, name: 'admin' });
  // A target that wants basic auth with the secret's credentials.
  const expected = `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString('base64')}`;
  target = http.createServer((request, response) => {
    const ok = request.headers.authorization === expected;
    response.writeHead(ok ? 200 : 401, { 'www-authenticate': 'Basic realm="t"' }).end(ok ? 'welcome' : 'no');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/private`;
});

afterAll(async () => {
  await app?.close();
  await new Promise((resolve) => target?.close(resolve));
  await db?.close();
});

function api(path: string, init: { method?: string; body?: string; contentType?: string } = {}) {
  return fetch(`${baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${adminToken}`,
      ...(init.body !== undefined ? { 'content-type': init.contentType ?? 'application/json' } : {}),
    },
    body: init.body,
  });
}

async function createCanary(name: string, spec: object, namespace = 'default'): Promise<string> {
  const response = await api('/api/canaries', {
    method: 'POST',
    body: JSON.stringify({ name, namespace, spec }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function checkId(canaryId: string, name: string): Promise<string> {
  const { rows } = await db.pool.query<{ id: string }>(
    'SELECT id FROM checks WHERE canary_id = $1 AND name = $2 AND deleted_at IS NULL',
    [canaryId, name],
  );
  return rows[0].id;
}

async function runNow(id: string) {
  const response = await api(`/api/canary/run/check/${id}`, { method: 'POST' });
  expect(response.status).toBe(200);
  return (await response.json()) as { total: number; success: number; failed: number; errors: string[] };
}

async function lastStatus(id: string) {
  const { rows } = await db.pool.query<{ status: boolean; error: string | null; message: string | null }>(
    'SELECT status, error, message FROM check_statuses WHERE check_id = $1 ORDER BY time DESC LIMIT 1',
    [id],
  );
  return rows[0];
}

const SECRET_YAML = `apiVersion: v1
kind: Secret
metadata: {name: api-creds, namespace: default}
type: Opaque
data:
  password: ${Buffer.from(PASSWORD).toString('base64')}
stringData:
  username: ${USERNAME}
---
apiVersion: v1
kind: Secret
metadata: {name: hook, namespace: default}
stringData:
  token: ${HOOK_TOKEN}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: default}
data:
  greeting: hello
`;

function secretRef(name: string, key: string) {
  return { valueFrom: { secretKeyRef: { name, key } } };
}

describe('valueFrom references', () => {
  const responses: string[] = [];

  beforeAll(async () => {
    const applied = await api('/api/resources', {
      method: 'POST',
      body: SECRET_YAML,
      contentType: 'text/yaml',
    });
    const text = await applied.text();
    responses.push(text);
    expect(applied.status, text).toBe(200);
    expect(JSON.parse(text)).toMatchObject({
      results: [
        { status: 'created', key: 'secret/default/api-creds' },
        { status: 'created', key: 'secret/default/hook' },
        { status: 'created', key: 'configmap/default/settings' },
      ],
    });
  });

  it('runs an HTTP check with basic auth read from a Secret', async () => {
    const canaryId = await createCanary('private-api', {
      http: [
        {
          name: 'with-secret',
          url: targetUrl,
          username: secretRef('api-creds', 'username'),
          password: secretRef('api-creds', 'password'),
        },
        { name: 'without-credentials', url: targetUrl },
      ],
    });
    const passing = await runNow(await checkId(canaryId, 'with-secret'));
    expect(passing).toEqual({ total: 1, success: 1, failed: 0, errors: [] });
    // The target really checks the credentials.
    const refused = await runNow(await checkId(canaryId, 'without-credentials'));
    expect(refused).toMatchObject({ total: 1, failed: 1 });
  });

  it('runs checks through named connections whose credentials are sealed or read from a Secret', async () => {
    const results = await applyResources(
      db.pool,
      parseResourceDocuments(
        `apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: private-api, namespace: default}
spec:
  type: http
  url: ${targetUrl}
  username: {valueFrom: {secretKeyRef: {name: api-creds, key: username}}}
  password: {valueFrom: {secretKeyRef: {name: api-creds, key: password}}}
---
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: inline-api, namespace: default}
spec:
  type: http
  url: ${targetUrl}
  username: ${USERNAME}
  password: ${PASSWORD}
---
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: dangling-api, namespace: default}
spec:
  type: http
  url: ${targetUrl}
  password: {valueFrom: {secretKeyRef: {name: gone, key: password}}}
`,
        'connections.yaml',
      ),
      { source: 'connections.yaml', secrets: createSecretBox(keyFromSecret('a-test-secret-key')) },
    );
    expect(results.map((result) => result.status)).toEqual(['created', 'created', 'created']);
    const canaryId = await createCanary('named-connections', {
      http: [
        { name: 'via-secret-connection', connection: 'connection://default/private-api' },
        { name: 'via-sealed-connection', connection: 'inline-api' },
        { name: 'via-dangling-connection', connection: 'connection://default/dangling-api' },
      ],
    });
    expect(await runNow(await checkId(canaryId, 'via-secret-connection'))).toMatchObject({ success: 1 });
    expect(await runNow(await checkId(canaryId, 'via-sealed-connection'))).toMatchObject({ success: 1 });
    const dangling = await runNow(await checkId(canaryId, 'via-dangling-connection'));
    expect(dangling.errors[0]).toContain(
      'connection default/dangling-api password: secret "gone" was not found in namespace "default"',
    );
    responses.push(JSON.stringify(dangling));
  });

  it('fails with a clear message naming the field and the secret when the key or secret is missing', async () => {
    const canaryId = await createCanary('broken-refs', {
      http: [
        { name: 'missing-key', url: targetUrl, username: USERNAME, password: secretRef('api-creds', 'nope') },
        { name: 'missing-secret', url: targetUrl, password: secretRef('absent', 'password') },
      ],
    });
    const missingKey = await checkId(canaryId, 'missing-key');
    const result = await runNow(missingKey);
    expect(result).toMatchObject({ total: 1, failed: 1 });
    expect(result.errors[0]).toContain('password: key "nope" was not found in secret "api-creds"');
    const row = await lastStatus(missingKey);
    expect(row.status).toBe(false);
    expect(row.error).toContain('password: key "nope" was not found in secret "api-creds"');

    const missingSecret = await checkId(canaryId, 'missing-secret');
    const other = await runNow(missingSecret);
    expect(other.errors[0]).toContain('password: secret "absent" was not found in namespace "default"');
    responses.push(JSON.stringify(result), JSON.stringify(other));
  });

  it('looks secrets up in the canary namespace only', async () => {
    const canaryId = await createCanary(
      'elsewhere',
      { http: [{ name: 'other-ns', url: targetUrl, password: secretRef('api-creds', 'password') }] },
      'other',
    );
    const result = await runNow(await checkId(canaryId, 'other-ns'));
    expect(result.errors[0]).toContain('secret "api-creds" was not found in namespace "other"');
  });

  it('reads ConfigMap values into an exec check environment', async () => {
    const canaryId = await createCanary('configured-script', {
      exec: [
        {
          name: 'greeting',
          script: 'test "$GREETING" = hello && echo "said $GREETING"',
          env: [{ name: 'GREETING', valueFrom: { configMapKeyRef: { name: 'settings', key: 'greeting' } } }],
        },
      ],
    });
    expect(await runNow(await checkId(canaryId, 'greeting'))).toMatchObject({ success: 1, failed: 0 });
  });

  it('checks webhook pushes against a token kept in a Secret', async () => {
    await createCanary('secured-hooks', {
      webhook: [
        { name: 'secret-hook', token: secretRef('hook', 'token') },
        { name: 'dangling-hook', token: secretRef('hook', 'missing') },
      ],
    });
    const push = (name: string, token: string) =>
      fetch(`${baseUrl}/webhook/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'webhook-token': token },
        body: '{"status":"ok"}',
      });
    const accepted = await push('secret-hook', HOOK_TOKEN);
    expect(accepted.status, await accepted.clone().text()).toBe(200);
    expect(await accepted.json()).toMatchObject({ message: 'ok', pass: true });
    const wrong = await push('secret-hook', 'guess');
    expect(wrong.status).toBe(401);
    const dangling = await push('dangling-hook', 'anything');
    expect(dangling.status).toBe(503);
    const body = await dangling.text();
    const error = (JSON.parse(body) as { error: string }).error;
    expect(error).toContain('the token of webhook check dangling-hook could not be read');
    // An unauthenticated caller learns nothing about where the token lives.
    expect(error).not.toContain('missing');
    expect(error).not.toContain('secret');
    responses.push(body);
  });

  it('never shows a secret value in an API response, and keeps it sealed at rest', async () => {
    const list = await api('/api/resources/secrets');
    expect(list.status).toBe(200);
    const secrets = (await list.json()) as Array<{ name: string; keys: string[]; type: string }>;
    expect(secrets.map(({ name, keys, type }) => ({ name, keys, type }))).toEqual([
      { name: 'api-creds', keys: ['password', 'username'], type: 'Opaque' },
      { name: 'hook', keys: ['token'], type: 'Opaque' },
    ]);
    const configMaps = (await (await api('/api/resources/configmaps')).json()) as Array<{ data: object }>;
    expect(configMaps[0].data).toEqual({ greeting: 'hello' });

    const dataApi = await api('/api/db/secrets');
    expect(dataApi.status).not.toBe(200);
    const dataApiFiltered = await api('/api/db/secrets?select=data');
    const { rows: canaries } = await db.pool.query<{ id: string }>('SELECT id FROM canaries');
    const canaryBodies = await Promise.all(
      canaries.map(async ({ id }) => (await api(`/api/canaries/${id}`)).text()),
    );
    const bodies = [
      ...responses,
      JSON.stringify(secrets),
      await dataApi.text(),
      await dataApiFiltered.text(),
      ...canaryBodies,
      await (await api('/api/canary/api?includeMessages=true')).text(),
      await (await api('/api/canary/api/summary')).text(),
      await (await api('/api/db/checks?select=*')).text(),
      await (await api('/api/db/check_statuses?select=*')).text(),
      await (await api('/api/db/canaries?select=*')).text(),
      await (await api('/api/db/connections?select=*')).text(),
      await (await fetch(`${baseUrl}/metrics`)).text(),
    ];
    for (const body of bodies) {
      expect(body).not.toContain(PASSWORD);
      expect(body).not.toContain(Buffer.from(PASSWORD).toString('base64'));
      expect(body).not.toContain(HOOK_TOKEN);
    }
    const { rows } = await db.pool.query<{ data: string; spec: object; keys: string[] }>(
      "SELECT data, spec, keys FROM secrets WHERE name = 'api-creds'",
    );
    expect(rows[0].data.startsWith('enc:v1:')).toBe(true);
    expect(rows[0].data).not.toContain(PASSWORD);
    expect(JSON.stringify(rows[0].spec)).not.toContain(Buffer.from(PASSWORD).toString('base64'));
    expect(rows[0].spec).toEqual({ type: 'Opaque' });
  });

  it('refuses an invalid Secret with the field, without quoting the value', async () => {
    const response = await api('/api/resources', {
      method: 'POST',
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'bad' },
        data: { password: 'not base64 at all!' },
      }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { field: string; error: string };
    expect(body.field).toBe('data.password');
    expect(body.error).toContain('must be base64-encoded');
    expect(JSON.stringify(body)).not.toContain('not base64 at all!');
    const other = await api('/api/resources', {
      method: 'POST',
      body: JSON.stringify({
        apiVersion: 'canaries.flanksource.com/v1',
        kind: 'Canary',
        metadata: { name: 'x' },
      }),
    });
    expect(other.status).toBe(400);
    expect(((await other.json()) as { field: string }).field).toBe('kind');
  });

  it('deletes a Secret through the API; checks that used it then fail clearly', async () => {
    const canaryId = await createCanary('after-delete', {
      http: [{ name: 'uses-hook', url: targetUrl, password: secretRef('hook', 'token') }],
    });
    const removed = await api('/api/resources/secrets/default/hook', { method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect((await api('/api/resources/secrets/default/hook', { method: 'DELETE' })).status).toBe(404);
    const result = await runNow(await checkId(canaryId, 'uses-hook'));
    expect(result.errors[0]).toContain('secret "hook" was not found');
  });
});
