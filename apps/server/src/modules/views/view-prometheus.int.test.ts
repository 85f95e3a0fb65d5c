import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { viewResultSchema } from '@opsdeck/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPerson } from '../../../test/harness/factories.js';
import { startFullApp, type FullApp } from '../../../test/harness/full-app.js';
import { createTokenForUser } from '../auth/index.js';

// A view whose query reads a real Prometheus (Debian's `prometheus`, started here on a free port)
// that scrapes a local exporter with known series.
const PROMETHEUS = '/usr/bin/prometheus';

let full: FullApp;
let token = '';
let workDir = '';
let exporter: http.Server;
let prometheus: ChildProcess | undefined;
let prometheusOutput = '';
let prometheusUrl = '';
let depth = { emails: 42, reports: 3 };

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function until(what: string, test: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await test().catch(() => false)) return;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}; prometheus said:\n${prometheusOutput.slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function queryResults(query: string): Promise<Array<{ value: [number, string] }>> {
  const response = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(query)}`);
  const body = (await response.json()) as { data?: { result?: Array<{ value: [number, string] }> } };
  return body.data?.result ?? [];
}

async function run(id: string, body: unknown) {
  return full.app.inject({
    method: 'POST',
    url: `/api/view/${id}`,
    payload: JSON.stringify(body),
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });
}

async function createView(name: string, spec: unknown): Promise<string> {
  const created = await full.send('POST', '/api/db/views', { name, namespace: 'prom', spec });
  expect(created.statusCode, created.body).toBe(201);
  return (created.json() as Array<{ id: string }>)[0].id;
}

beforeAll(async () => {
  // Fails (never skips) without the binary: `.ci/run` installs it.
  await access(PROMETHEUS, constants.X_OK).catch(() => {
    throw new Error(`${PROMETHEUS} is missing: install it with apt-get install -y prometheus`);
  });
  workDir = await mkdtemp(path.join(tmpdir(), 'opsdeck-view-prometheus-'));
  exporter = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
    response.end(
      [
        '# TYPE opsdeck_view_queue_depth gauge',
        `opsdeck_view_queue_depth{queue="emails",team="mail"} ${depth.emails}`,
        `opsdeck_view_queue_depth{queue="reports",team="bi"} ${depth.reports}`,
        '',
      ].join('\n'),
    );
  });
  await new Promise<void>((resolve) => exporter.listen(0, '127.0.0.1', resolve));
  const exporterPort = (exporter.address() as AddressInfo).port;
  const port = await freePort();
  prometheusUrl = `http://127.0.0.1:${port}`;
  await writeFile(
    path.join(workDir, 'prometheus.yml'),
    [
      'global:',
      '  scrape_interval: 1s',
      'scrape_configs:',
      '  - job_name: exporter',
      '    static_configs:',
      `      - targets: ['127.0.0.1:${exporterPort}']`,
      '',
    ].join('\n'),
  );
  prometheus = spawn(
    PROMETHEUS,
    [
      `--config.file=${path.join(workDir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(workDir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  prometheus.stdout?.on('data', (chunk: Buffer) => (prometheusOutput += chunk.toString()));
  prometheus.stderr?.on('data', (chunk: Buffer) => (prometheusOutput += chunk.toString()));
  await until('prometheus to be ready', async () => (await fetch(`${prometheusUrl}/-/ready`)).ok);
  await until('the first scrape', async () => (await queryResults('opsdeck_view_queue_depth')).length === 2);

  full = await startFullApp('Views Prometheus Admin');
  const viewer = await createPerson(full.db.pool, { roles: ['viewer'] });
  token = await createTokenForUser(full.db.pool, { email: viewer.email as string, name: 'viewer' });
}, 120_000);

afterAll(async () => {
  await full?.close();
  if (prometheus && prometheus.exitCode === null) {
    const exited = new Promise((resolve) => prometheus!.once('exit', resolve));
    prometheus.kill('SIGTERM');
    await exited;
  }
  await new Promise((resolve) => exporter?.close(resolve));
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('a view over a Prometheus query', () => {
  it('materialises the series of an instant query as rows, with a variable in the PromQL', async () => {
    const id = await createView('queues', {
      display: { title: 'Queues' },
      cache: { maxAge: '10m', minAge: '0s', refreshTimeout: '10s' },
      templating: [{ key: 'team', label: 'Team', values: ['mail', 'bi'], default: 'mail' }],
      queries: {
        depth: {
          prometheus: { url: prometheusUrl, query: 'opsdeck_view_queue_depth{team="$(var.team)"}' },
        },
      },
      columns: [
        { name: 'queue', type: 'string', primaryKey: true },
        { name: 'team', type: 'string' },
        { name: 'depth', type: 'number' },
        { name: 'sampled', type: 'datetime' },
      ],
      mapping: { depth: 'row.value', sampled: 'row.timestamp' },
      panels: [{ name: 'Deepest', type: 'number', query: 'SELECT max(depth) AS value FROM rows' }],
    });
    const mail = await run(id, { variables: { team: 'mail' } });
    expect(mail.statusCode, mail.body).toBe(200);
    const result = viewResultSchema.parse(mail.json());
    expect(result.rows.map((row) => row.slice(0, 3))).toEqual([['emails', 'mail', 42]]);
    expect(Number.isNaN(Date.parse(String(result.rows[0][3])))).toBe(false);
    expect(result.panels[0].rows).toEqual([{ value: 42 }]);
    expect(result.rowCount).toBe(1);

    const bi = viewResultSchema.parse((await run(id, { variables: { team: 'bi' } })).json());
    expect(bi.requestFingerprint).not.toBe(result.requestFingerprint);
    expect(bi.rows.map((row) => row.slice(0, 3))).toEqual([['reports', 'bi', 3]]);

    // A refresh asks Prometheus again: the exporter's new value arrives with the next scrape.
    depth = { emails: 7, reports: 3 };
    await until('the new sample', async () =>
      (await queryResults('opsdeck_view_queue_depth{queue="emails"}')).some((r) => r.value[1] === '7'),
    );
    const refreshed = await run(id, { variables: { team: 'mail' }, refresh: true });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect(viewResultSchema.parse(refreshed.json()).rows.map((row) => row[2])).toEqual([7]);
  });

  it('answers an aggregation (vector without labels) and a scalar', async () => {
    const id = await createView('totals', {
      cache: { maxAge: '10m', minAge: '0s' },
      queries: {
        total: { prometheus: { url: prometheusUrl, query: 'sum(opsdeck_view_queue_depth)' } },
        queues: { prometheus: { url: prometheusUrl, query: 'scalar(count(opsdeck_view_queue_depth))' } },
      },
      columns: [
        { name: 'source', type: 'string' },
        { name: 'value', type: 'number' },
      ],
      mapping: { source: 'query' },
    });
    const response = await run(id, {});
    expect(response.statusCode, response.body).toBe(200);
    const rows = viewResultSchema.parse(response.json()).rows;
    expect(rows).toHaveLength(2);
    expect(rows).toContainEqual(['queues', 2]);
    expect(rows.find((row) => row[0] === 'total')?.[1]).toBeGreaterThan(0);
  });

  it('names the query when Prometheus refuses the PromQL or does not answer', async () => {
    const bad = await createView('bad-promql', {
      queries: { broken: { prometheus: { url: prometheusUrl, query: 'sum(' } } },
      columns: [{ name: 'value', type: 'number' }],
    });
    const refused = await run(bad, {});
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toMatchObject({
      error: expect.stringMatching(/^spec\.queries\.broken\.prometheus: Prometheus answered .*parse error/),
    });

    const closed = `http://127.0.0.1:${await freePort()}`;
    const down = await createView('down', {
      queries: { gone: { prometheus: { url: closed, query: 'up' } } },
      columns: [{ name: 'value', type: 'number' }],
    });
    const unreachable = await run(down, {});
    expect(unreachable.statusCode).toBe(502);
    expect(unreachable.json()).toMatchObject({
      error: expect.stringContaining(`spec.queries.gone.prometheus: Prometheus at ${closed} did not answer`),
    });
  });
});
