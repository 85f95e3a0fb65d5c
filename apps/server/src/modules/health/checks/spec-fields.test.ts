import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { parseDigestChallenge, digestAuthorization } from './digest-auth.js';
import { parsePingOutput } from './icmp.js';
import { mysqlConnectionOptions } from './mysql.js';
import {
  formatAge,
  formatBytes,
  parseDuration,
  parseSize,
  resolveConnectionDetails,
  sanitizeUrl,
} from './spec-fields.js';
import { parseHostPort } from './tcp.js';
import { CheckSpecError, type CheckContext, type ResolvedConnection } from './types.js';

function contextWith(
  connections: Record<string, ResolvedConnection>,
  secrets: Record<string, string> = {},
): CheckContext {
  return {
    signal: new AbortController().signal,
    timeoutMs: 1_000,
    logger: pino({ level: 'silent' }),
    canary: { name: 'c', namespace: 'default' },
    resolveConnection: (name) => connections[name],
    resolveValueFrom: async (reference) =>
      secrets[`${reference.secretKeyRef?.name}/${reference.secretKeyRef?.key}`],
  };
}

describe('durations and sizes', () => {
  it('parses the ecosystem duration forms', () => {
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('7d')).toBe(604_800_000);
    expect(parseDuration('2w')).toBe(1_209_600_000);
    expect(parseDuration('1.5s')).toBe(1_500);
    expect(parseDuration('0')).toBe(0);
    expect(() => parseDuration('10')).toThrowError(/"10" is not a duration: a number needs a unit/);
    expect(() => parseDuration('5 minutes')).toThrowError(CheckSpecError);
  });

  it('parses sizes with base-1024 units', () => {
    expect(parseSize('100')).toBe(100);
    expect(parseSize('10KB')).toBe(10_240);
    expect(parseSize('1.5mb')).toBe(1_572_864);
    expect(parseSize('2Gi')).toBe(2 * 1024 ** 3);
    expect(parseSize(42)).toBe(42);
    expect(() => parseSize('lots')).toThrowError(/invalid size "lots"/);
  });

  it('formats ages and byte counts compactly', () => {
    expect(formatAge(850)).toBe('850ms');
    expect(formatAge(42_000)).toBe('42s');
    expect(formatAge(200_000)).toBe('3m20s');
    expect(formatAge(3 * 86_400_000 + 4 * 3_600_000)).toBe('3d4h');
    expect(formatBytes(512)).toBe('512B');
    expect(formatBytes(1_572_864)).toBe('1.5MiB');
  });
});

describe('connections', () => {
  it('fills gaps from the named connection and interpolates credentials into the url', async () => {
    const ctx = contextWith({
      'connection://default/db': {
        url: 'postgres://$(username):$(password)@db:5432/app',
        username: 'app',
        password: 'p@ss word',
      },
    });
    await expect(
      resolveConnectionDetails({ connection: 'connection://default/db' }, ctx),
    ).resolves.toMatchObject({
      url: 'postgres://app:p%40ss%20word@db:5432/app',
      username: 'app',
      password: 'p@ss word',
    });
    await expect(
      resolveConnectionDetails(
        { connection: 'connection://default/db', url: 'postgres://other/x', username: { value: 'me' } },
        ctx,
      ),
    ).resolves.toMatchObject({ url: 'postgres://other/x', username: 'me', password: 'p@ss word' });
  });

  it('reads valueFrom references through the resolver and reports a missing connection', async () => {
    const ctx = contextWith({}, { 'db-secret/password': 's3cret' });
    await expect(
      resolveConnectionDetails(
        {
          url: 'mysql://root:$(password)@h/db',
          password: { valueFrom: { secretKeyRef: { name: 'db-secret', key: 'password' } } },
        },
        ctx,
      ),
    ).resolves.toMatchObject({ url: 'mysql://root:s3cret@h/db' });
    await expect(resolveConnectionDetails({ connection: 'nope' }, ctx)).rejects.toThrowError(
      'connection "nope" was not found',
    );
  });

  it('hides credentials in endpoints', () => {
    expect(sanitizeUrl('postgres://user:secret@db:5432/app')).toBe('postgres://db:5432/app');
    expect(sanitizeUrl('host=db password=secret user=x')).toBe('host=db password=### user=x');
  });

  it('reads host:port endpoints and the Go MySQL DSN form', () => {
    expect(parseHostPort('example.com:443')).toEqual({ host: 'example.com', port: 443 });
    expect(parseHostPort('[::1]:5432')).toEqual({ host: '::1', port: 5432 });
    expect(parseHostPort('tcp://10.0.0.1:22')).toEqual({ host: '10.0.0.1', port: 22 });
    expect(() => parseHostPort('example.com')).toThrowError(/must be host:port/);
    expect(mysqlConnectionOptions('root:pw@tcp(127.0.0.1:3306)/test?charset=utf8mb4')).toEqual({
      user: 'root',
      password: 'pw',
      host: '127.0.0.1',
      port: 3306,
      database: 'test',
      charset: 'utf8mb4',
    });
    expect(mysqlConnectionOptions('mysql://root@localhost/test')).toEqual({
      uri: 'mysql://root@localhost/test',
    });
    expect(() => mysqlConnectionOptions('not a dsn')).toThrowError(CheckSpecError);
  });
});

describe('digest authentication', () => {
  it('answers the RFC 2617 worked example', () => {
    const challenge = parseDigestChallenge(
      'Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"',
    );
    expect(challenge).toEqual({
      realm: 'testrealm@host.com',
      nonce: 'dcd98b7102dd2f0e8b11d0f600bfb0c093',
      qop: 'auth,auth-int',
      opaque: '5ccc069c403ebaf9f0171e9517f40e41',
      algorithm: 'MD5',
    });
    const header = digestAuthorization(
      challenge!,
      { method: 'GET', uri: '/dir/index.html', username: 'Mufasa', password: 'Circle Of Life' },
      '0a4f113b',
    );
    expect(header).toContain('response="6629fae49393a05397450978507c4ef1"');
    expect(header).toContain('qop=auth, nc=00000001, cnonce="0a4f113b"');
  });

  it('ignores challenges that are not Digest', () => {
    expect(parseDigestChallenge('Basic realm="x"')).toBeUndefined();
    expect(parseDigestChallenge(undefined)).toBeUndefined();
  });
});

describe('ping output', () => {
  it('reads iputils output', () => {
    const output = `PING 127.0.0.1 (127.0.0.1) 56(84) bytes of data.
64 bytes from 127.0.0.1: icmp_seq=1 ttl=64 time=0.045 ms

--- 127.0.0.1 ping statistics ---
3 packets transmitted, 3 received, 0% packet loss, time 2050ms
rtt min/avg/max/mdev = 0.039/0.048/0.061/0.009 ms`;
    expect(parsePingOutput(output)).toEqual({
      transmitted: 3,
      received: 3,
      packetLoss: 0,
      minLatency: 0.039,
      avgLatency: 0.048,
      maxLatency: 0.061,
    });
  });

  it('reads BusyBox output and total loss', () => {
    expect(
      parsePingOutput(`--- 10.0.0.9 ping statistics ---
4 packets transmitted, 2 packets received, 50% packet loss
round-trip min/avg/max = 1.100/2.200/3.300 ms`),
    ).toMatchObject({ transmitted: 4, received: 2, packetLoss: 50, avgLatency: 2.2 });
    expect(parsePingOutput('2 packets transmitted, 0 received, 100% packet loss, time 1001ms')).toMatchObject(
      {
        received: 0,
        packetLoss: 100,
        avgLatency: undefined,
      },
    );
    expect(parsePingOutput('ping: unknown host')).toBeUndefined();
  });
});
