import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import ssh2, { type Attributes, type Connection, type FileEntry, type SFTPWrapper } from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseResourceDocuments } from '../../resources/documents.js';
import { validateResource } from '../../resources/validation.js';
import { runCheck, type RunCheckOptions } from './run-check.js';

const { Server, utils } = ssh2;
const STATUS = utils.sftp.STATUS_CODE;
const USER = 'backup';
const PASSWORD = 'backup-secret';

const options: RunCheckOptions = {
  canary: { name: 'sftp', namespace: 'default' },
  logger: pino({ level: 'silent' }),
  resolveConnection: (name) =>
    name === 'connection://default/backup-host'
      ? { url: `sftp://127.0.0.1:${sftpPort}`, username: USER, password: PASSWORD }
      : name === 'connection://default/by-property'
        ? { url: '127.0.0.1', username: USER, password: PASSWORD, properties: { port: String(sftpPort) } }
        : undefined,
  resolveValueFrom: async (reference) =>
    reference.secretKeyRef?.name === 'sftp' && reference.secretKeyRef.key === 'password'
      ? PASSWORD
      : undefined,
  timeoutMs: 10_000,
};

let root = '';
let sftpPort = 0;
let hungPort = 0;
let sftpServer: InstanceType<typeof Server>;
let hungServer: net.Server;
/** Sockets the hung server accepted and whether the peer closed them. */
const hungSockets: Array<{ closed: Promise<void> }> = [];

/** The SFTP attributes of a local file (times in seconds, as the protocol carries them). */
function attributesOf(stats: Stats): Attributes {
  return {
    mode: stats.mode,
    uid: stats.uid,
    gid: stats.gid,
    size: stats.size,
    atime: Math.floor(stats.atimeMs / 1_000),
    mtime: Math.floor(stats.mtimeMs / 1_000),
  };
}

/** A remote path ('/backups') as a path inside the served directory; undefined when it escapes it. */
function localPath(remote: string): string | undefined {
  const resolved = path.join(root, path.posix.normalize(`/${remote}`));
  return resolved === root || resolved.startsWith(`${root}${path.sep}`) ? resolved : undefined;
}

/** The handful of SFTP requests a folder listing makes, served from the temp directory. */
function serveSftp(sftp: SFTPWrapper): void {
  const handles = new Map<string, { directory: string; pending?: FileEntry[] }>();
  const notFound = (reqId: number) => sftp.status(reqId, STATUS.NO_SUCH_FILE, 'No such file');
  const statRequest = (follow: boolean) => async (reqId: number, remote: string) => {
    const target = localPath(remote);
    if (!target) return notFound(reqId);
    try {
      sftp.attrs(reqId, attributesOf(follow ? await stat(target) : await lstat(target)));
    } catch {
      notFound(reqId);
    }
  };
  sftp.on('STAT', statRequest(true));
  sftp.on('LSTAT', statRequest(false));
  sftp.on('REALPATH', (reqId, remote) => {
    const normalized = path.posix.normalize(`/${remote}`);
    sftp.name(reqId, [{ filename: normalized, longname: normalized, attrs: {} as Attributes }]);
  });
  sftp.on('OPENDIR', async (reqId, remote) => {
    const target = localPath(remote);
    if (!target) return notFound(reqId);
    try {
      if (!(await stat(target)).isDirectory()) return sftp.status(reqId, STATUS.FAILURE, 'Not a directory');
    } catch {
      return notFound(reqId);
    }
    const handle = randomBytes(4);
    handles.set(handle.toString('hex'), { directory: target });
    sftp.handle(reqId, handle);
  });
  sftp.on('READDIR', async (reqId, handle) => {
    const open = handles.get(handle.toString('hex'));
    if (!open) return sftp.status(reqId, STATUS.FAILURE, 'Bad handle');
    if (!open.pending) {
      open.pending = [];
      for (const name of ['.', '..', ...(await readdir(open.directory))]) {
        const stats = await lstat(path.join(open.directory, name));
        open.pending.push({ filename: name, longname: name, attrs: attributesOf(stats) });
      }
    }
    // Two names per reply, so the client has to read the folder batch by batch.
    if (open.pending.length === 0) return sftp.status(reqId, STATUS.EOF);
    sftp.name(reqId, open.pending.splice(0, 2));
  });
  sftp.on('CLOSE', (reqId, handle) => {
    const known = handles.delete(handle.toString('hex'));
    sftp.status(reqId, known ? STATUS.OK : STATUS.FAILURE);
  });
}

function onClient(client: Connection): void {
  client.on('authentication', (ctx) => {
    if (ctx.method === 'password' && ctx.username === USER && ctx.password === PASSWORD) ctx.accept();
    else ctx.reject(['password']);
  });
  client.on('ready', () => {
    client.on('session', (accept) => {
      accept().on('sftp', (acceptSftp) => serveSftp(acceptSftp()));
    });
  });
  client.on('error', () => undefined);
}

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'opsdeck-sftp-'));
  const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
  await mkdir(path.join(root, 'backups'));
  const files: Array<[string, number, number]> = [
    ['backups/db-1.tar', 2048, 30],
    ['backups/db-2.tar', 4096, 2],
    ['backups/notes.txt', 5, 1],
    ['backups/nested/db-0.tar', 100, 50],
  ];
  for (const [name, size, age] of files) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), 'x'.repeat(size));
    await utimes(path.join(root, name), hoursAgo(age), hoursAgo(age));
  }
  await mkdir(path.join(root, 'empty'));

  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  sftpServer = new Server({ hostKeys: [privateKey] }, onClient);
  sftpPort = await listen(sftpServer);

  // Accepts connections and never says a word: not even the SSH banner.
  hungServer = net.createServer((socket) => {
    // Reads (and ignores) what the client sends, so the client's hang-up is seen as a close.
    socket.resume();
    hungSockets.push({ closed: new Promise((resolve) => socket.on('close', () => resolve())) });
    socket.on('error', () => undefined);
  });
  hungPort = await listen(hungServer);
});

afterAll(async () => {
  await new Promise((resolve) => sftpServer.close(resolve));
  await new Promise((resolve) => hungServer.close(resolve));
  await rm(root, { recursive: true, force: true });
});

const connection = () => ({
  host: '127.0.0.1',
  port: sftpPort,
  username: USER,
  password: { value: PASSWORD },
});

describe('folder check over SFTP', () => {
  it('lists the remote folder and exposes it to expressions', async () => {
    const run = await runCheck(
      'folder',
      {
        name: 'backups',
        path: '/backups',
        sftpConnection: connection(),
        minCount: 3,
        maxCount: 3,
        test: { expr: "results.files.exists(f, f.name == 'notes.txt' && f.path == '/backups/notes.txt')" },
      },
      options,
    );
    expect(run.result, run.result.error).toMatchObject({ pass: true, error: '' });
    expect(run.endpoint).toBe(`sftp://127.0.0.1:${sftpPort}/backups`);
    expect(run.result.data.results).toMatchObject({
      count: 3,
      newest: { name: 'notes.txt', size: 5 },
      oldest: { name: 'db-1.tar', size: 2048 },
      totalFileSize: 2048 + 4096 + 5,
      exists: true,
    });
    const recursive = await runCheck(
      'folder',
      {
        name: 'deep',
        path: '/backups',
        recursive: true,
        sftpConnection: connection(),
        minCount: 4,
        maxCount: 4,
      },
      options,
    );
    expect(recursive.result, recursive.result.error).toMatchObject({ pass: true });
  });

  it('fails on too few or too many files', async () => {
    const few = await runCheck(
      'folder',
      { name: 'few', path: '/backups', sftpConnection: connection(), minCount: 5 },
      options,
    );
    expect(few.result).toMatchObject({ pass: false, error: 'too few files 3 < 5' });
    const many = await runCheck(
      'folder',
      { name: 'many', path: '/backups', sftpConnection: connection(), maxCount: 1 },
      options,
    );
    expect(many.result).toMatchObject({ pass: false, error: 'too many files 3 > 1' });
    const empty = await runCheck(
      'folder',
      { name: 'empty', path: '/empty', sftpConnection: connection(), markFailOnEmpty: true },
      options,
    );
    expect(empty.result).toMatchObject({ pass: false, error: 'check returned an empty result' });
  });

  it('applies the filter and the age and size rules as the local check does', async () => {
    const recent = await runCheck(
      'folder',
      {
        name: 'recent',
        path: '/backups',
        sftpConnection: connection(),
        filter: { regex: '\\.tar$', maxAge: '12h' },
        minCount: 1,
        maxCount: 1,
      },
      options,
    );
    expect(recent.result, recent.result.error).toMatchObject({ pass: true });
    const large = await runCheck(
      'folder',
      {
        name: 'large',
        path: '/backups',
        sftpConnection: connection(),
        filter: { minSize: '3KB' },
        maxCount: 1,
        minCount: 1,
      },
      options,
    );
    expect(large.result, large.result.error).toMatchObject({ pass: true });
    const old = await runCheck(
      'folder',
      {
        name: 'old',
        path: '/backups',
        sftpConnection: connection(),
        filter: { regex: '\\.tar$' },
        maxAge: '1d',
      },
      options,
    );
    expect(old.result).toMatchObject({ pass: false, error: 'db-1.tar is too old: 1d6h > 1d' });
    const fresh = await runCheck(
      'folder',
      { name: 'fresh', path: '/backups', sftpConnection: connection(), minAge: '2h' },
      options,
    );
    expect(fresh.result.pass).toBe(false);
    expect(fresh.result.error).toMatch(/^notes\.txt is too new: /);
    const small = await runCheck(
      'folder',
      { name: 'small', path: '/backups', sftpConnection: connection(), minSize: '1KB' },
      options,
    );
    expect(small.result).toMatchObject({ pass: false, error: 'notes.txt is too small: 5B < 1KB' });
    const big = await runCheck(
      'folder',
      { name: 'big', path: '/backups', sftpConnection: connection(), maxSize: '3KB' },
      options,
    );
    expect(big.result).toMatchObject({ pass: false, error: 'db-2.tar is too large: 4.0KiB > 3KB' });
    const ok = await runCheck(
      'folder',
      {
        name: 'ok',
        path: '/backups',
        sftpConnection: connection(),
        maxAge: '2d',
        minAge: '30m',
        maxSize: '1MB',
      },
      options,
    );
    expect(ok.result, ok.result.error).toMatchObject({ pass: true });
  });

  it('reads credentials from secrets, named connections and sftp:// paths', async () => {
    const fromSecret = await runCheck(
      'folder',
      {
        name: 'secret',
        path: '/backups',
        sftpConnection: {
          host: '127.0.0.1',
          port: sftpPort,
          auth: {
            username: { value: USER },
            password: { valueFrom: { secretKeyRef: { name: 'sftp', key: 'password' } } },
          },
        },
        minCount: 3,
      },
      options,
    );
    expect(fromSecret.result, fromSecret.result.error).toMatchObject({ pass: true });
    for (const name of ['connection://default/backup-host', 'connection://default/by-property']) {
      const named = await runCheck(
        'folder',
        { name: 'named', path: '/backups', sftpConnection: { connection: name }, minCount: 3 },
        options,
      );
      expect(named.result, named.result.error).toMatchObject({ pass: true });
    }
    const url = await runCheck(
      'folder',
      {
        name: 'url',
        path: `sftp://127.0.0.1:${sftpPort}/backups/nested`,
        sftpConnection: { username: USER, password: PASSWORD },
        minCount: 1,
        maxCount: 1,
      },
      options,
    );
    expect(url.result, url.result.error).toMatchObject({ pass: true });
    expect(url.endpoint).toBe(`sftp://127.0.0.1:${sftpPort}/backups/nested`);
  });

  it('fails clearly on a bad password, a missing folder, a refused port or a server without statvfs', async () => {
    const badPassword = await runCheck(
      'folder',
      { name: 'bad', path: '/backups', sftpConnection: { ...connection(), password: 'wrong' } },
      options,
    );
    expect(badPassword.result).toMatchObject({
      pass: false,
      error: `sftp: authentication failed for backup on 127.0.0.1:${sftpPort}`,
    });
    expect(JSON.stringify(badPassword.result)).not.toContain('wrong');
    const missing = await runCheck(
      'folder',
      { name: 'missing', path: '/nope', sftpConnection: connection() },
      options,
    );
    expect(missing.result).toMatchObject({ pass: false, error: 'sftp: no such directory /nope' });
    const file = await runCheck(
      'folder',
      { name: 'file', path: '/backups/notes.txt', sftpConnection: connection() },
      options,
    );
    expect(file.result).toMatchObject({ invalid: true, error: '/backups/notes.txt is not a folder' });

    const closed = net.createServer();
    const closedPort = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    const refused = await runCheck(
      'folder',
      { name: 'refused', path: '/backups', sftpConnection: { ...connection(), port: closedPort } },
      options,
    );
    expect(refused.result.pass).toBe(false);
    expect(refused.result.error).toMatch(
      new RegExp(`^sftp: cannot connect to 127\\.0\\.0\\.1:${closedPort}: .*ECONNREFUSED`),
    );

    const space = await runCheck(
      'folder',
      { name: 'space', path: '/backups', sftpConnection: connection(), availableSize: '1KB' },
      options,
    );
    expect(space.result.pass).toBe(false);
    expect(space.result.error).toMatch(
      /^sftp: 127\.0\.0\.1:\d+ does not report free space \(statvfs@openssh\.com\)/,
    );
  });

  it('times out on a server that never answers and closes the connection', async () => {
    const before = hungSockets.length;
    const started = Date.now();
    const run = await runCheck(
      'folder',
      {
        name: 'hung',
        path: '/backups',
        sftpConnection: { host: '127.0.0.1', port: hungPort, username: USER, password: PASSWORD },
      },
      { ...options, timeoutMs: 400 },
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(run.result.pass).toBe(false);
    expect(run.result.error).toMatch(/timed out after 400ms|no answer from 127\.0\.0\.1:\d+ within 400ms/);
    expect(hungSockets.length).toBe(before + 1);
    await hungSockets[before].closed;
  });

  it('reports specs that cannot run as invalid', async () => {
    const noHost = await runCheck(
      'folder',
      { name: 'nohost', path: '/backups', sftpConnection: { username: USER } },
      options,
    );
    expect(noHost.result).toMatchObject({ invalid: true });
    expect(noHost.result.error).toBe(
      'invalid folder check: sftpConnection.host: a host or connection is required',
    );
    const noUser = await runCheck(
      'folder',
      { name: 'nouser', path: '/backups', sftpConnection: { host: '127.0.0.1', port: sftpPort } },
      options,
    );
    expect(noUser.result).toMatchObject({ invalid: true, error: 'sftpConnection: a username is required' });
    const unknownConnection = await runCheck(
      'folder',
      { name: 'unknown', path: '/backups', sftpConnection: { connection: 'connection://default/none' } },
      options,
    );
    expect(unknownConnection.result).toMatchObject({
      invalid: true,
      error: 'connection "connection://default/none" was not found',
    });
    const bareUrl = await runCheck('folder', { name: 'bare', path: 'sftp://127.0.0.1/backups' }, options);
    expect(bareUrl.result).toMatchObject({
      invalid: true,
      error: 'an sftp:// path needs an sftpConnection with the credentials',
    });
  });
});

describe('canary validation of SFTP folder checks', () => {
  const header = `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: backups
spec:
  schedule: "@every 5m"
`;
  const validate = (yaml: string) => validateResource(parseResourceDocuments(yaml, 'backups.yaml')[0]);

  it('accepts the ecosystem forms of sftpConnection', () => {
    const result = validate(`${header}  folder:
    - name: nightly
      path: /backups
      sftpConnection:
        host: sftp.example.com
        port: 2222
        username:
          value: backup
        password:
          valueFrom:
            secretKeyRef: { name: sftp, key: password }
      maxAge: 1d
      minCount: 1
    - name: older-form
      path: /backups
      sftpConnection:
        host: 192.168.1.5
        auth:
          username: { value: backup }
          password: { value: secret }
    - name: named
      path: /backups
      sftpConnection:
        connection: connection://default/backup-host
`);
    expect(result.ok, JSON.stringify(result)).toBe(true);
  });

  it('refuses bad sftpConnection fields with their paths', () => {
    const result = validate(`${header}  folder:
    - name: nowhere
      path: /backups
      sftpConnection:
        username: backup
    - name: bad-port
      path: /backups
      sftpConnection:
        host: sftp.example.com
        port: 70000
`);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map(({ path: field, message }) => ({ field, message }))).toEqual([
      { field: 'spec.folder[0].sftpConnection.host', message: 'a host or connection is required' },
      { field: 'spec.folder[1].sftpConnection.port', message: 'must be between 1 and 65535' },
    ]);
  });
});

describe('the ecosystem sftp check type', () => {
  it('checks a remote folder with the connection written inline, port from the spec', async () => {
    const run = await runCheck(
      'sftp',
      {
        name: 'inline',
        host: '127.0.0.1',
        port: sftpPort,
        username: USER,
        password: { valueFrom: { secretKeyRef: { name: 'sftp', key: 'password' } } },
        path: '/backups',
        minCount: 3,
        maxCount: 3,
        filter: { regex: '\\.(tar|txt)$' },
        test: { expr: "results.files.exists(f, f.name == 'notes.txt')" },
      },
      options,
    );
    expect(run.type).toBe('sftp');
    expect(run.result, run.result.error).toMatchObject({ pass: true, error: '' });
    expect(run.endpoint).toBe(`sftp://127.0.0.1:${sftpPort}/backups`);
    expect(run.result.data.results).toMatchObject({ count: 3, newest: { name: 'notes.txt' } });
  });

  it('fails by the folder rules, and on a bad password, as the folder check does', async () => {
    const old = await runCheck(
      'sftp',
      {
        name: 'old',
        host: '127.0.0.1',
        port: sftpPort,
        auth: { username: { value: USER }, password: { value: PASSWORD } },
        path: '/backups',
        filter: { regex: '\\.tar$' },
        maxAge: '1d',
      },
      options,
    );
    expect(old.result).toMatchObject({ pass: false, error: 'db-1.tar is too old: 1d6h > 1d' });
    const denied = await runCheck(
      'sftp',
      {
        name: 'denied',
        host: '127.0.0.1',
        port: sftpPort,
        username: USER,
        password: 'wrong',
        path: '/backups',
      },
      options,
    );
    expect(denied.result.pass).toBe(false);
    expect(denied.result.error).not.toBe('');
    expect(denied.result.error).not.toContain('wrong');
  });

  it('reads a named connection, an sftpConnection block or an sftp:// path', async () => {
    const named = await runCheck(
      'sftp',
      { name: 'named', connection: 'connection://default/backup-host', path: '/backups', minCount: 3 },
      options,
    );
    expect(named.result, named.result.error).toMatchObject({ pass: true });
    const block = await runCheck(
      'sftp',
      { name: 'block', path: '/backups', sftpConnection: connection(), minCount: 3 },
      options,
    );
    expect(block.result, block.result.error).toMatchObject({ pass: true });
    const url = await runCheck(
      'sftp',
      {
        name: 'url',
        path: `sftp://127.0.0.1:${sftpPort}/backups/nested`,
        username: USER,
        password: PASSWORD,
        minCount: 1,
        maxCount: 1,
      },
      options,
    );
    expect(url.result, url.result.error).toMatchObject({ pass: true });
  });

  it('is validated in canaries with field paths', () => {
    const header = `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: sftp-backups}
spec:
`;
    const ok = validateResource(
      parseResourceDocuments(
        `${header}  sftp:
    - name: nightly
      host: sftp.example.com
      username: backup
      password: {valueFrom: {secretKeyRef: {name: sftp, key: password}}}
      path: /backups
      maxAge: 1d
`,
        'sftp.yaml',
      )[0],
    );
    expect(ok.ok, JSON.stringify(ok)).toBe(true);
    const bad = validateResource(
      parseResourceDocuments(
        `${header}  sftp:
    - name: nowhere
      path: /backups
    - name: bad-port
      host: sftp.example.com
      port: 70000
      path: /backups
    - name: no-path
      host: sftp.example.com
`,
        'sftp.yaml',
      )[0],
    );
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.issues.map(({ path: field }) => field).sort()).toEqual([
      'spec.sftp[0].host',
      'spec.sftp[1].port',
      'spec.sftp[2].path',
    ]);
  });
});
