import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { PROJECT_ROOT } from '../src/platform/config.js';
import { pgdataOf, readPostmasterPid } from '../src/platform/db/embedded-postgres.js';
import { runOpsdeck, type OpsdeckProcess } from './harness/process.js';
import { adminQuery, databaseUrl, uniqueName } from './harness/postgres.js';

const RUNNING = /Opsdeck is running at (http:\/\/localhost:\d+)/;

async function embeddedClient(dataDir: string): Promise<pg.Client> {
  const running = await readPostmasterPid(pgdataOf(dataDir));
  if (!running) throw new Error('no embedded PostgreSQL is running');
  const password = (await fs.readFile(path.join(dataDir, 'postgres-password'), 'utf8')).trim();
  const client = new pg.Client({
    host: '127.0.0.1',
    port: running.port,
    user: 'postgres',
    password,
    database: 'postgres',
  });
  await client.connect();
  return client;
}

async function startServe(
  env: Record<string, string | undefined>,
): Promise<{ process: OpsdeckProcess; url: string }> {
  const process = runOpsdeck(['serve'], { PORT: '0', DEMO: 'false', ...env });
  // Generous: on a loaded 2-core CI machine a cold start with tsx takes tens of seconds.
  const [, url] = await process.waitFor(RUNNING, 150_000);
  return { process, url: url as string };
}

describe('opsdeck serve on the embedded PostgreSQL', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = path.join(PROJECT_ROOT, '.test-data', uniqueName('serve'));
  });
  afterAll(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it(
    'starts, serves, refuses a second process, survives SIGKILL and stops cleanly',
    { timeout: 300_000 },
    async () => {
      // First start: initialises the data directory and prints a generated admin password once.
      const first = await startServe({
        DATA_DIR: dataDir,
        ADMIN_EMAIL: undefined,
        ADMIN_PASSWORD: undefined,
      });
      expect(first.process.output()).toContain(`Data directory: ${dataDir} (embedded PostgreSQL)`);
      expect(first.process.output()).toMatch(
        /email: {4}admin@opsdeck\.local\n {2}password: [A-Za-z2-9]{20}\n/,
      );

      const ready = await fetch(`${first.url}/readyz`);
      expect(ready.status).toBe(200);
      const about = (await (await fetch(`${first.url}/api/version`)).json()) as {
        version: string;
        database: { version: string };
      };
      expect(about.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(about.database.version).toMatch(/^18\./);
      const metrics = await (await fetch(`${first.url}/metrics`)).text();
      expect(metrics).toContain('opsdeck_http_request_duration_seconds_bucket');
      expect(metrics).toContain('opsdeck_db_pool_connections{state="total"}');
      expect((await fetch(`${first.url}/api/no-such-thing`)).status).toBe(401);

      // A second server on the same data directory refuses to start and says why.
      const second = runOpsdeck(['serve'], { PORT: '0', DATA_DIR: dataDir });
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(
        `Opsdeck is already running with the data directory ${dataDir} (pid ${first.process.child.pid})`,
      );

      // The CLI works beside the running server.
      const migrate = runOpsdeck(['migrate'], { DATA_DIR: dataDir });
      expect(await migrate.exited).toBe(0);
      expect(migrate.output()).toContain('The database is up to date.');
      expect(migrate.output()).toContain(
        `Database: the embedded PostgreSQL in ${dataDir}, of the Opsdeck server running on it (pid ${first.process.child.pid})`,
      );

      // Committed data survives a SIGKILL; the orphaned PostgreSQL is stopped and restarted.
      const client = await embeddedClient(dataDir);
      await client.query(`INSERT INTO properties (name, value) VALUES ('serve.test', 'committed')`);
      await client.end();
      first.process.child.kill('SIGKILL');
      await first.process.exited;
      const orphan = await readPostmasterPid(pgdataOf(dataDir));
      expect(orphan).toBeDefined();

      const restarted = await startServe({ DATA_DIR: dataDir });
      expect(restarted.process.output()).not.toContain('Created the first admin account');
      expect((await fetch(`${restarted.url}/api/properties`)).status).toBe(401);
      const tokenCommand = runOpsdeck(['token', 'create', '--user', 'admin@opsdeck.local', '--name', 'ci'], {
        DATA_DIR: dataDir,
      });
      expect(await tokenCommand.exited).toBe(0);
      // The token is the one line that is not the stderr note of the database used.
      const token = tokenCommand
        .output()
        .trim()
        .split('\n')
        .filter((line) => !line.startsWith('Database: '))
        .pop() as string;
      const authorized = { headers: { authorization: `Bearer ${token}` } };
      const properties = (await (await fetch(`${restarted.url}/api/properties`, authorized)).json()) as {
        name: string;
        value: string;
      }[];
      const missing = await fetch(`${restarted.url}/api/no-such-thing`, authorized);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual({ error: 'Not found: GET /api/no-such-thing' });
      expect(properties).toContainEqual(
        expect.objectContaining({ name: 'serve.test', value: 'committed', source: 'db' }),
      );

      // SIGTERM: graceful stop, exit code 0, and the embedded PostgreSQL is stopped too.
      restarted.process.child.kill('SIGTERM');
      expect(await restarted.process.exited).toBe(0);
      expect(existsSync(path.join(pgdataOf(dataDir), 'postmaster.pid'))).toBe(false);

      // With no server running, the CLI starts the database for itself and stops it afterwards.
      const offline = runOpsdeck(['migrate'], { DATA_DIR: dataDir });
      expect(await offline.exited).toBe(0);
      expect(offline.output()).toContain('The database is up to date.');
      expect(offline.output()).toContain(
        `Database: the embedded PostgreSQL in ${dataDir} (no server is running on it: started for this command)`,
      );
      expect(existsSync(path.join(pgdataOf(dataDir), 'postmaster.pid'))).toBe(false);
    },
  );
});

describe('opsdeck serve on an external PostgreSQL', () => {
  it(
    'lets two processes race on a fresh database: both start, migrations and the admin once',
    { timeout: 240_000 },
    async () => {
      const { adminUrl } = inject('testPostgres');
      const name = uniqueName('opsdeck_external');
      await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
      const url = databaseUrl(adminUrl, name);
      const env = { DATABASE_URL: url, ADMIN_EMAIL: 'ops@example.com', ADMIN_PASSWORD: 'a-long-password' };
      const servers = await Promise.all([startServe(env), startServe(env)]);
      try {
        for (const server of servers) {
          expect(server.process.output()).toContain('Database: the external PostgreSQL in DATABASE_URL');
          expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
        }
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        const admins = await client.query(
          `SELECT p.email FROM people p JOIN person_roles r ON r.person_id = p.id WHERE r.role = 'admin'`,
        );
        expect(admins.rows).toEqual([{ email: 'ops@example.com' }]);
        const migrations = await client.query(
          'SELECT version, count(*) FROM schema_migrations GROUP BY version HAVING count(*) > 1',
        );
        expect(migrations.rowCount).toBe(0);
        await client.end();
      } finally {
        for (const server of servers) server.process.child.kill('SIGTERM');
        expect(await Promise.all(servers.map((server) => server.process.exited))).toEqual([0, 0]);
        await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }
    },
  );
});

describe('opsdeck command line', () => {
  it('explains bad configuration, unknown commands and its usage', { timeout: 180_000 }, async () => {
    const badPort = runOpsdeck(['serve'], { PORT: 'eighty' });
    expect(await badPort.exited).toBe(1);
    expect(badPort.output()).toContain('PORT: must be a number');

    const unknown = runOpsdeck(['frobnicate'], {});
    expect(await unknown.exited).toBe(2);
    expect(unknown.output()).toContain('opsdeck: Unknown command "frobnicate"');

    const help = runOpsdeck(['--help'], {});
    expect(await help.exited).toBe(0);
    expect(help.output()).toContain('Usage: opsdeck <command> [options]');
    expect(help.output()).toMatch(/migrate +Apply pending database migrations and exit/);
  });
});

describe('opsdeck apply and get', () => {
  it('applies YAML resources from files, reports each, and lists them', { timeout: 240_000 }, async () => {
    const { adminUrl } = inject('testPostgres');
    const name = uniqueName('opsdeck_apply');
    await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
    const dir = path.join(PROJECT_ROOT, '.test-data', uniqueName('apply'));
    await fs.mkdir(dir, { recursive: true });
    const env = { DATABASE_URL: databaseUrl(adminUrl, name), SECRET_KEY: 'a-test-secret-key-value' };
    try {
      await fs.writeFile(
        path.join(dir, 'canaries.yaml'),
        [
          'apiVersion: canaries.flanksource.com/v1',
          'kind: Canary',
          'metadata: {name: web, namespace: ops}',
          'spec: {schedule: "@every 1m", http: [{name: home, url: "http://localhost:1"}]}',
          '---',
          'apiVersion: canaries.flanksource.com/v1',
          'kind: Canary',
          'metadata: {name: broken}',
          'spec: {schedule: "every other tuesday"}',
          '',
        ].join('\n'),
      );
      const first = runOpsdeck(['apply', '-f', dir], env);
      expect(await first.exited).toBe(1);
      expect(first.output()).toContain('canary/ops/web created');
      expect(first.output()).toMatch(/canaries\.yaml#2: spec\.schedule: /);

      const again = runOpsdeck(['apply', '-f', path.join(dir, 'canaries.yaml')], env);
      await again.exited;
      expect(again.output()).toContain('canary/ops/web unchanged');

      const list = runOpsdeck(['get', 'canaries'], env);
      expect(await list.exited).toBe(0);
      expect(list.output()).toMatch(/NAMESPACE\s+NAME\s+SOURCE\s+AGE/);
      expect(list.output()).toMatch(/ops\s+web\s+/);

      const noUser = runOpsdeck(['token', 'create', '--user', 'nobody@example.com', '--name', 'x'], env);
      expect(await noUser.exited).toBe(2);
      expect(noUser.output()).toContain('No active person has the email nobody@example.com');

      const usage = runOpsdeck(['apply'], env);
      expect(await usage.exited).toBe(2);
      expect(usage.output()).toContain('apply needs at least one -f FILE|DIR');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  });
});

describe('the demo on a first start', () => {
  it('loads demo canaries whose checks really run', { timeout: 240_000 }, async () => {
    const { adminUrl } = inject('testPostgres');
    const name = uniqueName('opsdeck_demo');
    await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
    const env = {
      DATABASE_URL: databaseUrl(adminUrl, name),
      DEMO: 'true',
      ADMIN_EMAIL: 'demo@example.com',
      ADMIN_PASSWORD: 'demo-password',
    };
    const server = await startServe(env);
    try {
      const tokenCommand = runOpsdeck(
        ['token', 'create', '--user', 'demo@example.com', '--name', 'demo'],
        env,
      );
      expect(await tokenCommand.exited).toBe(0);
      const token = tokenCommand
        .output()
        .trim()
        .split('\n')
        .filter((line) => !line.startsWith('Database: '))
        .pop();
      const headers = { authorization: `Bearer ${token}` };
      let checks: { id: string; name: string }[] = [];
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        const response = await fetch(
          `${server.url}/api/db/checks?select=id,name&deleted_at=is.null&order=name`,
          { headers },
        );
        expect(response.status).toBe(200);
        checks = (await response.json()) as typeof checks;
        if (checks.length >= 7) break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(checks.map((check) => check.name)).toEqual([
        'closed-port',
        'demo-resources',
        'flaky-minute',
        'local-mariadb',
        'local-redis',
        'opsdeck-healthz',
        'opsdeck-readyz',
      ]);
      const closedPort = checks.find((check) => check.name === 'closed-port') as { id: string };
      const run = await fetch(`${server.url}/api/canary/run/check/${closedPort.id}`, {
        method: 'POST',
        headers,
      });
      expect(await run.json()).toMatchObject({ total: 1, failed: 1, success: 0 });
      const statuses = await fetch(
        `${server.url}/api/db/check_statuses?check_id=eq.${closedPort.id}&select=status,error`,
        { headers },
      );
      expect(((await statuses.json()) as { status: boolean }[])[0]).toMatchObject({ status: false });
      const teams = await fetch(`${server.url}/api/db/teams?select=name&order=name`, { headers });
      expect(await teams.json()).toEqual([{ name: 'on-call' }, { name: 'platform' }]);

      // The demo scraper reads the checkout's own package manifests into the catalog.
      const scrapers = await fetch(
        `${server.url}/api/db/config_scrapers?select=id&name=eq.opsdeck-repository`,
        {
          headers,
        },
      );
      const [scraper] = (await scrapers.json()) as { id: string }[];
      const scrape = await fetch(`${server.url}/api/catalog/scrapers/${scraper?.id}/run`, {
        method: 'POST',
        headers,
      });
      expect(scrape.status).toBe(200);
      const packages = await fetch(
        `${server.url}/api/db/config_items?type=eq.Npm::Package&deleted_at=is.null&select=name&order=name`,
        { headers },
      );
      expect(await packages.json()).toEqual([
        { name: '@opsdeck/contracts' },
        { name: '@opsdeck/server' },
        { name: '@opsdeck/web' },
        { name: 'opsdeck' },
      ]);
    } finally {
      server.process.child.kill('SIGTERM');
      expect(await server.process.exited).toBe(0);
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  });
});
