import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck, type RunCheckOptions } from './run-check.js';

const options: RunCheckOptions = {
  canary: { name: 'web', namespace: 'default' },
  logger: pino({ level: 'silent' }),
  resolveConnection: (name) =>
    name === 'connection://default/api'
      ? { url: `${baseUrl}/basic`, username: 'user', password: 'pass' }
      : undefined,
  timeoutMs: 5_000,
};

let baseUrl = '';
let httpsUrl = '';
let certificatePem = '';
const servers: Array<http.Server | https.Server> = [];
const digestNonce = randomBytes(8).toString('hex');
const hungResponses: ServerResponse[] = [];

function md5(text: string): string {
  return createHash('md5').update(text).digest('hex');
}

/** Verifies an RFC 2617 digest response independently of the code under test. */
function digestValid(
  header: string | undefined,
  method: string,
  username: string,
  password: string,
  realm: string,
): boolean {
  if (!header?.startsWith('Digest ')) return false;
  const params = new Map<string, string>();
  for (const match of header.slice(7).matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]*))/g))
    params.set(match[1], match[2] ?? match[3]);
  const ha1 = md5(`${username}:${realm}:${password}`);
  const ha2 = md5(`${method}:${params.get('uri') ?? ''}`);
  const expected = md5(
    `${ha1}:${params.get('nonce') ?? ''}:${params.get('nc') ?? ''}:${params.get('cnonce') ?? ''}:${params.get('qop') ?? ''}:${ha2}`,
  );
  return (
    params.get('username') === username &&
    params.get('nonce') === digestNonce &&
    params.get('response') === expected
  );
}

function readRequestBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => resolve(body));
  });
}

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
  switch (url.pathname) {
    case '/json':
      return json(200, {
        status: 'ok',
        version: '1.2.3',
        items: [
          { name: 'a', healthy: true },
          { name: 'b', healthy: false },
        ],
      });
    case '/text':
      response.writeHead(200, { 'content-type': 'text/plain', 'x-served-by': 'test' });
      response.end('hello world');
      return;
    case '/broken-json':
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{not json');
      return;
    case '/gzip':
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end(gzipSync(JSON.stringify({ compressed: true })));
      return;
    case '/slow':
      setTimeout(() => json(200, { slow: true }), Number(url.searchParams.get('ms') ?? '300'));
      return;
    case '/hang':
      hungResponses.push(response);
      return;
    case '/redirect':
      response.writeHead(302, { location: '/json' });
      response.end();
      return;
    case '/basic':
      if (request.headers.authorization === `Basic ${Buffer.from('user:pass').toString('base64')}`)
        return json(200, { user: 'user' });
      return json(401, { error: 'unauthorized' }, { 'www-authenticate': 'Basic realm="test"' });
    case '/digest':
      if (digestValid(request.headers.authorization, request.method ?? 'GET', 'user', 'secret', 'opsdeck')) {
        return json(200, { digest: true });
      }
      return json(
        401,
        { error: 'unauthorized' },
        {
          'www-authenticate': `Digest realm="opsdeck", qop="auth", nonce="${digestNonce}", opaque="abc"`,
        },
      );
    case '/echo': {
      const body = await readRequestBody(request);
      return json(200, { method: request.method, headers: request.headers, body });
    }
    default: {
      const status = /^\/status\/(\d{3})$/.exec(url.pathname);
      if (status) return json(Number(status[1]), { status: Number(status[1]) });
      return json(404, { error: 'not found' });
    }
  }
}

function listen(server: http.Server | https.Server): Promise<number> {
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

beforeAll(async () => {
  const port = await listen(http.createServer((request, response) => void handle(request, response)));
  baseUrl = `http://127.0.0.1:${port}`;
  // A certificate that expires in 5 days, made by the system openssl (no extra package needed).
  const directory = mkdtempSync(path.join(tmpdir(), 'opsdeck-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '5',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        path.join(directory, 'key.pem'),
        '-out',
        path.join(directory, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    certificatePem = readFileSync(path.join(directory, 'cert.pem'), 'utf8');
    const key = readFileSync(path.join(directory, 'key.pem'), 'utf8');
    const securePort = await listen(
      https.createServer(
        { key, cert: certificatePem },
        (request, response) => void handle(request, response),
      ),
    );
    httpsUrl = `https://localhost:${securePort}`;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

afterAll(async () => {
  for (const response of hungResponses) response.destroy();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

describe('http check against a local server', () => {
  it('passes on a 2xx and exposes code, headers, content, json and elapsed to expressions', async () => {
    const run = await runCheck(
      'http',
      {
        name: 'json',
        url: `${baseUrl}/json`,
        test: {
          expr: "code == 200 && json.status == 'ok' && json.items.size() == 2 && headers['Content-Type'] == 'application/json' && elapsed >= duration('0s') && elapsed.getMilliseconds() >= 0",
        },
        display: { template: '{{ .json.version }} {{ range .json.items }}{{ .name }}{{ end }}' },
      },
      options,
    );
    expect(run.result).toMatchObject({ pass: true, message: '1.2.3 ab', error: '' });
    expect(run.result.duration).toBeGreaterThan(0);
    expect(run.endpoint).toBe(`${baseUrl}/json`);
    expect(run.result.data.sslAge).toBeNull();
  });

  it('fails outside 200..299 by default and outside responseCodes when given', async () => {
    const defaultCodes = await runCheck('http', { name: 's', url: `${baseUrl}/status/503` }, options);
    expect(defaultCodes.result).toMatchObject({ pass: false, error: 'expected 503 to be 200..299' });
    const listed = await runCheck(
      'http',
      { name: 's', url: `${baseUrl}/status/404`, responseCodes: [404] },
      options,
    );
    expect(listed.result.pass).toBe(true);
    const notListed = await runCheck(
      'http',
      { name: 's', url: `${baseUrl}/status/200`, responseCodes: [201, 202] },
      options,
    );
    expect(notListed.result).toMatchObject({ pass: false, error: 'expected 200 to be in [201 202]' });
  });

  it('checks responseContent and responseJSONContent', async () => {
    expect(
      (await runCheck('http', { name: 't', url: `${baseUrl}/text`, responseContent: 'hello' }, options))
        .result.pass,
    ).toBe(true);
    const missing = await runCheck(
      'http',
      { name: 't', url: `${baseUrl}/text`, responseContent: 'goodbye' },
      options,
    );
    expect(missing.result).toMatchObject({ pass: false, error: 'expected goodbye, found hello world' });
    const jsonOk = await runCheck(
      'http',
      { name: 'j', url: `${baseUrl}/json`, responseJSONContent: { path: '$.items[0].name', value: 'a' } },
      options,
    );
    expect(jsonOk.result.pass).toBe(true);
    const jsonBad = await runCheck(
      'http',
      { name: 'j', url: `${baseUrl}/json`, responseJSONContent: { path: '$.version', value: '2.0.0' } },
      options,
    );
    expect(jsonBad.result).toMatchObject({
      pass: false,
      error: 'expected $.version to be 2.0.0, found 1.2.3',
    });
  });

  it('fails a response slower than thresholdMillis', async () => {
    const slow = await runCheck(
      'http',
      { name: 'slow', url: `${baseUrl}/slow?ms=300`, thresholdMillis: 100 },
      options,
    );
    expect(slow.result.pass).toBe(false);
    expect(slow.result.error).toMatch(/^threshold exceeded \d+ms > 100ms$/);
    expect(
      (await runCheck('http', { name: 'fast', url: `${baseUrl}/slow?ms=1`, thresholdMillis: 2_000 }, options))
        .result.pass,
    ).toBe(true);
  });

  it('times out a target that never answers without hanging the caller', async () => {
    const started = Date.now();
    const run = await runCheck(
      'http',
      { name: 'hang', url: `${baseUrl}/hang` },
      { ...options, timeoutMs: 400 },
    );
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(run.result.pass).toBe(false);
    expect(run.result.error).toMatch(/timed out after 400ms/);
  });

  it('sends method, templated body and headers', async () => {
    const run = await runCheck(
      'http',
      {
        name: 'post',
        url: `${baseUrl}/echo`,
        method: 'POST',
        templateBody: true,
        body: '{"canary": "{{ .canary.name }}", "region": "{{ .region }}"}',
        env: [{ name: 'region', value: 'eu-west' }],
        headers: [
          { name: 'X-Token', value: 'abc' },
          { name: 'Content-Type', value: 'application/json' },
        ],
        test: {
          expr: 'json.method == \'POST\' && json.headers[\'x-token\'] == \'abc\' && json.body == \'{"canary": "web", "region": "eu-west"}\'',
        },
      },
      options,
    );
    expect(run.result).toMatchObject({ pass: true, error: '' });
  });

  it('authenticates with basic auth, inline or from a named connection', async () => {
    const denied = await runCheck('http', { name: 'basic', url: `${baseUrl}/basic` }, options);
    expect(denied.result).toMatchObject({ pass: false, error: 'expected 401 to be 200..299' });
    const inline = await runCheck(
      'http',
      { name: 'basic', url: `${baseUrl}/basic`, username: 'user', password: { value: 'pass' } },
      options,
    );
    expect(inline.result.pass).toBe(true);
    const named = await runCheck('http', { name: 'basic', connection: 'connection://default/api' }, options);
    expect(named.result.pass).toBe(true);
    const unknown = await runCheck(
      'http',
      { name: 'basic', connection: 'connection://default/none' },
      options,
    );
    expect(unknown.result).toMatchObject({
      invalid: true,
      error: 'connection "connection://default/none" was not found',
    });
  });

  it('answers a digest challenge', async () => {
    const ok = await runCheck(
      'http',
      { name: 'digest', url: `${baseUrl}/digest`, username: 'user', password: 'secret' },
      options,
    );
    expect(ok.result).toMatchObject({ pass: true });
    expect(ok.result.data.json).toEqual({ digest: true });
    const wrong = await runCheck(
      'http',
      { name: 'digest', url: `${baseUrl}/digest`, username: 'user', password: 'nope' },
      options,
    );
    expect(wrong.result).toMatchObject({ pass: false, error: 'expected 401 to be 200..299' });
  });

  it('follows redirects unless a redirect status is expected', async () => {
    const followed = await runCheck(
      'http',
      { name: 'r', url: `${baseUrl}/redirect`, test: { expr: "json.status == 'ok'" } },
      options,
    );
    expect(followed.result.pass).toBe(true);
    expect(followed.result.detail).toMatchObject({ redirects: [`${baseUrl}/json`] });
    const kept = await runCheck(
      'http',
      { name: 'r', url: `${baseUrl}/redirect`, responseCodes: [302] },
      options,
    );
    expect(kept.result.pass).toBe(true);
    expect(kept.result.data.code).toBe(302);
  });

  it('decodes gzip bodies and rejects invalid JSON unless a test decides', async () => {
    const gzip = await runCheck(
      'http',
      { name: 'gz', url: `${baseUrl}/gzip`, test: { expr: 'json.compressed' } },
      options,
    );
    expect(gzip.result.pass).toBe(true);
    const broken = await runCheck('http', { name: 'bj', url: `${baseUrl}/broken-json` }, options);
    expect(broken.result.pass).toBe(false);
    expect(broken.result.error).toMatch(/^invalid json response: /);
    const tested = await runCheck(
      'http',
      { name: 'bj', url: `${baseUrl}/broken-json`, test: { expr: "content.startsWith('{')" } },
      options,
    );
    expect(tested.result.pass).toBe(true);
  });

  it('fails for a closed port and refuses a url without http(s)', async () => {
    const closed = await runCheck('http', { name: 'down', url: 'http://127.0.0.1:1/' }, options);
    expect(closed.result.pass).toBe(false);
    expect(closed.result.error).toMatch(/ECONNREFUSED/);
    const ftp = await runCheck('http', { name: 'ftp', url: 'ftp://127.0.0.1/' }, options);
    expect(ftp.result).toMatchObject({ invalid: true });
  });
});

describe('https and certificate expiry', () => {
  it('rejects a self-signed certificate unless trusted or verification is skipped', async () => {
    const untrusted = await runCheck('http', { name: 'tls', url: `${httpsUrl}/json` }, options);
    expect(untrusted.result.pass).toBe(false);
    expect(untrusted.result.error).toMatch(/self[- ]signed certificate/);
    const trusted = await runCheck(
      'http',
      { name: 'tls', url: `${httpsUrl}/json`, tlsConfig: { ca: certificatePem } },
      options,
    );
    expect(trusted.result.pass).toBe(true);
    const skipped = await runCheck(
      'http',
      { name: 'tls', url: `${httpsUrl}/json`, tlsConfig: { insecureSkipVerify: true } },
      options,
    );
    expect(skipped.result.pass).toBe(true);
  });

  it('exposes sslAge and fails when the certificate expires within maxSSLExpiry days', async () => {
    const soon = await runCheck(
      'http',
      { name: 'tls', url: `${httpsUrl}/json`, tlsConfig: { ca: certificatePem }, maxSSLExpiry: 30 },
      options,
    );
    expect(soon.result.pass).toBe(false);
    expect(soon.result.error).toMatch(/^SSL certificate expires soon: in \d+d\d*h?, less than 30 days$/);
    const sslAge = soon.result.data.sslAge as number;
    expect(sslAge).toBeGreaterThan(4 * 86_400_000);
    expect(sslAge).toBeLessThan(5 * 86_400_000 + 60_000);
    const fine = await runCheck(
      'http',
      {
        name: 'tls',
        url: `${httpsUrl}/json`,
        tlsConfig: { ca: certificatePem },
        maxSSLExpiry: 2,
        test: { expr: "sslAge > Duration('3d')" },
      },
      options,
    );
    expect(fine.result.pass).toBe(true);
    const plain = await runCheck('http', { name: 'plain', url: `${baseUrl}/json`, maxSSLExpiry: 2 }, options);
    expect(plain.result).toMatchObject({ pass: false, error: 'No certificate found to check age' });
  });
});
