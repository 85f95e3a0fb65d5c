import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJunitXml } from './junit.js';
import { runCheck, type RunCheckOptions } from './run-check.js';

/** junit, restic and elasticsearch/opensearch against real local peers; the refused types. */
const options: RunCheckOptions = {
  canary: { name: 'new-types', namespace: 'default' },
  logger: pino({ level: 'silent' }),
  resolveConnection: () => undefined,
  timeoutMs: 30_000,
};

const JUNIT_SCRIPT = (failing: boolean) => `cat > "$JUNIT_RESULTS/report.xml" <<'XML'
<?xml version="1.0"?>
<testsuites>
  <testsuite name="api" tests="3">
    <testcase classname="api" name="health" time="0.012"/>
    <testcase classname="api" name="login &amp; logout" time="0.5">${failing ? '<failure message="expected 200, got 500">trace</failure>' : ''}</testcase>
    <testcase classname="api" name="later"><skipped/></testcase>
  </testsuite>
</testsuites>
XML`;

describe('junit', () => {
  it('parses test cases, failures and skips', () => {
    const cases = parseJunitXml(
      '<testsuite><testcase name="a" time="1.5"/><testcase name="b"><error message="boom"/></testcase><testcase name="c"><skipped/></testcase></testsuite>',
    );
    expect(cases.map((item) => [item.name, item.status, item.duration, item.message])).toEqual([
      ['a', 'passed', 1500, ''],
      ['b', 'failed', 0, 'boom'],
      ['c', 'skipped', 0, ''],
    ]);
    expect(() => parseJunitXml('<html/>')).toThrow(/not a JUnit XML/);
  });

  it('runs the script and gives one result per test case', async () => {
    const run = await runCheck(
      'junit',
      {
        name: 'suite',
        script: JUNIT_SCRIPT(false),
        test: { expr: 'results.passed == 2 && results.skipped == 1' },
      },
      options,
    );
    expect(run.result.error).toBe('');
    expect(run.result.pass).toBe(true);
    expect(run.derived.map((item) => [item.name, item.pass])).toEqual([
      ['api/health', true],
      ['api/login & logout', true],
    ]);
  });

  it('fails when a test case fails, and refuses a pod spec', async () => {
    const run = await runCheck('junit', { name: 'suite', script: JUNIT_SCRIPT(true) }, options);
    expect(run.result.pass).toBe(false);
    expect(run.result.error).toMatch(/1 of 3 tests failed: login & logout/);
    expect(run.derived.find((item) => item.name === 'api/login & logout')).toMatchObject({
      pass: false,
      error: 'expected 200, got 500',
    });
    const pod = await runCheck('junit', { name: 'pod', spec: { containers: [{ image: 'x' }] } }, options);
    expect(pod.result.invalid).toBe(true);
    expect(pod.result.error).toMatch(/Kubernetes pod is not supported/);
  });
});

const hasRestic = spawnSync('restic', ['version']).status === 0;
if (!hasRestic && process.env.CI === 'true') throw new Error('restic is not installed on this CI machine');

describe.skipIf(!hasRestic)('restic', () => {
  let root = '';
  let repository = '';
  const env = () => ({
    ...process.env,
    RESTIC_PASSWORD: 'repo-pass',
    RESTIC_CACHE_DIR: path.join(root, 'cache'),
  });
  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'opsdeck-restic-test-'));
    repository = path.join(root, 'repo');
    writeFileSync(path.join(root, 'data.txt'), 'backed up');
    execFileSync('restic', ['--repo', repository, 'init'], { env: env(), stdio: 'ignore' });
    execFileSync('restic', ['--repo', repository, 'backup', path.join(root, 'data.txt')], {
      env: env(),
      stdio: 'ignore',
    });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('passes with a recent snapshot and a sound repository', async () => {
    const run = await runCheck(
      'restic',
      {
        name: 'backups',
        repository,
        password: { value: 'repo-pass' },
        maxAge: '1h',
        checkIntegrity: true,
        test: { expr: 'results.count == 1' },
      },
      options,
    );
    expect(run.result.error).toBe('');
    expect(run.result.pass).toBe(true);
  });

  it('fails on a too old snapshot, a wrong password, and a damaged repository', async () => {
    const old = await runCheck(
      'restic',
      { name: 'b', repository, password: { value: 'repo-pass' }, maxAge: '1ms' },
      options,
    );
    expect(old.result.pass).toBe(false);
    expect(old.result.error).toMatch(/too old/);
    const wrong = await runCheck('restic', { name: 'b', repository, password: { value: 'nope' } }, options);
    expect(wrong.result.pass).toBe(false);
    const s3 = await runCheck(
      'restic',
      { name: 'b', repository: 's3:x/y', password: 'p', accessKey: 'k' },
      options,
    );
    expect(s3.result.invalid).toBe(true);
    // Remove the index: the snapshot's tree can no longer be found, which `restic check` reports.
    const indexDir = path.join(repository, 'index');
    for (const name of readdirSync(indexDir)) unlinkSync(path.join(indexDir, name));
    const damaged = await runCheck(
      'restic',
      { name: 'b', repository, password: { value: 'repo-pass' }, checkIntegrity: true },
      options,
    );
    expect(damaged.result.pass).toBe(false);
    expect(damaged.result.error).toMatch(/integrity check failed/);
  }, 60_000);
});

describe('elasticsearch and opensearch over HTTP', () => {
  let server: http.Server;
  let url = '';
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const authorized =
          request.headers.authorization === `Basic ${Buffer.from('elastic:pw').toString('base64')}`;
        if (!authorized) {
          response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
          return;
        }
        if (request.method !== 'POST' || request.url !== '/logs/_search') {
          response
            .writeHead(404, { 'content-type': 'application/json' })
            .end('{"error":{"type":"index_not_found_exception"}}');
          return;
        }
        const query = JSON.parse(Buffer.concat(chunks).toString()) as {
          query?: { term?: { level?: string } };
        };
        const hits = query.query?.term?.level === 'error' ? [{ _id: '1' }, { _id: '2' }] : [];
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ hits: { total: { value: hits.length, relation: 'eq' }, hits } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  it('counts the hits of the query and compares them with results', async () => {
    for (const type of ['elasticsearch', 'opensearch']) {
      const spec = {
        name: 'errors',
        url,
        index: 'logs',
        username: 'elastic',
        password: 'pw',
        query: '{"query":{"term":{"level":"error"}}}',
      };
      const ok = await runCheck(type, { ...spec, results: 2, test: { expr: 'results.count == 2' } }, options);
      expect(ok.result.error, type).toBe('');
      expect(ok.result.pass).toBe(true);
      const wrong = await runCheck(type, { ...spec, results: 1 }, options);
      expect(wrong.result.error).toBe('Query return 2 rows, expected 1');
    }
    const missing = await runCheck(
      'elasticsearch',
      { name: 'x', url, index: 'nope', username: 'elastic', password: 'pw' },
      options,
    );
    expect(missing.result.error).toMatch(/answered 404/);
    const bad = await runCheck(
      'elasticsearch',
      { name: 'x', url, index: 'logs', query: '{not json' },
      options,
    );
    expect(bad.result.invalid).toBe(true);
  });
});

describe('types refused with a reason', () => {
  it('reports why mongodb, mssql and databaseBackup do not run', async () => {
    for (const type of ['mongodb', 'mssql', 'databaseBackup']) {
      const run = await runCheck(type, { name: 'x' }, options);
      expect(run.result.invalid, type).toBe(true);
      expect(run.result.error).toMatch(new RegExp(`^${type} checks are not supported: `));
    }
  });
});
