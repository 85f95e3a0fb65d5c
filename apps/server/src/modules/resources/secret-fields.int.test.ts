import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Role } from '@opsdeck/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPerson } from '../../../test/harness/factories.js';
import { MASKED_SECRET } from '../../platform/secret-fields.js';
import { createSecretBox, keyFromSecret } from '../../platform/secrets.js';
import { createTokenForUser } from '../auth/index.js';
import { startFullApp, type FullApp } from '../../../test/harness/full-app.js';
import { applyCommand, createConnectionResolver, createValueFromResolver } from './index.js';

/**
 * Secrets are sealed at rest whatever path wrote them (YAML through the API, `opsdeck apply`,
 * the data API, the editors), masked in every read, kept when a client sends the mask back, and
 * opened only where the product uses them: the checks below authenticate against a real local
 * HTTP server with credentials that were only ever stored sealed.
 */

// startFullApp seals with this key (test-fixtures/full-app.ts).
const box = createSecretBox(keyFromSecret('a-test-secret-key'));
let full: FullApp;
const tokens: Record<string, string> = {};
let server: http.Server;
let baseUrl = '';
const SECRETS = {
  yamlToken: 'xoxb-yaml-slack-token-1',
  yamlPassword: 'yaml-pass-word-2',
  dbPassword: 'db-pass-word-3',
  dbSecretKey: 'aws-secret-key-4',
  cliToken: 'cli-telegram-token-5',
  checkPassword: 'check-pass-word-6',
};

function call(
  role: string,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT',
  url: string,
  payload?: unknown,
  contentType = 'application/json',
): Promise<LightMyRequestResponse> {
  return full.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${tokens[role]}`,
      'content-type': contentType,
      prefer: 'return=representation',
    },
    ...(payload === undefined
      ? {}
      : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
  });
}

/** Every stored row of these tables as text: no plaintext secret may appear in it. */
async function storedText(): Promise<string> {
  const { rows } = await full.db.pool.query<{ text: string }>(
    `SELECT (SELECT coalesce(string_agg(c::text, E'\\n'), '') FROM connections c)
         || (SELECT coalesce(string_agg(k::text, E'\\n'), '') FROM canaries k)
         || (SELECT coalesce(string_agg(h::text, E'\\n'), '') FROM checks h)
         || (SELECT coalesce(string_agg(s::text, E'\\n'), '') FROM config_scrapers s) AS text`,
  );
  return rows[0].text;
}

function expectNoSecret(text: string): void {
  for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
}

beforeAll(async () => {
  full = await startFullApp('Secrets Admin');
  for (const role of ['admin', 'editor', 'viewer', 'guest'] as Role[]) {
    const person = await createPerson(full.db.pool, { roles: [role] });
    tokens[role] = await createTokenForUser(full.db.pool, { email: person.email as string, name: role });
  }
  // A real peer that only answers 200 to the right Basic credentials.
  server = http.createServer((request, response) => {
    const expected = [`u:${SECRETS.checkPassword}`, `db-user:${SECRETS.dbPassword}`].map(
      (pair) => `Basic ${Buffer.from(pair).toString('base64')}`,
    );
    response.statusCode = expected.includes(request.headers.authorization ?? '') ? 200 : 401;
    response.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await full?.close();
});

describe('a connection written three ways', () => {
  beforeAll(async () => {
    const db = await call('admin', 'POST', '/api/db/connections', {
      name: 'api-db',
      type: 'http',
      url: baseUrl,
      username: 'db-user',
      spec: { aws: { region: 'eu-west-1', secretKey: SECRETS.dbSecretKey } },
    });
    expect(db.statusCode, db.body).toBe(201);
    expectNoSecret(db.body);

    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'opsdeck-secrets-'));
    const file = path.join(dir, 'conn.yaml');
    await fs.writeFile(
      file,
      [
        'apiVersion: mission-control.flanksource.com/v1',
        'kind: Connection',
        'metadata: {name: slack-yaml, namespace: default}',
        'spec:',
        `  password: ${SECRETS.yamlPassword}`,
        '  slack:',
        `    token: {value: ${SECRETS.yamlToken}}`,
        '    channel: ops',
        '---',
        'apiVersion: mission-control.flanksource.com/v1',
        'kind: Connection',
        'metadata: {name: telegram-cli}',
        'spec:',
        '  telegram:',
        `    token: ${SECRETS.cliToken}`,
        '---',
        'apiVersion: mission-control.flanksource.com/v1',
        'kind: Connection',
        'metadata: {name: basic-http}',
        'spec:',
        '  type: http',
        `  url: ${baseUrl}`,
        '  username: db-user',
        `  password: ${SECRETS.dbPassword}`,
      ].join('\n'),
    );
    const out: string[] = [];
    const code = await applyCommand(
      full.db.pool,
      [file],
      { write: (text) => out.push(text) },
      { secrets: box },
    );
    expect(code, out.join('')).toBe(0);
    // Applied again unchanged, the sealed values compare equal to the file's (no rewrite).
    const again: string[] = [];
    await applyCommand(full.db.pool, [file], { write: (text) => again.push(text) }, { secrets: box });
    expect(again.join('')).toContain('unchanged');
    expect(again.join('')).not.toContain('updated');
    await fs.rm(dir, { recursive: true, force: true });

    // A third way: the data API's upsert (PUT) of a typed block.
    const put = await call('admin', 'PUT', '/api/db/connections?name=eq.put-conn&namespace=eq.default', {
      name: 'put-conn',
      namespace: 'default',
      type: 'openai',
      spec: { openai: { apiKey: 'sk-put-api-key-8' } },
    });
    expect([200, 201, 400, 405]).toContain(put.statusCode);
    if (put.statusCode >= 300) {
      const post = await call('admin', 'POST', '/api/db/connections', {
        name: 'put-conn',
        type: 'openai',
        spec: { openai: { apiKey: 'sk-put-api-key-8' } },
      });
      expect(post.statusCode, post.body).toBe(201);
    }
    expect(await storedText()).not.toContain('sk-put-api-key-8');
  });

  it('stores no secret in clear', async () => {
    const text = await storedText();
    expect(text).toContain('enc:v1:');
    expectNoSecret(text);
  });

  it.each(['admin', 'editor'])('reads back masked for %s, through the data API', async (role) => {
    const response = await call(role, 'GET', '/api/db/connections?select=*&order=name');
    expect(response.statusCode).toBe(200);
    expectNoSecret(response.body);
    expect(response.body).not.toContain('enc:v1:');
    const rows = response.json() as { name: string; spec: Record<string, Record<string, unknown>> }[];
    expect(rows.find((row) => row.name === 'slack-yaml')?.spec.slack).toEqual({
      token: { value: MASKED_SECRET },
      channel: 'ops',
    });
    expect(rows.find((row) => row.name === 'api-db')?.spec.aws).toEqual({
      region: 'eu-west-1',
      secretKey: MASKED_SECRET,
    });
    const csv = await full.app.inject({
      method: 'GET',
      url: '/api/db/connections?select=name,spec',
      headers: { authorization: `Bearer ${tokens[role]}`, accept: 'text/csv' },
    });
    expectNoSecret(csv.body);
    expect(csv.body).not.toContain('enc:v1:');
  });

  it.each(['viewer', 'guest'])('is not readable at all by %s', async (role) => {
    const response = await call(role, 'GET', '/api/db/connections');
    expect(response.statusCode).toBe(403);
  });

  it('opens for the product: the resolver reads the data-API connection', async () => {
    const resolve = createConnectionResolver(full.db.pool, box, createValueFromResolver(full.db.pool, box));
    const opened = await resolve('connection://default/api-db');
    expect(opened).toMatchObject({ url: baseUrl, username: 'db-user' });
    const applied = await resolve('connection://default/basic-http');
    expect(applied).toMatchObject({ url: baseUrl, username: 'db-user', password: SECRETS.dbPassword });
  });

  it('keeps the stored secret when the mask comes back, and replaces it when a new one does', async () => {
    const read = await call('admin', 'GET', '/api/db/connections?name=eq.api-db&select=id,spec,username');
    const row = (read.json() as { id: string; spec: unknown }[])[0];
    const back = await call('admin', 'PATCH', `/api/db/connections?id=eq.${row.id}`, {
      spec: row.spec,
      username: MASKED_SECRET,
    });
    expect(back.statusCode, back.body).toBe(200);
    const resolve = createConnectionResolver(full.db.pool, box, createValueFromResolver(full.db.pool, box));
    expect((await resolve('connection://default/api-db'))?.username).toBe('db-user');
    const { rows } = await full.db.pool.query<{ secret: string }>(
      `SELECT spec->'aws'->>'secretKey' AS secret FROM connections WHERE id = $1`,
      [row.id],
    );
    expect(box.open(rows[0].secret)).toBe(SECRETS.dbSecretKey);

    const changed = await call('admin', 'PATCH', `/api/db/connections?id=eq.${row.id}`, {
      username: 'a-new-user',
    });
    expect(changed.statusCode).toBe(200);
    expect((await resolve('connection://default/api-db'))?.username).toBe('a-new-user');
  });
});

describe("a check's inline password", () => {
  let canaryId = '';

  beforeAll(async () => {
    const created = await call('editor', 'POST', '/api/canaries', {
      name: 'basic-auth',
      spec: {
        schedule: '@every 1h',
        http: [
          {
            name: 'inline-basic',
            url: `${baseUrl}/inline`,
            username: { value: 'u' },
            password: { value: SECRETS.checkPassword },
          },
          { name: 'via-connection', connection: 'connection://default/basic-http' },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    expectNoSecret(created.body);
    canaryId = (created.json() as { id: string }).id;
  });

  it('is sealed at rest, in the canary and in its checks', async () => {
    expectNoSecret(await storedText());
  });

  it.each(['viewer', 'guest', 'editor'])('reads as the mask for %s', async (role) => {
    for (const url of [
      `/api/db/canaries?id=eq.${canaryId}`,
      `/api/db/checks?canary_id=eq.${canaryId}&select=name,spec`,
    ]) {
      const response = await call(role, 'GET', url);
      expect(response.statusCode).toBe(200);
      expectNoSecret(response.body);
      expect(response.body).toContain(MASKED_SECRET);
    }
  });

  it('reads as the mask in the editor, and runs with the real one', async () => {
    const record = await call('editor', 'GET', `/api/canaries/${canaryId}`);
    expect(record.statusCode).toBe(200);
    expectNoSecret(record.body);
    const { rows } = await full.db.pool.query<{ id: string; name: string }>(
      `SELECT id, name FROM checks WHERE canary_id = $1 AND deleted_at IS NULL`,
      [canaryId],
    );
    for (const check of rows) {
      const run = await call('editor', 'POST', `/api/canary/run/check/${check.id}`);
      expect(run.statusCode).toBe(200);
      expect(run.json(), `${check.name}: ${run.body}`).toMatchObject({ success: 1, failed: 0 });
    }
  });

  it('saved back with the mask, it keeps the secret (the check still authenticates)', async () => {
    const record = (await call('editor', 'GET', `/api/canaries/${canaryId}`)).json() as {
      spec: { http: Record<string, unknown>[] };
    };
    const spec = record.spec;
    spec.http[0].description = 'edited in the UI';
    const saved = await call('editor', 'PUT', `/api/canaries/${canaryId}`, { spec });
    expect(saved.statusCode, saved.body).toBe(200);
    expectNoSecret(await storedText());
    const { rows } = await full.db.pool.query<{ id: string }>(
      `SELECT id FROM checks WHERE canary_id = $1 AND name = 'inline-basic' AND deleted_at IS NULL`,
      [canaryId],
    );
    const run = await call('editor', 'POST', `/api/canary/run/check/${rows[0].id}`);
    expect(run.json()).toMatchObject({ success: 1, failed: 0 });
  });
});

describe('a scraper written through the data API', () => {
  it('seals a secret-shaped field and masks it in reads', async () => {
    const created = await call('admin', 'POST', '/api/db/config_scrapers', {
      name: 'with-secret',
      spec: {
        schedule: '@every 1h',
        http: [{ type: 'T', id: '$.id', url: `${baseUrl}/x`, password: 'scraper-pass-7' }],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.body).not.toContain('scraper-pass-7');
    const text = await storedText();
    expect(text).not.toContain('scraper-pass-7');
    const read = await call('viewer', 'GET', `/api/db/config_scrapers?name=eq.with-secret&select=spec`);
    expect(read.body).toContain(MASKED_SECRET);
    expect(read.body).not.toContain('scraper-pass-7');
  });
});
