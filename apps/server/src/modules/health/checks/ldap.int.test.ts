import { execFile, execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, requireBinary, startDaemon, type Daemon } from '../test-fixtures/daemons.js';
import { runCheck, type RunCheckOptions } from './run-check.js';

const SLAPD = '/usr/sbin/slapd';
const SLAPADD = '/usr/sbin/slapadd';
const SUFFIX = 'dc=opsdeck,dc=test';

const options: RunCheckOptions = {
  canary: { name: 'directory', namespace: 'default' },
  logger: pino({ level: 'silent' }),
  resolveConnection: (name) =>
    name === 'connection://default/directory'
      ? { url: ldapUrl, username: `uid=alice,ou=people,${SUFFIX}`, password: 'alice-secret' }
      : undefined,
  resolveValueFrom: async (reference) => (reference.secretKeyRef?.key === 'bob' ? 'bob-secret' : undefined),
  timeoutMs: 5_000,
};

let workDir = '';
let slapd: Daemon | undefined;
let ldapUrl = '';
let ldapsUrl = '';

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

beforeAll(async () => {
  await requireBinary(SLAPD, 'slapd');
  await requireBinary(SLAPADD, 'slapd');
  workDir = await mkdtemp(path.join(tmpdir(), 'opsdeck-ldap-'));
  await mkdir(path.join(workDir, 'data'));
  const config = path.join(workDir, 'slapd.conf');
  // A self-signed certificate for ldaps://, made by the system openssl.
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
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      path.join(workDir, 'key.pem'),
      '-out',
      path.join(workDir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  await writeFile(
    config,
    [
      'include /etc/ldap/schema/core.schema',
      'include /etc/ldap/schema/cosine.schema',
      'include /etc/ldap/schema/inetorgperson.schema',
      `pidfile ${path.join(workDir, 'slapd.pid')}`,
      `TLSCertificateFile ${path.join(workDir, 'cert.pem')}`,
      `TLSCertificateKeyFile ${path.join(workDir, 'key.pem')}`,
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      'database mdb',
      `suffix "${SUFFIX}"`,
      `rootdn "cn=admin,${SUFFIX}"`,
      'rootpw admin-secret',
      `directory ${path.join(workDir, 'data')}`,
      'maxsize 10485760',
      '',
    ].join('\n'),
  );
  const person = (uid: string, name: string, password: string) =>
    [
      `dn: uid=${uid},ou=people,${SUFFIX}`,
      'objectClass: inetOrgPerson',
      `uid: ${uid}`,
      `cn: ${name}`,
      `sn: ${name.split(' ')[1]}`,
      `userPassword: ${password}`,
      '',
    ].join('\n');
  await writeFile(
    path.join(workDir, 'data.ldif'),
    [
      [
        `dn: ${SUFFIX}`,
        'objectClass: dcObject',
        'objectClass: organization',
        'o: Opsdeck',
        'dc: opsdeck',
        '',
      ].join('\n'),
      [`dn: ou=people,${SUFFIX}`, 'objectClass: organizationalUnit', 'ou: people', ''].join('\n'),
      person('alice', 'Alice Smith', 'alice-secret'),
      person('bob', 'Bob Jones', 'bob-secret'),
      person('carol', 'Carol Smith', 'carol-secret'),
      // More members than a run keeps (100), for the size limit.
      ...Array.from({ length: 105 }, (_, index) =>
        person(`member-${String(index + 1).padStart(3, '0')}`, `Member ${index + 1}`, 'member-secret'),
      ),
    ].join('\n'),
  );
  await promisify(execFile)(SLAPADD, ['-f', config, '-l', path.join(workDir, 'data.ldif')]);
  const port = await freePort();
  const securePort = await freePort();
  ldapUrl = `ldap://127.0.0.1:${port}`;
  ldapsUrl = `ldaps://127.0.0.1:${securePort}`;
  // -d 0 keeps slapd in the foreground, so it is the test's child and stops with it.
  slapd = await startDaemon(
    SLAPD,
    ['-d', '0', '-f', config, '-h', `${ldapUrl}/ ${ldapsUrl}/`],
    async () => (await canConnect(port)) && canConnect(securePort),
    {
      what: 'slapd',
    },
  );
}, 60_000);

afterAll(async () => {
  await slapd?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('ldap check against slapd', () => {
  it('binds with auth credentials and finds the searched users', async () => {
    const run = await runCheck(
      'ldap',
      {
        name: 'people',
        host: ldapUrl,
        auth: { username: { value: `cn=admin,${SUFFIX}` }, password: { value: 'admin-secret' } },
        bindDN: `ou=people,${SUFFIX}`,
        userSearch: '(&(objectClass=inetOrgPerson)(sn=Smith))',
        test: { expr: 'count == 2' },
        display: { expr: "results.entries.map(e, e.attributes.uid[0]).join(',')" },
      },
      options,
    );
    expect(run.result, run.result.error).toMatchObject({ pass: true, message: 'alice,carol' });
    expect(run.endpoint).toBe(ldapUrl);
    const detail = run.result.detail as {
      entries: Array<{ dn: string; attributes: Record<string, unknown> }>;
    };
    expect(detail.entries[0].dn).toBe(`uid=alice,ou=people,${SUFFIX}`);
    expect(detail.entries[0].attributes.userPassword).toBeUndefined();
  });

  it('binds as a user through a named connection or a secret, with substring and or filters', async () => {
    const viaConnection = await runCheck(
      'ldap',
      {
        name: 'as-alice',
        connection: 'connection://default/directory',
        bindDN: SUFFIX,
        userSearch: '(|(uid=bo*)(cn=*rol Smi*))',
        test: { expr: 'count == 2' },
      },
      options,
    );
    expect(viaConnection.result, viaConnection.result.error).toMatchObject({ pass: true });
    const viaSecret = await runCheck(
      'ldap',
      {
        name: 'as-bob',
        url: ldapUrl,
        username: `uid=bob,ou=people,${SUFFIX}`,
        password: { valueFrom: { secretKeyRef: { name: 'ldap', key: 'bob' } } },
        bindDN: SUFFIX,
        userSearch: '(!(objectClass=inetOrgPerson))',
        test: { expr: 'count == 2' },
      },
      options,
    );
    expect(viaSecret.result, viaSecret.result.error).toMatchObject({ pass: true });
  });

  it('fails on bad credentials', async () => {
    const run = await runCheck(
      'ldap',
      {
        name: 'wrong-password',
        host: ldapUrl,
        auth: { username: { value: `uid=alice,ou=people,${SUFFIX}` }, password: { value: 'nope' } },
        bindDN: SUFFIX,
      },
      options,
    );
    expect(run.result.pass).toBe(false);
    expect(run.result.error).toBe(
      `failed to bind using uid=alice,ou=people,${SUFFIX}: invalidCredentials (49)`,
    );
  });

  it('fails when the search finds nothing or the base does not exist', async () => {
    const none = await runCheck(
      'ldap',
      { name: 'nobody', host: ldapUrl, bindDN: SUFFIX, userSearch: '(uid=mallory)' },
      options,
    );
    expect(none.result).toMatchObject({ pass: false, error: 'no results returned' });
    const missing = await runCheck(
      'ldap',
      { name: 'no-base', host: ldapUrl, bindDN: `ou=robots,${SUFFIX}`, userSearch: '(uid=*)' },
      options,
    );
    expect(missing.result.pass).toBe(false);
    expect(missing.result.error).toMatch(
      /^failed to search ou=robots,dc=opsdeck,dc=test: noSuchObject \(32\)/,
    );
  });

  it('fails when nothing listens and refuses bad specs as invalid', async () => {
    const closed = await runCheck(
      'ldap',
      { name: 'closed', host: `ldap://127.0.0.1:${await freePort()}`, bindDN: SUFFIX },
      options,
    );
    expect(closed.result.pass).toBe(false);
    expect(closed.result.error).toMatch(/^failed to connect: .*ECONNREFUSED/);
    const filter = await runCheck(
      'ldap',
      { name: 'f', host: ldapUrl, bindDN: SUFFIX, userSearch: '(uid=a' },
      options,
    );
    expect(filter.result.invalid).toBe(true);
    expect(filter.result.error).toMatch(/^invalid ldap check: userSearch: /);
    const scheme = await runCheck('ldap', { name: 's', host: 'http://127.0.0.1', bindDN: SUFFIX }, options);
    expect(scheme.result).toMatchObject({ invalid: true });
    const noBase = await runCheck('ldap', { name: 'b', host: ldapUrl }, options);
    expect(noBase.result.error).toMatch(/^invalid ldap check: bindDN: /);
  });

  it('speaks ldaps://, refusing an untrusted certificate unless skipTLSVerify', async () => {
    const spec = {
      name: 'tls',
      host: ldapsUrl,
      auth: { username: { value: `cn=admin,${SUFFIX}` }, password: { value: 'admin-secret' } },
      bindDN: SUFFIX,
      userSearch: '(uid=alice)',
    };
    const untrusted = await runCheck('ldap', spec, options);
    expect(untrusted.result.pass).toBe(false);
    expect(untrusted.result.error).toMatch(/^failed to connect: self[- ]signed certificate/);
    const skipped = await runCheck('ldap', { ...spec, skipTLSVerify: true }, options);
    expect(skipped.result, skipped.result.error).toMatchObject({ pass: true });
  });

  it('times out on a server that accepts connections and never answers', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as net.AddressInfo;
      const started = Date.now();
      const run = await runCheck(
        'ldap',
        { name: 'hung', host: `ldap://127.0.0.1:${port}`, bindDN: SUFFIX },
        { ...options, timeoutMs: 300 },
      );
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(run.result.pass).toBe(false);
      expect(run.result.error).toMatch(/timed out after 300ms/);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('sends escaped filter values as their bytes', async () => {
    const run = await runCheck(
      'ldap',
      {
        name: 'escaped',
        host: ldapUrl,
        bindDN: SUFFIX,
        userSearch: '(cn=Alice\\20Smi*)',
        test: { expr: 'count == 1' },
      },
      options,
    );
    expect(run.result, run.result.error).toMatchObject({ pass: true });
    const bad = await runCheck(
      'ldap',
      { name: 'bad-escape', host: ldapUrl, bindDN: SUFFIX, userSearch: '(uid=a\\zz)' },
      options,
    );
    expect(bad.result.invalid).toBe(true);
    expect(bad.result.error).toMatch(/^invalid ldap check: userSearch: /);
  });

  it('keeps at most 100 entries and says when the directory held more', async () => {
    const many = await runCheck(
      'ldap',
      { name: 'members', host: ldapUrl, bindDN: SUFFIX, userSearch: '(sn=1*)' },
      options,
    );
    expect(many.result, many.result.error).toMatchObject({ pass: true });
    // member-001 .. member-105 have sn "1", "10".."19", "100".."105": 1 + 10 + 6 = 17 entries.
    expect(many.result.detail).toMatchObject({ count: 17, sizeLimitExceeded: false });
    const all = await runCheck(
      'ldap',
      {
        name: 'all-members',
        host: ldapUrl,
        bindDN: `ou=people,${SUFFIX}`,
        userSearch: '(uid=member-*)',
        test: { expr: 'count == 100 && results.sizeLimitExceeded' },
      },
      options,
    );
    expect(all.result, all.result.error).toMatchObject({ pass: true });
    const detail = all.result.detail as { entries: Array<{ attributes: Record<string, unknown> }> };
    expect(detail.entries).toHaveLength(100);
    // One value or many, an attribute is a list of strings.
    expect(detail.entries[0].attributes.sn).toEqual([expect.any(String)]);
    expect(detail.entries[0].attributes.objectClass).toEqual(['inetOrgPerson']);
  });
});
