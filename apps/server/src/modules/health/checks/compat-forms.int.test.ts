import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test/harness/db.js';
import { compileGlobPath } from './folder.js';
import { mysqlConnectionOptions } from './mysql.js';
import { postgresConnectionOptions } from './postgres.js';
import { runCheck, type RunCheckOptions } from './run-check.js';

/**
 * The ecosystem's spec forms: folder globs, MySQL URL/DSN forms, libpq key=value strings, and
 * fields templated from env and the previous result — each run against a real peer.
 */
const options: RunCheckOptions = {
  canary: { name: 'compat', namespace: 'default' },
  logger: pino({ level: 'silent' }),
  resolveConnection: () => undefined,
  timeoutMs: 10_000,
};

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
const mariadbUp = await reachable('127.0.0.1', 3306);
if (!mariadbUp && process.env.CI === 'true') throw new Error('MariaDB is not reachable on this CI machine');

describe('folder globs', () => {
  let root = '';
  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'opsdeck-glob-'));
    mkdirSync(path.join(root, 'log', 'app', 'deep'), { recursive: true });
    writeFileSync(path.join(root, 'log', 'top.log'), 'a');
    writeFileSync(path.join(root, 'log', 'app', 'one.log'), 'bb');
    writeFileSync(path.join(root, 'log', 'app', 'deep', 'two.log'), 'ccc');
    writeFileSync(path.join(root, 'log', 'app', 'notes.txt'), 'x');
    const old = new Date(Date.now() - 3 * 86_400_000);
    utimesSync(path.join(root, 'log', 'app', 'deep', 'two.log'), old, old);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('compiles * within a segment and ** across segments', () => {
    const glob = compileGlobPath('/var/log/**/*.log');
    expect(glob.root).toBe('/var/log');
    expect(glob.recursive).toBe(true);
    expect(glob.pattern.test('/var/log/a.log')).toBe(true);
    expect(glob.pattern.test('/var/log/x/y/a.log')).toBe(true);
    expect(glob.pattern.test('/var/log/x/a.txt')).toBe(false);
    expect(compileGlobPath('/etc/*')).toMatchObject({ root: '/etc', recursive: false });
  });

  it('counts the files a ** glob matches and judges their age', async () => {
    const all = await runCheck(
      'folder',
      {
        name: 'logs',
        path: `${root}/log/**/*.log`,
        minCount: 3,
        maxCount: 3,
        test: { expr: 'results.count == 3' },
      },
      options,
    );
    expect(all.result.error).toBe('');
    expect(all.result.pass).toBe(true);
    const shallow = await runCheck(
      'folder',
      { name: 'top', path: `${root}/log/*.log`, maxCount: 1, minCount: 1 },
      options,
    );
    expect(shallow.result.pass).toBe(true);
    const fresh = await runCheck(
      'folder',
      { name: 'age', path: `${root}/log/**/*.log`, maxAge: '1d' },
      options,
    );
    expect(fresh.result.pass).toBe(false);
    expect(fresh.result.error).toMatch(/too old/);
  });
});

describe('mysql URL forms', () => {
  it('reads mysql://user:pass@tcp(host:port)/db and the Go DSN alike', () => {
    const expected = { user: 'app', password: 'p@ss', host: 'db.local', port: 3307, database: 'orders' };
    expect(mysqlConnectionOptions('mysql://app:p%40ss@tcp(db.local:3307)/orders')).toMatchObject(expected);
    expect(mysqlConnectionOptions('app:p%40ss@tcp(db.local:3307)/orders?charset=utf8')).toMatchObject(
      expected,
    );
    expect(mysqlConnectionOptions('mysql://app:pw@db.local:3307/orders')).toEqual({
      uri: 'mysql://app:pw@db.local:3307/orders',
    });
  });

  it.skipIf(!mariadbUp)('runs against MariaDB through each form', async () => {
    for (const url of [
      'mysql://root:@tcp(127.0.0.1:3306)/mysql',
      'root@tcp(127.0.0.1:3306)/mysql',
      'mysql://root@127.0.0.1:3306/mysql',
    ]) {
      const run = await runCheck(
        'mysql',
        { name: 'm', url, query: 'SELECT 1 AS one', test: { expr: 'results.rows[0].one == 1' } },
        options,
      );
      expect(run.result.error, url).toBe('');
      expect(run.result.pass, url).toBe(true);
      expect(run.endpoint).not.toContain('pw');
    }
  });
});

describe('postgres libpq key=value strings and templated queries', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await database.pool.query(
      `CREATE TABLE events (id int, at int); INSERT INTO events VALUES (1, 10), (2, 20), (3, 30)`,
    );
  });
  afterAll(async () => {
    await database?.close();
  });

  it('parses key=value strings, quoted values and sslmode', () => {
    expect(
      postgresConnectionOptions("host=db port=6432 user=app password='it\\'s' dbname=orders sslmode=require"),
    ).toMatchObject({
      host: 'db',
      port: 6432,
      user: 'app',
      database: 'orders',
      ssl: { rejectUnauthorized: false },
    });
    expect(postgresConnectionOptions("host=db password='it\\'s'").password).toBe("it's");
    expect(postgresConnectionOptions('postgres://u@h/d')).toEqual({ connectionString: 'postgres://u@h/d' });
    expect(() => postgresConnectionOptions('host=db bogus=1')).toThrow(/bogus is not supported/);
  });

  it('connects with a key=value string and masks its password in the endpoint', async () => {
    const url = new URL(database.url);
    // The test database's own password (the embedded PostgreSQL checks it); any under trust auth.
    const password = decodeURIComponent(url.password) || 'secret';
    const dsn = `host=${url.hostname} port=${url.port || 5432} user=${decodeURIComponent(url.username)} password='${password.replace(/[\\']/g, (c) => `\\${c}`)}' dbname=${url.pathname.slice(1)} sslmode=disable`;
    const run = await runCheck(
      'postgres',
      {
        name: 'kv',
        url: dsn,
        query: 'SELECT count(*)::int AS n FROM events',
        test: { expr: 'results.rows[0].n == 3' },
      },
      options,
    );
    expect(run.result.error).toBe('');
    expect(run.result.pass).toBe(true);
    expect(run.endpoint).toContain('password=***');
    expect(run.endpoint).not.toContain(password);
  });

  it('templates the query from env ($(.var)) and last_result', async () => {
    const spec = {
      name: 'since-last',
      url: database.url,
      env: [{ name: 'table', value: 'events' }],
      query:
        'SELECT count(*)::int AS n, max(at) AS max FROM $(.table) WHERE at > {{ .last_result.results.max | default 0 }}',
      test: { expr: 'results.rows[0].n == 1' },
    };
    const first = await runCheck('postgres', spec, { ...options, lastResult: { results: { max: 20 } } });
    expect(first.result.error).toBe('');
    expect(first.result.pass).toBe(true);
    const none = await runCheck('postgres', spec, { ...options, lastResult: { results: { max: 30 } } });
    expect(none.result.pass).toBe(false);
  });
});
