import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test/harness/db.js';
import { createPerson } from '../../../../test/harness/factories.js';
import { buildApp } from '../../../app.js';
import { runCli } from '../../../cli/index.js';
import { loadConfig } from '../../../config.js';
import { createJobsService } from '../../../platform/jobs/index.js';
import { createLogger } from '../../../platform/logger.js';
import { openSealedStrings } from '../../../platform/secret-fields.js';
import { createSecretBox, keyFromSecret } from '../../../platform/secrets.js';
import { createTokenForUser } from '../../auth/index.js';
import { runCanaryChecks } from '../canary-runner.js';
import { signRequest } from '../checks/aws-sigv4.js';
import { parseAuthenticateMessage, verifyNtlmv2Response } from '../checks/ntlm.js';
import { loadCanary } from '../canary-sync.js';

/**
 * The compatibility suite: every `*_pass.yaml` / `*_fail.yaml` Canary of this folder is applied
 * with `opsdeck apply`, run (those using `last_result` twice, so it has a previous run) against local peers, and
 * judged from `/api/canary/api/summary`: a `_pass` canary's checks all end healthy, a `_fail`
 * canary's all unhealthy.
 */
const HERE = path.dirname(fileURLToPath(import.meta.url));
const SECRET = 'compat-suite-secret-key';
const logger = pino({ level: 'silent' });
const inCi = process.env.CI === 'true';

function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Files that need a peer this machine may lack, and the peer. */
const NEEDS: Record<string, 'mariadb' | 'redis' | 'restic'> = {
  mysql_pass: 'mariadb',
  mysql_fail: 'mariadb',
  redis_pass: 'redis',
  restic_pass: 'restic',
  restic_fail: 'restic',
};
const available = {
  mariadb: await reachable(3306),
  redis: await reachable(6379),
  restic: spawnSync('restic', ['version']).status === 0,
};
for (const [peer, up] of Object.entries(available))
  if (!up && inCi) throw new Error(`${peer} is missing on this CI machine; the compatibility suite needs it`);

const files = readdirSync(HERE)
  .filter((name) => /_(pass|fail)\.yaml$/.test(name))
  .sort();
const runnable = files.filter((file) => {
  const need = NEEDS[file.replace(/\.yaml$/, '')];
  return need === undefined || available[need];
});

let db: TestDatabase;
let app: FastifyInstance;
let token = '';
let work = '';
let peer: http.Server;
const lastSeen: string[] = [];
/** The NTLM CHALLENGE each connection was sent: NTLM authenticates the connection. */
const ntlmChallenges = new WeakMap<net.Socket, Buffer>();
const NTLM_PASSWORD = 'Winter2026!';
const NTLM_TARGET_INFO = Buffer.concat([
  Buffer.from([2, 0, 8, 0]),
  Buffer.from('CORP', 'utf16le'),
  Buffer.from([1, 0, 8, 0]),
  Buffer.from('IIS1', 'utf16le'),
  Buffer.alloc(4),
]);

/** The CHALLENGE message (type 2) a Windows server sends, with a fresh server challenge. */
function ntlmChallengeMessage(serverChallenge: Buffer): string {
  const head = Buffer.alloc(48);
  head.write('NTLMSSP\0', 0, 'latin1');
  head.writeUInt32LE(2, 8);
  head.writeUInt32LE(0x00898205, 20);
  serverChallenge.copy(head, 24);
  head.writeUInt16LE(NTLM_TARGET_INFO.length, 40);
  head.writeUInt16LE(NTLM_TARGET_INFO.length, 42);
  head.writeUInt32LE(48, 44);
  return Buffer.concat([head, NTLM_TARGET_INFO]).toString('base64');
}

/** A Windows-style NTLM endpoint: NEGOTIATE gets a CHALLENGE, AUTHENTICATE is verified. */
function answerNtlm(request: http.IncomingMessage, response: http.ServerResponse): unknown {
  const header = request.headers.authorization ?? '';
  const token = /^NTLM (.+)$/.exec(header)?.[1];
  const refuse = () => response.writeHead(401, { 'www-authenticate': 'NTLM' }).end();
  if (!token) return refuse();
  const message = Buffer.from(token, 'base64');
  if (message.length >= 12 && message.readUInt32LE(8) === 1) {
    const challenge = randomBytes(8);
    ntlmChallenges.set(request.socket, challenge);
    response.writeHead(401, { 'www-authenticate': `NTLM ${ntlmChallengeMessage(challenge)}` }).end();
    return;
  }
  const challenge = ntlmChallenges.get(request.socket);
  ntlmChallenges.delete(request.socket);
  if (!challenge) return refuse();
  const answer = parseAuthenticateMessage(token);
  const ok =
    answer.domain === 'CORP' &&
    answer.user === 'ops' &&
    verifyNtlmv2Response(answer, NTLM_PASSWORD, challenge);
  return ok ? response.writeHead(200).end('welcome') : refuse();
}

/** The S3-compatible peer's one key pair, bucket and stored objects. */
const S3_KEYS: Record<string, string> = { COMPATACCESSKEY: 'compat/secret+key' };
const S3_BUCKET = 'compat-bucket';
const s3Objects = new Map<string, Buffer>();
let s3Peer: http.Server;
/** Requests the S3 peer accepted, as `METHOD path` (the s3 check lists, puts and gets). */
const s3Accepted: string[] = [];

function s3Answer(response: http.ServerResponse, status: number, code: string, message: string): void {
  response
    .writeHead(status, { 'content-type': 'application/xml' })
    .end(
      `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`,
    );
}

/**
 * The SigV4 check an S3 server makes: the signature is computed again over the headers the
 * client says it signed, with the secret of its access key, and the payload hash is verified.
 */
function s3SignatureProblem(request: http.IncomingMessage, body: Buffer): string | undefined {
  const authorization = request.headers.authorization ?? '';
  const parts =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
  if (!parts) return 'AccessDenied';
  const [, accessKey, , region, signedHeaders] = parts;
  const secretKey = S3_KEYS[accessKey];
  if (secretKey === undefined) return 'InvalidAccessKeyId';
  if (request.headers['x-amz-content-sha256'] !== createHash('sha256').update(body).digest('hex'))
    return 'XAmzContentSHA256Mismatch';
  const stamp = String(request.headers['x-amz-date'] ?? '');
  const at = new Date(
    `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}Z`,
  );
  if (Number.isNaN(at.getTime()) || Math.abs(Date.now() - at.getTime()) > 15 * 60_000)
    return 'RequestTimeTooSkewed';
  const headers: Record<string, string> = {};
  for (const name of signedHeaders.split(';')) headers[name] = String(request.headers[name] ?? '');
  const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
  signRequest(
    { method: request.method ?? 'GET', url, headers, body },
    { accessKey, secretKey, region, service: 's3' },
    at,
  );
  return headers.authorization === authorization ? undefined : 'SignatureDoesNotMatch';
}

function startS3Peer(): Promise<string> {
  s3Peer = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const problem = s3SignatureProblem(request, body);
      if (problem) return s3Answer(response, 403, problem, 'the request was refused');
      const url = new URL(request.url ?? '/', 'http://s3');
      const [, bucket = '', ...keyParts] = url.pathname.split('/').map(decodeURIComponent);
      const key = keyParts.join('/');
      if (bucket !== S3_BUCKET)
        return s3Answer(response, 404, 'NoSuchBucket', 'The specified bucket does not exist');
      s3Accepted.push(`${request.method} ${key === '' ? `/${bucket}` : `/${bucket}/${key}`}`);
      if (key === '' && request.method === 'GET') {
        const keys = [...s3Objects.keys()].slice(0, Number(url.searchParams.get('max-keys') ?? 1000));
        return response
          .writeHead(200, { 'content-type': 'application/xml' })
          .end(
            `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${bucket}</Name><KeyCount>${keys.length}</KeyCount>${keys.map((name) => `<Contents><Key>${name}</Key></Contents>`).join('')}</ListBucketResult>`,
          );
      }
      if (request.method === 'PUT') {
        s3Objects.set(key, body);
        return response.writeHead(200, { etag: `"${createHash('md5').update(body).digest('hex')}"` }).end();
      }
      if (request.method === 'GET') {
        const stored = s3Objects.get(key);
        if (!stored) return s3Answer(response, 404, 'NoSuchKey', 'The specified key does not exist.');
        return response.writeHead(200).end(stored);
      }
      return s3Answer(response, 405, 'MethodNotAllowed', 'not supported by this peer');
    });
  });
  return new Promise((resolve) => {
    s3Peer.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(s3Peer.address() as AddressInfo).port}`),
    );
  });
}

function startPeer(): Promise<string> {
  peer = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://peer');
      const json = (status: number, body: unknown) =>
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const status = /^\/status\/(\d{3})$/.exec(url.pathname);
      if (status) return response.writeHead(Number(status[1])).end(`status ${status[1]}`);
      switch (url.pathname) {
        case '/json':
          return json(200, { status: 'ok', items: [1, 2] });
        case '/slow':
          setTimeout(() => response.writeHead(200).end('late'), 300);
          return;
        case '/basic': {
          const ok =
            request.headers.authorization === `Basic ${Buffer.from('admin:s3cret').toString('base64')}`;
          return response.writeHead(ok ? 200 : 401).end();
        }
        case '/ntlm':
          return answerNtlm(request, response);
        case '/token':
          return response.writeHead(request.headers['x-token'] === 'abc123' ? 200 : 403).end();
        case '/ua':
          return response
            .writeHead(/^canary-checker\//.test(request.headers['user-agent'] ?? '') ? 200 : 403)
            .end();
        case '/last':
          lastSeen.push(url.searchParams.get('previous') ?? '');
          return response.writeHead(200).end('ok');
        case '/logs/_search': {
          const query = JSON.parse(Buffer.concat(chunks).toString() || '{}') as {
            query?: { term?: { level?: string } };
          };
          const hits = query.query?.term?.level === 'error' ? [{ _id: 'a' }, { _id: 'b' }] : [];
          return json(200, { hits: { total: { value: hits.length }, hits } });
        }
        case '/api/v1/query':
          return json(200, {
            status: 'success',
            data: {
              resultType: 'vector',
              result: [{ metric: { __name__: 'up', job: 'compat' }, value: [Date.now() / 1000, '1'] }],
            },
          });
        default:
          return response.writeHead(404).end();
      }
    });
  });
  return new Promise((resolve) => {
    peer.listen(0, '127.0.0.1', () => resolve(`127.0.0.1:${(peer.address() as AddressInfo).port}`));
  });
}

beforeAll(async () => {
  db = await createTestDatabase();
  const hostPort = await startPeer();
  const s3Endpoint = await startS3Peer();
  work = mkdtempSync(path.join(tmpdir(), 'opsdeck-compat-'));
  // The folder checks' files.
  mkdirSync(path.join(work, 'fixtures', 'logs', 'app'), { recursive: true });
  mkdirSync(path.join(work, 'fixtures', 'old'), { recursive: true });
  writeFileSync(path.join(work, 'fixtures', 'logs', 'a.log'), 'a');
  writeFileSync(path.join(work, 'fixtures', 'logs', 'app', 'b.log'), 'b');
  writeFileSync(path.join(work, 'fixtures', 'old', 'c.log'), 'c');
  const old = new Date(Date.now() - 2 * 86_400_000);
  utimesSync(path.join(work, 'fixtures', 'old', 'c.log'), old, old);
  const repository = path.join(work, 'restic-repo');
  if (available.restic) {
    const env = {
      ...process.env,
      RESTIC_PASSWORD: 'compat-pass',
      RESTIC_CACHE_DIR: path.join(work, 'cache'),
    };
    execFileSync('restic', ['--repo', repository, 'init'], { env, stdio: 'ignore' });
    execFileSync('restic', ['--repo', repository, 'backup', path.join(work, 'fixtures', 'logs')], {
      env,
      stdio: 'ignore',
    });
  }
  const pgUrl = new URL(db.url);
  const libpq = `host=${pgUrl.hostname} port=${pgUrl.port || 5432} user=${decodeURIComponent(pgUrl.username)} dbname=${pgUrl.pathname.slice(1)} sslmode=disable${pgUrl.password ? ` password=${decodeURIComponent(pgUrl.password)}` : ''}`;
  const documents = path.join(work, 'canaries');
  mkdirSync(documents);
  for (const file of runnable) {
    const text = readFileSync(path.join(HERE, file), 'utf8')
      .replaceAll('__PEER_HOSTPORT__', hostPort)
      .replaceAll('__S3__', s3Endpoint)
      .replaceAll('__PEER__', `http://${hostPort}`)
      .replaceAll('__PGKV__', libpq)
      .replaceAll('__PG__', db.url)
      .replaceAll('__DIR__', path.join(work, 'fixtures'))
      .replaceAll('__RESTIC__', repository);
    writeFileSync(path.join(documents, file), text);
  }

  // `opsdeck apply -f <dir>`, as a user runs it against the server's database.
  const saved = {
    DATABASE_URL: process.env.DATABASE_URL,
    SECRET_KEY: process.env.SECRET_KEY,
    DATA_DIR: process.env.DATA_DIR,
  };
  process.env.DATABASE_URL = db.url;
  process.env.SECRET_KEY = SECRET;
  process.env.DATA_DIR = path.join(work, 'data');
  let code: number;
  let output = '';
  const write = process.stdout.write.bind(process.stdout);
  const writeError = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((chunk: string | Uint8Array) => {
    output += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    output += String(chunk);
    return true;
  }) as typeof process.stderr.write;
  try {
    code = await runCli(['apply', '-f', documents]);
  } finally {
    process.stdout.write = write;
    process.stderr.write = writeError;
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
  expect(code, `opsdeck apply: ${output}`).toBe(0);

  const appLogger = createLogger('silent');
  ({ app } = await buildApp({
    config: loadConfig({ WEB_DIST_DIR: '/nonexistent', LOG_LEVEL: 'silent' }),
    pool: db.pool,
    logger: appLogger,
    secrets: createSecretBox(keyFromSecret(SECRET)),
    jobs: createJobsService({ pool: db.pool, logger: appLogger }),
  }));
  await app.ready();
  const admin = await createPerson(db.pool, { roles: ['admin'] });
  token = await createTokenForUser(db.pool, { email: admin.email as string, name: 'compat' });

  const box = createSecretBox(keyFromSecret(SECRET));
  const { rows } = await db.pool.query<{ id: string }>(`SELECT id FROM canaries WHERE deleted_at IS NULL`);
  const stateful = new Set(
    (
      await db.pool.query<{ id: string }>(`SELECT id FROM canaries WHERE spec::text LIKE '%last_result%'`)
    ).rows.map((row) => row.id),
  );
  for (let round = 0; round < 2; round += 1) {
    // A second round only for the canaries that template with the previous run.
    const due = round === 0 ? rows : rows.filter((row) => stateful.has(row.id));
    await Promise.all(
      due.map(async ({ id }) => {
        const canary = await loadCanary(db.pool, id);
        if (!canary) return;
        // As the server's scheduler runs them: sealed secrets (passwords, tokens) opened for the run.
        await runCanaryChecks(canary, {
          pool: db.pool,
          logger,
          checkTimeoutMs: 15_000,
          concurrency: 4,
          openSecrets: (spec) => openSealedStrings(spec as Parameters<typeof openSealedStrings>[0], box),
        });
      }),
    );
  }
}, 180_000);

afterAll(async () => {
  await app?.close();
  await new Promise((resolve) => peer?.close(resolve));
  await new Promise((resolve) => s3Peer?.close(resolve));
  await db?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

interface SummaryItem {
  id: string;
  name: string;
  canary_name: string;
  canary_id: string;
  canary_namespace: string;
  owner: string | null;
  severity: string | null;
  created_at: string;
  updated_at: string | null;
  status: 'healthy' | 'unhealthy' | null;
}

let summaryRead: Promise<SummaryItem[]> | undefined;
/** The summary after both rounds, read once through the API. */
function summary(): Promise<SummaryItem[]> {
  summaryRead ??= readSummary();
  return summaryRead;
}

async function readSummary(): Promise<SummaryItem[]> {
  const response = await app.inject({
    method: 'GET',
    url: '/api/canary/api/summary?start=1h',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ checks_summary: SummaryItem[] }>().checks_summary;
}

describe('Canary compatibility suite', () => {
  it('has at least 40 documents, each with its verdict in its name', () => {
    expect(files.length).toBeGreaterThanOrEqual(40);
  });

  for (const file of files) {
    // Outside CI a missing peer (MariaDB, Redis, restic) skips its documents, named here.
    const test = runnable.includes(file) ? it : it.skip;
    test(`${file} gives the verdict in its name`, async () => {
      const canaryName = file.replace(/\.yaml$/, '').replaceAll('_', '-');
      const expected = file.endsWith('_pass.yaml') ? 'healthy' : 'unhealthy';
      const checks = (await summary()).filter((item) => item.canary_name === canaryName);
      expect(checks.length, `checks of ${canaryName} in the summary`).toBeGreaterThan(0);
      const wrong = checks.filter((item) => item.status !== expected);
      expect(
        wrong.map((item) => `${item.name}: ${item.status}`),
        `${canaryName}: every check should be ${expected}`,
      ).toEqual([]);
    });
  }

  it("carries the ecosystem's summary fields", async () => {
    const items = await summary();
    const mixed = items.filter((item) => item.canary_name === 'mixed-types-pass');
    expect(mixed).toHaveLength(3);
    const { rows } = await db.pool.query<{ id: string }>(
      `SELECT id FROM canaries WHERE name = 'mixed-types-pass'`,
    );
    for (const item of mixed) {
      expect(item).toMatchObject({
        canary_id: rows[0].id,
        canary_namespace: 'compat',
        owner: 'platform-team',
        severity: 'high',
      });
      expect(Date.parse(item.created_at)).not.toBeNaN();
      expect(Date.parse(item.updated_at ?? '')).not.toBeNaN();
    }
  });

  it('the s3 check listed, wrote and read back its object through signed requests', () => {
    expect(s3Accepted).toEqual(
      expect.arrayContaining([
        `GET /${S3_BUCKET}`,
        `PUT /${S3_BUCKET}/canary/probe.txt`,
        `GET /${S3_BUCKET}/canary/probe.txt`,
      ]),
    );
    expect(s3Objects.get('canary/probe.txt')?.length).toBeGreaterThan(0);
  });

  it('templated fields saw the previous run as last_result', () => {
    expect(lastSeen).toEqual(['<no value>', 'true']);
  });
});
