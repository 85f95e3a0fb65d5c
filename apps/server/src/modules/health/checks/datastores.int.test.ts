import { randomBytes } from 'node:crypto';
import net from 'node:net';
import mysql from 'mysql2/promise';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test/harness/db.js';
import { runCheck, type RunCheckOptions } from './run-check.js';
import type { ResolvedConnection } from './types.js';

const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };
const REDIS = { host: '127.0.0.1', port: 6379 };

/**
 * MariaDB and Redis are the machine's services. Outside CI a missing service skips its tests;
 * in CI (CI=true) it fails them, so a broken machine is never mistaken for a green run.
 */
function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

const inCi = process.env.CI === 'true';
const mariadbUp = await reachable(MARIADB.host, MARIADB.port);
const redisUp = await reachable(REDIS.host, REDIS.port);

function requireService(name: string, up: boolean): boolean {
  if (!up && inCi) throw new Error(`${name} is not reachable on this CI machine; its check tests cannot run`);
  return up;
}

const connections = new Map<string, ResolvedConnection>();
const options: RunCheckOptions = {
  canary: { name: 'datastores', namespace: 'default' },
  logger: pino({ level: 'silent' }),
  resolveConnection: (name) => connections.get(name),
  timeoutMs: 10_000,
};

describe('postgres check', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
    await database.pool.query(
      `CREATE TABLE check_probe (id int PRIMARY KEY, state text); INSERT INTO check_probe VALUES (1, 'up'), (2, 'down')`,
    );
    const url = new URL(database.url);
    connections.set('connection://default/pg', {
      url: `postgres://$(username):$(password)@${url.host}${url.pathname}`,
      username: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
    });
  });

  afterAll(async () => {
    await database?.close();
  });

  it('runs the query and exposes results.rows and results.count', async () => {
    const run = await runCheck(
      'postgres',
      {
        name: 'probe',
        url: database.url,
        query: 'SELECT id, state FROM check_probe ORDER BY id',
        results: 2,
        test: { expr: "results.count == 2 && results.rows[1].state == 'down'" },
        display: { template: '{{ range .results.rows }}{{ .id }}={{ .state }} {{ end }}' },
      },
      options,
    );
    expect(run.result, run.result.error).toMatchObject({ pass: true, message: '1=up 2=down ' });
  });

  it('defaults to SELECT 1 and reads a named connection', async () => {
    const run = await runCheck('postgres', { name: 'named', connection: 'connection://default/pg' }, options);
    expect(run.result, run.result.error).toMatchObject({ pass: true });
    expect(run.result.data.results).toEqual({ rows: [{ '?column?': 1 }], count: 1 });
  });

  it('fails on too few rows, an empty result with markFailOnEmpty, and a bad query', async () => {
    const few = await runCheck(
      'postgres',
      { name: 'few', url: database.url, query: 'SELECT * FROM check_probe', results: 3 },
      options,
    );
    expect(few.result).toMatchObject({ pass: false, error: 'Query returned 2 rows, expected 3' });
    const empty = await runCheck(
      'postgres',
      {
        name: 'empty',
        url: database.url,
        query: 'SELECT * FROM check_probe WHERE false',
        markFailOnEmpty: true,
      },
      options,
    );
    expect(empty.result).toMatchObject({ pass: false, error: 'Query returned empty result' });
    const bad = await runCheck(
      'postgres',
      { name: 'bad', url: database.url, query: 'SELECT * FROM no_such_table' },
      options,
    );
    expect(bad.result).toMatchObject({ pass: false });
    expect(bad.result.error).toMatch(/relation "no_such_table" does not exist/);
  });

  it('fails to connect with a wrong password without echoing it', async () => {
    const url = new URL(database.url);
    url.password = 'definitely-wrong-password';
    url.username = 'opsdeck_no_such_user';
    const run = await runCheck('postgres', { name: 'denied', url: url.toString() }, options);
    expect(run.result.pass).toBe(false);
    expect(run.result.error).not.toContain('definitely-wrong-password');
  });

  it('stops a query that runs past the budget', async () => {
    const started = Date.now();
    const run = await runCheck(
      'postgres',
      { name: 'slow', url: database.url, query: 'SELECT pg_sleep(30)' },
      { ...options, timeoutMs: 500 },
    );
    expect(run.result.pass).toBe(false);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('mysql check (the machine MariaDB)', () => {
  const schema = `opsdeck_checks_${randomBytes(4).toString('hex')}`;
  let admin: mysql.Connection | undefined;

  beforeAll(async () => {
    if (!requireService('MariaDB', mariadbUp)) return;
    admin = await mysql.createConnection({ ...MARIADB });
    await admin.query(`CREATE DATABASE ${schema}`);
    await admin.query(`CREATE TABLE ${schema}.services (name varchar(40), up tinyint)`);
    await admin.query(`INSERT INTO ${schema}.services VALUES ('api', 1), ('worker', 0), ('cron', 1)`);
  });

  afterAll(async () => {
    if (!admin) return;
    await admin.query(`DROP DATABASE IF EXISTS ${schema}`);
    await admin.end();
  });

  it.skipIf(!mariadbUp && !inCi)('runs the query from a mysql:// url and from the Go DSN form', async () => {
    const fromUrl = await runCheck(
      'mysql',
      {
        name: 'services',
        url: `mysql://root@127.0.0.1:3306/${schema}`,
        query: 'SELECT name, up FROM services ORDER BY name',
        results: 3,
        test: { expr: 'results.rows.filter(r, r.up == 1).size() == 2' },
      },
      options,
    );
    expect(fromUrl.result, fromUrl.result.error).toMatchObject({ pass: true });
    expect(fromUrl.result.data.results).toMatchObject({
      count: 3,
      rows: [
        { name: 'api', up: 1 },
        { name: 'cron', up: 1 },
        { name: 'worker', up: 0 },
      ],
    });
    const fromDsn = await runCheck(
      'mysql',
      { name: 'dsn', url: `root@tcp(127.0.0.1:3306)/${schema}`, query: 'SELECT 1 AS one' },
      options,
    );
    expect(fromDsn.result, fromDsn.result.error).toMatchObject({ pass: true });
  });

  it.skipIf(!mariadbUp && !inCi)('fails on too few rows, a bad query and a wrong password', async () => {
    const few = await runCheck(
      'mysql',
      {
        name: 'few',
        url: `mysql://root@127.0.0.1:3306/${schema}`,
        query: 'SELECT * FROM services WHERE up = 0',
        results: 2,
      },
      options,
    );
    expect(few.result).toMatchObject({ pass: false, error: 'Query returned 1 rows, expected 2' });
    const bad = await runCheck(
      'mysql',
      { name: 'bad', url: `mysql://root@127.0.0.1:3306/${schema}`, query: 'SELECT * FROM missing' },
      options,
    );
    expect(bad.result.pass).toBe(false);
    expect(bad.result.error).toMatch(/doesn't exist/);
    const denied = await runCheck(
      'mysql',
      {
        name: 'denied',
        url: `mysql://opsdeck_nobody:$(password)@127.0.0.1:3306/${schema}`,
        password: 'wrong-password-123',
      },
      options,
    );
    expect(denied.result.pass).toBe(false);
    expect(denied.result.error).toMatch(/Access denied/);
    expect(denied.result.error).not.toContain('wrong-password-123');
  });
});

describe('redis check (the machine Redis)', () => {
  beforeAll(() => {
    requireService('Redis', redisUp);
  });

  it.skipIf(!redisUp && !inCi)('passes with addr, url and db, and fails on a closed port', async () => {
    const addr = await runCheck(
      'redis',
      { name: 'addr', addr: `${REDIS.host}:${REDIS.port}`, db: 0 },
      options,
    );
    expect(addr.result, addr.result.error).toMatchObject({ pass: true });
    expect(addr.result.data.results).toEqual({ reply: 'PONG' });
    const url = await runCheck(
      'redis',
      { name: 'url', url: `redis://${REDIS.host}:${REDIS.port}/1` },
      options,
    );
    expect(url.result, url.result.error).toMatchObject({ pass: true });
    const closed = await runCheck('redis', { name: 'closed', addr: '127.0.0.1:1' }, options);
    expect(closed.result.pass).toBe(false);
    expect(closed.result.error).toMatch(/ECONNREFUSED/);
  });

  it.skipIf(!redisUp && !inCi)('fails when the credentials are refused', async () => {
    const run = await runCheck(
      'redis',
      { name: 'auth', addr: `${REDIS.host}:${REDIS.port}`, username: 'opsdeck-nobody', password: 'wrong' },
      options,
    );
    expect(run.result.pass).toBe(false);
    expect(run.result.error).toMatch(/WRONGPASS|AUTH|auth|password/);
  });

  it('reports a spec without an address as invalid', async () => {
    const run = await runCheck('redis', { name: 'none' }, options);
    expect(run.result).toMatchObject({ invalid: true });
  });
});
