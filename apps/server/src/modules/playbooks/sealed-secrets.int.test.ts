import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFullApp, type FullApp } from '../../../test/harness/full-app.js';
import { waitFor } from '../../platform/jobs/test-fixtures/helpers.js';
import { createSecretBox, keyFromSecret } from '../../platform/secrets.js';
import type { ModuleWorkers } from '../../server-module.js';
import { bearer, createTestPerson, createTestToken } from '../auth/test-fixtures/auth-test-app.js';
import { startPlaybookWorkers } from './workers.js';

/**
 * Playbook specs and secret parameters hold credentials: sealed at rest whatever writes them,
 * read as the mask by everyone, kept when the mask is sent back, and opened only where used
 * (the webhook's check, the action's request).
 */
let full: FullApp;
let workers: ModuleWorkers;
let target: http.Server;
let targetUrl: string;
const received: { auth?: string; body: string }[] = [];
let viewerToken: string;

beforeAll(async () => {
  full = await startFullApp('Sealing Admin');
  target = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ auth: request.headers.authorization, body });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  workers = await startPlaybookWorkers({
    pool: full.db.pool,
    jobs: full.jobs,
    logger: pino({ level: 'silent' }),
    metrics: undefined as never,
    // The full app's key (test/harness/full-app.ts).
    secrets: createSecretBox(keyFromSecret('a-test-secret-key')),
  });
  await full.jobs.start();
  const viewer = await createTestPerson(full.db.pool, { roles: ['viewer'] });
  viewerToken = await createTestToken(full.db.pool, viewer.id);
}, 60_000);

afterAll(async () => {
  await full?.jobs.stop({ graceMs: 1000 });
  await workers?.stop();
  await new Promise((resolve) => target?.close(resolve));
  await full?.close();
});

describe('secrets of playbooks', () => {
  it('seals the spec, masks every read, keeps the secret on a masked update and opens it to run', async () => {
    const created = await full.send('POST', '/api/db/playbooks', {
      name: 'sealed-call',
      spec: {
        parameters: [{ name: 'apiKey', type: 'secret' }],
        on: {
          webhook: {
            path: 'sealed-hook',
            authentication: { basic: { username: 'ci', password: 'hook-pass-1' } },
          },
        },
        actions: [
          {
            name: 'call',
            http: {
              url: `${targetUrl}/call`,
              method: 'POST',
              username: 'ops',
              password: 'action-pass-1',
              body: '{{.params.apiKey}}',
            },
          },
        ],
      },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json<{ id: string }[]>()[0].id;
    const stored = await full.db.pool.query<{ spec: unknown }>('SELECT spec FROM playbooks WHERE id = $1', [
      id,
    ]);
    const storedText = JSON.stringify(stored.rows[0].spec);
    expect(storedText).not.toContain('hook-pass-1');
    expect(storedText).not.toContain('action-pass-1');

    const read = await full.app.inject({
      method: 'GET',
      url: `/api/db/playbooks?id=eq.${id}`,
      headers: bearer(viewerToken),
    });
    expect(read.statusCode).toBe(200);
    expect(read.body).toContain('********');
    expect(read.body).not.toMatch(/hook-pass-1|action-pass-1|enc:v1/);

    // The editor sends back what it read: the mask keeps the stored secrets.
    const masked = read.json<{ spec: Record<string, unknown> }[]>()[0].spec;
    const updated = await full.send('PATCH', `/api/db/playbooks?id=eq.${id}`, {
      spec: masked,
      description: 'edited',
    });
    expect(updated.statusCode).toBe(200);

    const hook = await full.app.inject({
      method: 'POST',
      url: '/playbook/webhook/sealed-hook',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from('ci:hook-pass-1').toString('base64')}`,
      },
      payload: '{}',
    });
    expect(hook.statusCode).toBe(201);
    await waitFor(async () => (received.length > 0 ? true : undefined), {
      timeoutMs: 20_000,
      what: 'the webhook run',
    });
    expect(received[0].auth).toBe(`Basic ${Buffer.from('ops:action-pass-1').toString('base64')}`);

    const started = await full.send('POST', '/api/playbook/run', {
      id,
      params: { apiKey: 'key-from-the-form' },
    });
    expect(started.statusCode, started.body).toBe(201);
    const runId = started.json<{ run_id: string }>().run_id;
    await waitFor(async () => (received.some((hit) => hit.body === 'key-from-the-form') ? true : undefined), {
      timeoutMs: 20_000,
      what: 'the run with the secret parameter',
    });
    const run = await full.db.pool.query<{ parameters: unknown }>(
      'SELECT parameters FROM playbook_runs WHERE id = $1',
      [runId],
    );
    expect(JSON.stringify(run.rows[0].parameters)).not.toContain('key-from-the-form');
    const detail = await full.get(`/api/playbook/run/${runId}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.body).not.toMatch(/key-from-the-form|enc:v1/);
    const runs = await full.app.inject({
      method: 'GET',
      url: '/api/db/playbook_runs?select=parameters',
      headers: bearer(viewerToken),
    });
    expect(runs.body).not.toMatch(/key-from-the-form|enc:v1/);
  });
});
