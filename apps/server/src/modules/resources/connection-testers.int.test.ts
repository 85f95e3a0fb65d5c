import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectionSchema, connectionTestResultSchema, type ConnectionInput } from '@opsdeck/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { registerErrorHandling } from '../../platform/http/errors.js';
import { createSecretBox } from '../../platform/secrets.js';
import { authPlugin } from '../auth/index.js';
import {
  bearer,
  createTestPerson,
  createTestToken,
  testAuthConfig,
} from '../auth/test-fixtures/auth-test-app.js';
import { connectionRoutes } from './connection-routes.js';

// Test connection against real peers: the machine's PostgreSQL, MariaDB and Redis, and servers
// this file starts (HTTP, HTTPS with a self-signed certificate, slapd, SMTP, SSH/SFTP, a git
// repository, a folder). Each passes, and fails with the reason (wrong password, closed port).

let db: TestDatabase;
let app: FastifyInstance;
let token = '';
let work = '';
let closedPort = 0;
const stops: (() => Promise<void> | void)[] = [];

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stops.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
}

const call = (method: 'POST' | 'GET', url: string, payload?: unknown) =>
  app.inject({
    method,
    url,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

/** Saves the connection, tests it by id, and returns the result and the stored health. */
async function testSaved(input: ConnectionInput) {
  const created = await call('POST', '/api/connections', input);
  expect(created.statusCode, created.body).toBe(201);
  const id = connectionSchema.parse(created.json()).id;
  const tested = await call('POST', `/api/connection/test/${id}`);
  expect(tested.statusCode, tested.body).toBe(200);
  const result = connectionTestResultSchema.parse(tested.json());
  const stored = connectionSchema.parse((await call('GET', `/api/connections/${id}`)).json());
  expect(stored.last_test_status).toBe(result.status);
  expect(stored.last_test_message).toBe(result.message);
  expect(stored.last_test_at).not.toBeNull();
  return result;
}

/** Tests a connection from the form, unsaved. */
async function testUnsaved(input: ConnectionInput) {
  const tested = await call('POST', '/api/connection/test', input);
  expect(tested.statusCode, tested.body).toBe(200);
  return connectionTestResultSchema.parse(tested.json());
}

let sequence = 0;
const named = (prefix: string) => `${prefix}-${++sequence}`;

beforeAll(async () => {
  db = await createTestDatabase();
  app = Fastify({ logger: false });
  registerErrorHandling(app);
  await app.register(authPlugin, { pool: db.pool, config: testAuthConfig() });
  await app.register(connectionRoutes, {
    pool: db.pool,
    secrets: createSecretBox(randomBytes(32)),
    testTimeoutMs: 5_000,
  });
  await app.ready();
  const admin = await createTestPerson(db.pool, { roles: ['admin'] });
  token = await createTestToken(db.pool, admin.id);
  work = await mkdtemp(path.join(tmpdir(), 'opsdeck-connection-tests-'));
  closedPort = await freePort();
}, 60_000);

afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
  await app?.close();
  await db?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('databases on this machine', () => {
  it('PostgreSQL: connects; an unknown role and a closed port say what failed', async () => {
    const ok = await testSaved({
      name: named('pg'),
      type: 'postgres',
      url: 'postgres://127.0.0.1:5432/postgres',
      username: 'postgres',
      password: 'any',
    });
    expect(ok).toMatchObject({
      status: 'healthy',
      message: expect.stringMatching(/^connected: PostgreSQL \d+/),
    });
    const role = await testSaved({
      name: named('pg'),
      type: 'postgres',
      url: 'postgres://127.0.0.1:5432/postgres',
      username: 'no_such_role',
      password: 'wrong-pass-123',
    });
    expect(role.status).toBe('unhealthy');
    expect(role.message).toContain('role "no_such_role" does not exist');
    const closed = await testUnsaved({
      name: 'pg-closed',
      type: 'postgres',
      url: `postgres://127.0.0.1:${closedPort}/postgres`,
      username: 'postgres',
      password: 'x',
    });
    expect(closed).toMatchObject({ status: 'unhealthy', message: expect.stringContaining('ECONNREFUSED') });
  });

  it('MySQL (MariaDB): connects; a wrong password is refused', async () => {
    const wrong = await testSaved({
      name: named('my'),
      type: 'mysql',
      url: 'root@tcp(127.0.0.1:3306)/mysql',
      username: 'root',
      password: 'wrong-password-42',
    });
    expect(wrong.status).toBe('unhealthy');
    expect(wrong.message).toContain("Access denied for user 'root'");
    expect(wrong.message).not.toContain('wrong-password-42');
    const closed = await testUnsaved({
      name: 'my',
      type: 'mysql',
      url: `mysql://127.0.0.1:${closedPort}/mysql`,
      username: 'root',
      password: 'x',
    });
    expect(closed).toMatchObject({ status: 'unhealthy', message: expect.stringContaining('ECONNREFUSED') });
  });

  it('MySQL (MariaDB): connects as root with the machine’s empty password', async () => {
    const created = await call('POST', '/api/connection/test', {
      name: 'my-root',
      type: 'mysql',
      url: 'mysql://root@127.0.0.1:3306/mysql',
    });
    expect(connectionTestResultSchema.parse(created.json())).toMatchObject({
      status: 'healthy',
      message: expect.stringContaining('MariaDB'),
    });
  });

  it('Redis: answers PING; a password it does not have and a closed port are refused', async () => {
    const ok = await testSaved({
      name: named('redis'),
      type: 'redis',
      url: 'redis://127.0.0.1:6379',
      properties: { db: '0' },
    });
    expect(ok).toMatchObject({ status: 'healthy', message: 'connected: PING answered PONG' });
    const wrong = await testUnsaved({
      name: 'redis',
      type: 'redis',
      url: '127.0.0.1:6379',
      username: 'nobody',
      password: 'wrong-password-42',
      properties: { db: '0' },
    });
    expect(wrong.status).toBe('unhealthy');
    expect(wrong.message).toMatch(/WRONGPASS|AUTH/);
    expect(wrong.message).not.toContain('wrong-password-42');
    const closed = await testUnsaved({
      name: 'redis',
      type: 'redis',
      url: `redis://127.0.0.1:${closedPort}`,
      properties: { db: '0' },
    });
    expect(closed).toMatchObject({ status: 'unhealthy', message: expect.stringContaining('ECONNREFUSED') });
  });
});

describe('servers started by this test', () => {
  it('HTTP and Prometheus: status, credentials and TLS', async () => {
    const handler: http.RequestListener = (request, response) => {
      const expected = `Basic ${Buffer.from('prom:right-password').toString('base64')}`;
      if (request.headers.authorization !== expected) {
        response.writeHead(401).end();
        return;
      }
      response.writeHead(request.url === '/missing' ? 404 : 200).end('ok');
    };
    const port = await listen(http.createServer(handler));
    const base = { username: 'prom', password: 'right-password' };
    expect(
      await testSaved({ name: named('prom'), type: 'prometheus', url: `http://127.0.0.1:${port}/`, ...base }),
    ).toMatchObject({
      status: 'healthy',
      message: 'connected: HTTP 200 OK',
    });
    expect(
      await testUnsaved({
        name: 'h',
        type: 'http',
        url: `http://127.0.0.1:${port}/`,
        username: 'prom',
        password: 'nope',
      }),
    ).toMatchObject({
      status: 'unhealthy',
      message: 'the server refused the credentials: HTTP 401 Unauthorized',
    });
    expect(
      await testUnsaved({ name: 'h', type: 'http', url: `http://127.0.0.1:${port}/missing`, ...base }),
    ).toMatchObject({
      status: 'unhealthy',
      message: 'the server answered HTTP 404 Not Found',
    });
    expect(
      await testUnsaved({
        name: 'h',
        type: 'elasticsearch',
        url: `http://127.0.0.1:${closedPort}/`,
        ...base,
      }),
    ).toMatchObject({ status: 'unhealthy', message: expect.stringContaining('ECONNREFUSED') });

    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-keyout',
        path.join(work, 'key.pem'),
        '-out',
        path.join(work, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    const tlsPort = await listen(
      https.createServer(
        {
          key: await readFile(path.join(work, 'key.pem')),
          cert: await readFile(path.join(work, 'cert.pem')),
        },
        handler,
      ),
    );
    const secure = { name: 'tls', type: 'http', url: `https://127.0.0.1:${tlsPort}/`, ...base };
    const refused = await testUnsaved(secure);
    expect(refused.status).toBe('unhealthy');
    expect(refused.message).toMatch(/TLS: .*self[- ]signed/i);
    expect(await testUnsaved({ ...secure, insecure_tls: true })).toMatchObject({ status: 'healthy' });
  });

  it('LDAP (slapd): binds; a wrong password is invalidCredentials', async () => {
    const slapdDir = path.join(work, 'slapd');
    await mkdir(path.join(slapdDir, 'data'), { recursive: true });
    const config = path.join(slapdDir, 'slapd.conf');
    await writeFile(
      config,
      [
        'include /etc/ldap/schema/core.schema',
        `pidfile ${path.join(slapdDir, 'slapd.pid')}`,
        'modulepath /usr/lib/ldap',
        'moduleload back_mdb',
        'database mdb',
        'suffix "dc=opsdeck,dc=test"',
        'rootdn "cn=admin,dc=opsdeck,dc=test"',
        'rootpw admin-secret',
        `directory ${path.join(slapdDir, 'data')}`,
        'maxsize 10485760',
        '',
      ].join('\n'),
    );
    const port = await freePort();
    const slapd: ChildProcess = spawn(
      '/usr/sbin/slapd',
      ['-d', '0', '-f', config, '-h', `ldap://127.0.0.1:${port}/`],
      {
        stdio: 'ignore',
      },
    );
    stops.push(() => {
      slapd.kill('SIGTERM');
    });
    for (let tries = 0; !(await canConnect(port)); tries += 1) {
      if (tries > 100) throw new Error('slapd did not start');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const ldap = { type: 'ldap', url: `ldap://127.0.0.1:${port}`, username: 'cn=admin,dc=opsdeck,dc=test' };
    expect(await testSaved({ name: named('ldap'), ...ldap, password: 'admin-secret' })).toMatchObject({
      status: 'healthy',
      message: 'bound as cn=admin,dc=opsdeck,dc=test',
    });
    const wrong = await testUnsaved({ name: 'ldap', ...ldap, password: 'wrong-secret' });
    expect(wrong.status).toBe('unhealthy');
    expect(wrong.message).toMatch(/could not bind to LDAP: .*(Invalid Credentials|invalidCredentials|49)/i);
    const closed = await testUnsaved({
      name: 'ldap',
      ...ldap,
      url: `ldap://127.0.0.1:${closedPort}`,
      password: 'x',
    });
    expect(closed).toMatchObject({ status: 'unhealthy', message: expect.stringContaining('ECONNREFUSED') });
  }, 30_000);

  it('Email (SMTP): logs in; a wrong password is refused', async () => {
    const smtp = new SMTPServer({
      authMethods: ['PLAIN', 'LOGIN'],
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === 'mailer' && auth.password === 'mail-secret') callback(null, { user: 'mailer' });
        else callback(new Error('Invalid username or password'));
      },
    });
    const port = await listen(smtp.server as unknown as net.Server);
    const email = (password: string, port_: number) => ({
      name: named('mail'),
      type: 'email',
      username: 'mailer',
      password,
      properties: {
        host: '127.0.0.1',
        port: String(port_),
        fromAddress: 'ops@example.com',
        fromName: 'Ops',
        encryption: 'None',
        auth: 'Plain',
      },
    });
    expect(await testSaved(email('mail-secret', port))).toMatchObject({
      status: 'healthy',
      message: `connected to 127.0.0.1:${port} as mailer`,
    });
    const wrong = await testUnsaved(email('wrong-secret', port));
    expect(wrong.status).toBe('unhealthy');
    expect(wrong.message).toContain('Invalid username or password');
    expect((await testUnsaved(email('x', closedPort))).message).toContain('ECONNREFUSED');
  });

  it('SFTP (an SSH server): logs in and lists the home folder; a wrong password is refused', async () => {
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
      publicKeyEncoding: { type: 'pkcs1', format: 'pem' },
    });
    const { Server, utils } = ssh2;
    const server = new Server({ hostKeys: [privateKey] }, (client) => {
      client.on('error', () => undefined);
      client.on('authentication', (ctx) => {
        if (ctx.method === 'password' && ctx.username === 'backup' && ctx.password === 'sftp-secret')
          ctx.accept();
        else ctx.reject(['password']);
      });
      client.on('ready', () => {
        client.on('session', (accept) => {
          accept().on('sftp', (acceptSftp) => {
            const sftp = acceptSftp();
            let listed = false;
            sftp.on('OPENDIR', (reqId) => sftp.handle(reqId, Buffer.from('dir')));
            sftp.on('READDIR', (reqId) => {
              if (listed) return sftp.status(reqId, utils.sftp.STATUS_CODE.EOF);
              listed = true;
              sftp.name(reqId, [
                {
                  filename: 'backup.tar',
                  longname: 'backup.tar',
                  attrs: { mode: 0o100644, uid: 0, gid: 0, size: 1, atime: 0, mtime: 0 },
                },
              ]);
            });
            sftp.on('CLOSE', (reqId) => sftp.status(reqId, utils.sftp.STATUS_CODE.OK));
          });
        });
      });
    });
    const port = await listen(server as unknown as net.Server);
    const sftp = (password: string, port_: number) => ({
      name: named('sftp'),
      type: 'sftp',
      username: 'backup',
      password,
      properties: { host: '127.0.0.1', port: String(port_) },
    });
    expect(await testSaved(sftp('sftp-secret', port))).toMatchObject({
      status: 'healthy',
      message: `connected to 127.0.0.1:${port} (1 entries in the home folder)`,
    });
    expect(await testUnsaved(sftp('wrong-secret', port))).toMatchObject({
      status: 'unhealthy',
      message: `could not connect to 127.0.0.1:${port}: the server refused the username or password`,
    });
    expect((await testUnsaved(sftp('x', closedPort))).message).toContain('ECONNREFUSED');
  }, 30_000);

  it('Git: finds the ref in a local repository; a missing ref and a missing repository say so', async () => {
    const repo = path.join(work, 'repo');
    await mkdir(repo);
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
        stdio: 'ignore',
      });
    git('init', '-b', 'main');
    await writeFile(path.join(repo, 'README'), 'hello');
    git('add', 'README');
    git('commit', '-m', 'first');
    git('tag', 'v1');
    expect(
      await testSaved({ name: named('git'), type: 'git', url: repo, properties: { ref: 'main' } }),
    ).toMatchObject({
      status: 'healthy',
      message: "connected: ref 'main' found",
    });
    expect(
      await testUnsaved({ name: 'git', type: 'git', url: repo, properties: { ref: 'v1' } }),
    ).toMatchObject({ status: 'healthy' });
    expect(
      await testUnsaved({ name: 'git', type: 'git', url: repo, properties: { ref: 'release' } }),
    ).toMatchObject({
      status: 'unhealthy',
      message: "connected, but ref 'release' is not a branch or tag of the repository",
    });
    const missing = await testUnsaved({
      name: 'git',
      type: 'git',
      url: path.join(work, 'nothing-here'),
      properties: {},
    });
    expect(missing.status).toBe('unhealthy');
    expect(missing.message).toMatch(
      /could not read the repository: .*(does not appear to be a git repository|not found)/,
    );
  });

  it('Folder: a readable path is healthy; a missing one and a file are not', async () => {
    expect(
      await testSaved({ name: named('folder'), type: 'folder', properties: { path: work } }),
    ).toMatchObject({
      status: 'healthy',
      message: expect.stringContaining(`${work} is readable`),
    });
    expect(
      await testUnsaved({ name: 'f', type: 'folder', properties: { path: path.join(work, 'absent') } }),
    ).toMatchObject({
      status: 'unhealthy',
      message: `${path.join(work, 'absent')} does not exist`,
    });
    await writeFile(path.join(work, 'file.txt'), 'x');
    expect(
      await testUnsaved({ name: 'f', type: 'folder', properties: { path: path.join(work, 'file.txt') } }),
    ).toMatchObject({
      status: 'unhealthy',
      message: `${path.join(work, 'file.txt')} is not a folder`,
    });
  });
});

describe('types without a peer here', () => {
  it('says plainly that Windows, SMB and cloud connections cannot be tested from here', async () => {
    const windows = await testSaved({
      name: named('win'),
      type: 'windows',
      username: 'admin',
      password: 'pw',
    });
    expect(windows).toMatchObject({
      status: 'unknown',
      message:
        'Windows connections cannot be tested from here: the settings are saved, but nothing was connected to',
    });
    expect((await testUnsaved({ name: 'smb', type: 'smb' })).message).toMatch(
      /^SMB connections cannot be tested from here/,
    );
    expect((await testUnsaved({ name: 'a', type: 'aws' })).message).toMatch(
      /^AWS connections cannot be tested from here/,
    );
  });

  it('tests a saved connection from the form with its masked values and a valueFrom that is missing', async () => {
    const created = connectionSchema.parse(
      (
        await call('POST', '/api/connections', {
          name: 'redis-saved',
          type: 'redis',
          url: 'redis://127.0.0.1:6379',
          properties: { db: '0' },
        })
      ).json(),
    );
    expect(
      await testUnsaved({
        id: created.id,
        name: 'redis-saved',
        type: 'redis',
        url: '********',
        properties: { db: '0' },
      } as ConnectionInput),
    ).toMatchObject({ status: 'healthy' });
    const missing = await testUnsaved({
      name: 'pg',
      type: 'postgres',
      url: 'postgres://127.0.0.1:5432/postgres',
      username: 'postgres',
      password: { valueFrom: { secretKeyRef: { name: 'absent', key: 'password' } } },
    });
    expect(missing).toMatchObject({
      status: 'unhealthy',
      message: 'password: secret "absent" was not found in namespace "default"',
    });
  });
});
