import { createHash, createHmac } from 'node:crypto';
import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signRequest } from './aws-sigv4.js';
import { runCheck, type RunCheckOptions } from './run-check.js';

/**
 * The http check's `awsSigV4`, `oauth2`, User-Agent and templated fields against a local server
 * that checks what it receives on its own (its SigV4 verifier is written here, from AWS's
 * published algorithm, not imported from the code under test).
 */
const options: RunCheckOptions = {
  canary: { name: 'web', namespace: 'default' },
  logger: pino({ level: 'silent' }),
  resolveConnection: () => undefined,
  timeoutMs: 5_000,
};

const ACCESS_KEY = 'AKIDEXAMPLE';
const SECRET_KEY = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY';
let baseUrl = '';
let server: http.Server;
const seen: { userAgent?: string; path?: string } = {};

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

function hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Recomputes the signature of a received request and compares. */
function sigV4Valid(request: IncomingMessage, body: Buffer): boolean {
  const header = request.headers.authorization ?? '';
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      header,
    );
  if (!match) return false;
  const [, accessKey, day, region, service, signedHeaders, signature] = match;
  if (accessKey !== ACCESS_KEY) return false;
  const url = new URL(request.url ?? '/', 'http://local');
  const query = [...url.searchParams.entries()]
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .sort()
    .join('&');
  const names = signedHeaders.split(';');
  if (!names.includes('host') || !names.includes('x-amz-date')) return false;
  const canonical = [
    request.method,
    url.pathname,
    query,
    names.map((name) => `${name}:${String(request.headers[name]).trim()}\n`).join(''),
    signedHeaders,
    hex(body),
  ].join('\n');
  const date = String(request.headers['x-amz-date']);
  const toSign = `AWS4-HMAC-SHA256\n${date}\n${day}/${region}/${service}/aws4_request\n${hex(canonical)}`;
  let key: Buffer = createHmac('sha256', `AWS4${SECRET_KEY}`).update(day).digest();
  for (const part of [region, service, 'aws4_request']) key = createHmac('sha256', key).update(part).digest();
  return createHmac('sha256', key).update(toSign).digest('hex') === signature;
}

beforeAll(async () => {
  server = http.createServer((request, response) => {
    void readBody(request).then((body) => {
      const url = new URL(request.url ?? '/', 'http://local');
      seen.userAgent = request.headers['user-agent'];
      seen.path = url.pathname + url.search;
      if (url.pathname === '/token') {
        const expected = `Basic ${Buffer.from('client-1:s3cret').toString('base64')}`;
        const form = new URLSearchParams(body.toString());
        const ok =
          request.headers.authorization === expected &&
          form.get('grant_type') === 'client_credentials' &&
          form.get('scope') === 'read write' &&
          form.get('audience') === 'checks';
        response.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
        response.end(
          ok
            ? JSON.stringify({ access_token: 'tok-123', token_type: 'bearer' })
            : '{"error":"invalid_client"}',
        );
        return;
      }
      if (url.pathname.startsWith('/aws')) {
        response.writeHead(sigV4Valid(request, body) ? 200 : 403).end();
        return;
      }
      if (url.pathname === '/bearer') {
        response.writeHead(request.headers.authorization === 'Bearer tok-123' ? 200 : 401).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

describe('awsSigV4', () => {
  it('matches the AWS documentation example signature', () => {
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
    };
    signRequest(
      {
        method: 'GET',
        url: new URL('https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08'),
        headers,
      },
      { accessKey: ACCESS_KEY, secretKey: SECRET_KEY, region: 'us-east-1', service: 'iam' },
      new Date('2015-08-30T12:36:00Z'),
    );
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7',
    );
  });

  it('signs the request so the server accepts it; a wrong secret is refused', async () => {
    const spec = (secretKey: string) => ({
      name: 'aws',
      url: `${baseUrl}/aws/items?b=2&a=1`,
      method: 'POST',
      body: '{"q":1}',
      awsSigV4: {
        accessKey: { value: ACCESS_KEY },
        secretKey: { value: secretKey },
        region: 'eu-west-1',
        service: 'execute-api',
      },
    });
    const good = await runCheck('http', spec(SECRET_KEY), options);
    expect(good.result.error).toBe('');
    expect(good.result.pass).toBe(true);
    const bad = await runCheck('http', spec('wrong'), options);
    expect(bad.result.pass).toBe(false);
    expect(bad.result.error).toMatch(/403/);
  });

  it('refuses awsSigV4 without keys or with assumeRole instead of sending unsigned', async () => {
    const missing = await runCheck(
      'http',
      { name: 'aws', url: `${baseUrl}/aws`, awsSigV4: { region: 'x', service: 'y' } },
      options,
    );
    expect(missing.result.invalid).toBe(true);
    expect(missing.result.error).toMatch(/accessKey and secretKey are required/);
    const role = await runCheck(
      'http',
      { name: 'aws', url: `${baseUrl}/aws`, awsSigV4: { assumeRole: 'arn:aws:iam::1:role/x' } },
      options,
    );
    expect(role.result.error).toMatch(/assumeRole is not supported/);
  });
});

describe('oauth2 client credentials', () => {
  it('fetches a token and sends it as a bearer token', async () => {
    const spec = (secret: string) => ({
      name: 'oauth',
      url: `${baseUrl}/bearer`,
      oauth2: {
        clientID: { value: 'client-1' },
        clientSecret: { value: secret },
        tokenURL: `${baseUrl}/token`,
        scopes: ['read', 'write'],
        params: { audience: 'checks' },
      },
    });
    const run = await runCheck('http', spec('s3cret'), options);
    expect(run.result.pass).toBe(true);
    const refused = await runCheck('http', spec('nope'), options);
    expect(refused.result.pass).toBe(false);
    expect(refused.result.error).toMatch(/token endpoint answered 401/);
  });
});

describe('User-Agent and templated fields', () => {
  it("sends the ecosystem's User-Agent by default and a configured one when set", async () => {
    await runCheck('http', { name: 'ua', url: `${baseUrl}/plain` }, options);
    expect(seen.userAgent).toMatch(/^canary-checker\/\S+/);
    await runCheck('http', { name: 'ua', url: `${baseUrl}/plain`, userAgent: 'probe/2' }, options);
    expect(seen.userAgent).toBe('probe/2');
  });

  it('renders $(.var) from env and last_result in the url and header values', async () => {
    const run = await runCheck(
      'http',
      {
        name: 'templated',
        url: `${baseUrl}/items?env=$(.stage)&since={{ .last_result.results.max }}`,
        env: [{ name: 'stage', value: 'prod' }],
        headers: [{ name: 'X-Stage', value: '$(.stage)' }],
        test: { expr: "json.ok && elapsed > Duration('0s')" },
      },
      { ...options, lastResult: { results: { max: 42 } } },
    );
    expect(run.result.pass).toBe(true);
    expect(seen.path).toBe('/items?env=prod&since=42');
  });
});
