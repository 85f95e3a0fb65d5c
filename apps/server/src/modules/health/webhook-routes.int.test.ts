import { webhookPushResponseSchema } from '@opsdeck/contracts';
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
import { loadCanary } from './canary-sync.js';
import { runCanaryChecks } from './canary-runner.js';

/** Webhook pushes through real HTTP on the composed server (buildApp, listening on a port). */
let db: TestDatabase;
let jobs: JobsService;
let app: FastifyInstance;
let baseUrl = '';
let adminToken = '';

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
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the server did not listen on a port');
  baseUrl = `http://127.0.0.1:${address.port}`;
  const admin = await createPerson(db.pool, { roles: ['admin'] });
  adminToken = await createTokenForUser(db.pool, { email: admin.email as string, name: 'admin' });
});

afterAll(async () => {
  await app?.close();
  await db?.close();
});

async function createCanary(name: string, spec: object): Promise<string> {
  const response = await fetch(`${baseUrl}/api/canaries`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, namespace: 'default', spec }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

function push(idOrName: string, body: string, headers: Record<string, string> = {}, query = '') {
  return fetch(`${baseUrl}/webhook/${encodeURIComponent(idOrName)}${query}`, {
    method: 'POST',
    headers,
    body,
  });
}

async function checkRow(canaryId: string, name: string) {
  const { rows } = await db.pool.query<{ id: string; status: string | null; endpoint: string }>(
    `SELECT id, status, endpoint FROM checks WHERE canary_id = $1 AND name = $2 AND deleted_at IS NULL`,
    [canaryId, name],
  );
  return rows[0];
}

async function statuses(checkId: string) {
  const { rows } = await db.pool.query<{
    status: boolean;
    message: string | null;
    error: string | null;
    details: Record<string, unknown> | null;
  }>('SELECT status, message, error, details FROM check_statuses WHERE check_id = $1 ORDER BY time', [
    checkId,
  ]);
  return rows;
}

describe('POST /webhook/{id}', () => {
  let canaryId = '';

  beforeAll(async () => {
    canaryId = await createCanary('deploys', {
      schedule: '@every 1h',
      webhook: {
        name: 'deploy-hook',
        token: { value: 's3cret' },
        test: { expr: "json.status == 'ok'" },
        display: { template: '{{ .json.service }} is {{ .json.status }}' },
      },
      exec: [{ name: 'local-script', script: 'echo ready' }],
    });
  });

  it('records a pushed JSON body as the check result, without the token or credentials', async () => {
    const response = await push(
      'deploy-hook',
      JSON.stringify({ service: 'api', status: 'ok' }),
      { 'content-type': 'application/json', authorization: 'Bearer not-for-storage', 'x-source': 'ci' },
      '?token=s3cret',
    );
    expect(response.status, await response.clone().text()).toBe(200);
    const check = await checkRow(canaryId, 'deploy-hook');
    const answer: unknown = await response.json();
    expect(answer).toMatchObject({ message: 'ok', id: check.id, pass: true });
    // The answer is the contract's, key for key.
    expect(webhookPushResponseSchema.parse(answer)).toEqual(answer);
    expect(check).toMatchObject({ status: 'healthy', endpoint: '/webhook/deploy-hook' });
    const [row] = await statuses(check.id);
    expect(row).toMatchObject({ status: true, message: 'api is ok', error: null });
    expect(row.details).toMatchObject({ json: { service: 'api', status: 'ok' } });
    const headers = (row.details as { headers: Record<string, string> }).headers;
    expect(headers['X-Source']).toBe('ci');
    expect(headers['Content-Type']).toBe('application/json');
    expect(Object.keys(headers).map((name) => name.toLowerCase())).not.toContain('authorization');
    expect(JSON.stringify(row.details)).not.toContain('s3cret');
  });

  it('fails the check when the pushed result fails its test, and queues check.failed', async () => {
    const check = await checkRow(canaryId, 'deploy-hook');
    const response = await push(check.id, JSON.stringify({ service: 'api', status: 'degraded' }), {
      'content-type': 'application/json',
      'webhook-token': 's3cret',
    });
    expect(response.status).toBe(200);
    const answer: unknown = await response.json();
    expect(answer).toMatchObject({ pass: false, error: 'test expression returned false' });
    expect(webhookPushResponseSchema.parse(answer)).toEqual(answer);
    expect((await checkRow(canaryId, 'deploy-hook')).status).toBe('unhealthy');
    const rows = await statuses(check.id);
    expect(rows.map((row) => row.status)).toEqual([true, false]);
    const { rows: events } = await db.pool.query<{ name: string; properties: Record<string, unknown> }>(
      `SELECT name, properties FROM event_queue WHERE properties->>'check_id' = $1`,
      [check.id],
    );
    expect(events.map((event) => event.name)).toEqual(['check.failed']);
  });

  it('refuses a push without the right token and records nothing', async () => {
    const check = await checkRow(canaryId, 'deploy-hook');
    const before = (await statuses(check.id)).length;
    const missing = await push('deploy-hook', '{}', { 'content-type': 'application/json' });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ error: 'invalid webhook token', field: 'token' });
    const wrong = await push('deploy-hook', '{}', {
      'content-type': 'application/json',
      'webhook-token': 'guess',
    });
    expect(wrong.status).toBe(401);
    // The query is the route schema's: a token given twice is a 400 naming it, before any check.
    const twice = await push('deploy-hook', '{}', { 'content-type': 'application/json' }, '?token=a&token=b');
    expect(twice.status).toBe(400);
    expect(await twice.json()).toEqual({
      error: 'token: Invalid input: expected string, received array',
      field: 'token',
    });
    expect((await statuses(check.id)).length).toBe(before);
  });

  it('answers 404 for an unknown webhook and 400 for a body that is not JSON', async () => {
    const unknown = await push('no-such-hook', 'x', { 'content-type': 'text/plain' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'no webhook check no-such-hook', field: 'id' });
    const broken = await push(
      'deploy-hook',
      '{"status": ',
      { 'content-type': 'application/json' },
      '?token=s3cret',
    );
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ field: 'body' });
  });

  it('is never run by the scheduler: a canary run runs only its other checks', async () => {
    const canary = await loadCanary(db.pool, canaryId);
    const before = (await statuses((await checkRow(canaryId, 'deploy-hook')).id)).length;
    const summary = await runCanaryChecks(canary!, { pool: db.pool, logger: createLogger('silent') });
    expect(summary).toMatchObject({ total: 1, success: 1, failed: 0 });
    expect((await checkRow(canaryId, 'local-script')).status).toBe('healthy');
    expect((await statuses((await checkRow(canaryId, 'deploy-hook')).id)).length).toBe(before);
  });
});

describe('webhook checks without a token', () => {
  it('accept text pushes, expose content, and fan out through transform', async () => {
    const canaryId = await createCanary('backups', {
      webhook: [
        {
          name: 'backup-report',
          transform: {
            expr: "content.split('\\n').map(line, {'name': line.split('=')[0], 'pass': line.split('=')[1] == 'done'}).toJSON()",
          },
        },
      ],
    });
    const response = await push('backup-report', 'db=done\nfiles=failed', { 'content-type': 'text/plain' });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toMatchObject({ pass: true, derived: 2 });
    expect((await checkRow(canaryId, 'db'))?.status).toBe('healthy');
    expect((await checkRow(canaryId, 'files'))?.status).toBe('unhealthy');
  });

  it('answers 409 when two canaries share the webhook name', async () => {
    await createCanary('twin-a', { webhook: { name: 'twin-hook' } });
    await createCanary('twin-b', { webhook: { name: 'twin-hook' } });
    const response = await push('twin-hook', 'x', { 'content-type': 'text/plain' });
    expect(response.status).toBe(409);
    expect((await response.json()) as { error: string }).toMatchObject({
      error: "several canaries have a webhook check named twin-hook: push to the check's id",
    });
  });
});

describe('the canary API validates these check types', () => {
  it('refuses an invalid ldap or webhook entry with the field path, storing nothing', async () => {
    const response = await fetch(`${baseUrl}/api/canaries`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'refused',
        namespace: 'default',
        spec: {
          ldap: [{ name: 'directory', host: 'ldap://127.0.0.1:389', bindDN: 'dc=x', userSearch: '(uid=a' }],
          webhook: { token: 'x' },
        },
      }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; field: string; issues: Array<{ path: string }> };
    expect(body.field).toBe('spec.ldap[0].userSearch');
    expect(body.issues.map((issue) => issue.path)).toEqual(['spec.ldap[0].userSearch', 'spec.webhook.name']);
    const { rows } = await db.pool.query("SELECT 1 FROM canaries WHERE name = 'refused'");
    expect(rows).toEqual([]);
  });
});
