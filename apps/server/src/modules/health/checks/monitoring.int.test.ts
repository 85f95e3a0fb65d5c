import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers200, freePort, requireBinary, startDaemon, type Daemon } from '../test-fixtures/daemons.js';
import { waitFor } from '../test-fixtures/targets.js';
import { runCheck, type RunCheckOptions } from './run-check.js';

const PROMETHEUS = '/usr/bin/prometheus';
const ALERTMANAGER = '/usr/bin/prometheus-alertmanager';

const options: RunCheckOptions = {
  canary: { name: 'monitoring', namespace: 'default' },
  logger: pino({ level: 'silent' }),
  resolveConnection: (name) =>
    name === 'connection://default/alerts' ? { url: alertmanagerUrl } : undefined,
  timeoutMs: 10_000,
};

let workDir = '';
let exporter: http.Server;
let prometheus: Daemon | undefined;
let alertmanager: Daemon | undefined;
let prometheusUrl = '';
let alertmanagerUrl = '';
let closedUrl = '';

beforeAll(async () => {
  await requireBinary(PROMETHEUS, 'prometheus');
  await requireBinary(ALERTMANAGER, 'prometheus-alertmanager');
  workDir = await mkdtemp(path.join(tmpdir(), 'opsdeck-monitoring-'));

  // A local exporter the test's Prometheus scrapes, so queries have known data.
  exporter = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
    response.end(
      [
        '# TYPE opsdeck_test_queue_depth gauge',
        'opsdeck_test_queue_depth{queue="emails"} 42',
        'opsdeck_test_queue_depth{queue="reports"} 3',
        '',
      ].join('\n'),
    );
  });
  await new Promise<void>((resolve) => exporter.listen(0, '127.0.0.1', resolve));
  const exporterPort = (exporter.address() as AddressInfo).port;

  const prometheusPort = await freePort();
  prometheusUrl = `http://127.0.0.1:${prometheusPort}`;
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
  prometheus = await startDaemon(
    PROMETHEUS,
    [
      `--config.file=${path.join(workDir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(workDir, 'prometheus-data')}`,
      `--web.listen-address=127.0.0.1:${prometheusPort}`,
    ],
    () => answers200(`${prometheusUrl}/-/ready`),
    { what: 'prometheus' },
  );
  await waitFor(
    async () => {
      const response = await fetch(`${prometheusUrl}/api/v1/query?query=opsdeck_test_queue_depth`);
      const body = (await response.json()) as { data?: { result?: unknown[] } };
      return (body.data?.result?.length ?? 0) === 2;
    },
    { timeoutMs: 20_000, intervalMs: 200, what: 'the first scrape' },
  );

  const alertmanagerPort = await freePort();
  alertmanagerUrl = `http://127.0.0.1:${alertmanagerPort}`;
  await writeFile(
    path.join(workDir, 'alertmanager.yml'),
    ['route:', '  receiver: discard', 'receivers:', '  - name: discard', ''].join('\n'),
  );
  alertmanager = await startDaemon(
    ALERTMANAGER,
    [
      `--config.file=${path.join(workDir, 'alertmanager.yml')}`,
      `--storage.path=${path.join(workDir, 'alertmanager-data')}`,
      `--web.listen-address=127.0.0.1:${alertmanagerPort}`,
      '--cluster.listen-address=',
    ],
    () => answers200(`${alertmanagerUrl}/-/ready`),
    { what: 'alertmanager' },
  );
  const endsAt = new Date(Date.now() + 3_600_000).toISOString();
  const posted = await fetch(`${alertmanagerUrl}/api/v2/alerts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([
      {
        labels: { alertname: 'DiskFull', severity: 'critical', namespace: 'prod', pod: 'db-0' },
        annotations: { summary: 'disk is 97% full' },
        endsAt,
      },
      {
        labels: { alertname: 'HighLatency', severity: 'warning', namespace: 'prod', deployment: 'api' },
        annotations: { description: 'p99 above 2s' },
        endsAt,
      },
      {
        labels: { alertname: 'Watchdog', severity: 'none' },
        annotations: { message: 'always firing' },
        endsAt,
      },
    ]),
  });
  expect(posted.status).toBe(200);
  await waitFor(
    async () => {
      const response = await fetch(`${alertmanagerUrl}/api/v2/alerts`);
      return ((await response.json()) as unknown[]).length === 3;
    },
    { what: 'the posted alerts' },
  );
  closedUrl = `http://127.0.0.1:${await freePort()}`;
}, 60_000);

afterAll(async () => {
  await prometheus?.stop();
  await alertmanager?.stop();
  await new Promise((resolve) => exporter?.close(resolve));
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('prometheus check against a real Prometheus', () => {
  it('exposes the query results, value and firstResult to expressions', async () => {
    const run = await runCheck(
      'prometheus',
      {
        name: 'queues',
        url: prometheusUrl,
        query: 'sort_desc(opsdeck_test_queue_depth)',
        test: { expr: "value == 42.0 && firstResult.queue == 'emails' && results.size() == 2" },
        display: { template: '{{ range .results }}{{ .queue }}={{ .value }} {{ end }}' },
      },
      options,
    );
    expect(run.result, run.result.error).toMatchObject({ pass: true, message: 'emails=42 reports=3 ' });
    expect(run.endpoint).toBe(`${prometheusUrl}/`);
    expect(run.result.detail).toMatchObject({
      resultType: 'vector',
      results: [
        { __name__: 'opsdeck_test_queue_depth', queue: 'emails', value: 42 },
        { __name__: 'opsdeck_test_queue_depth', queue: 'reports', value: 3 },
      ],
    });
  });

  it('accepts the deprecated host field and scalar answers', async () => {
    const run = await runCheck(
      'prometheus',
      {
        name: 'scalar',
        host: prometheusUrl,
        query: 'scalar(sum(opsdeck_test_queue_depth))',
        test: { expr: 'value == 45.0' },
      },
      options,
    );
    expect(run.result, run.result.error).toMatchObject({ pass: true });
  });

  it('fails when the test rejects the data', async () => {
    const run = await runCheck(
      'prometheus',
      {
        name: 'backlog',
        url: prometheusUrl,
        query: 'max(opsdeck_test_queue_depth)',
        test: { expr: 'value < 10.0' },
      },
      options,
    );
    expect(run.result).toMatchObject({ pass: false, error: 'test expression returned false' });
  });

  it('fails on an empty answer with markFailOnEmpty, on a bad query and on an unreachable server', async () => {
    const empty = await runCheck(
      'prometheus',
      { name: 'none', url: prometheusUrl, query: 'opsdeck_no_such_metric', markFailOnEmpty: true },
      options,
    );
    expect(empty.result).toMatchObject({ pass: false, error: 'check returned an empty result' });
    const bad = await runCheck('prometheus', { name: 'bad', url: prometheusUrl, query: 'sum(' }, options);
    expect(bad.result.pass).toBe(false);
    expect(bad.result.error).toMatch(/^bad_data: .*parse error/);
    const down = await runCheck('prometheus', { name: 'down', url: closedUrl, query: 'up' }, options);
    expect(down.result.pass).toBe(false);
    expect(down.result.error).toMatch(/ECONNREFUSED/);
  });

  it('times out on a server that never answers', async () => {
    const hung: http.ServerResponse[] = [];
    const silent = http.createServer((_request, response) => void hung.push(response));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      const started = Date.now();
      const run = await runCheck(
        'prometheus',
        { name: 'hung', url: `http://127.0.0.1:${port}`, query: 'up' },
        { ...options, timeoutMs: 300 },
      );
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(run.result.pass).toBe(false);
      expect(run.result.error).toMatch(/timed out after 300ms/);
    } finally {
      for (const response of hung) response.destroy();
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('refuses a spec without a query or a url', async () => {
    const noQuery = await runCheck('prometheus', { name: 'q', url: prometheusUrl }, options);
    expect(noQuery.result).toMatchObject({ invalid: true });
    expect(noQuery.result.error).toMatch(/^invalid prometheus check: query: /);
    const noUrl = await runCheck('prometheus', { name: 'u', query: 'up' }, options);
    expect(noUrl.result.error).toBe('invalid prometheus check: url: a url, host or connection is required');
  });
});

describe('alertmanager check against a real Alertmanager', () => {
  it('lists the matching alerts with name, message, labels and fingerprint', async () => {
    const run = await runCheck(
      'alertmanager',
      {
        name: 'prod-alerts',
        url: alertmanagerUrl,
        filters: { namespace: 'prod' },
        ignore: ['Watch.*'],
        test: { expr: 'results.alerts.size() == 2' },
      },
      options,
    );
    expect(run.result, run.result.error).toMatchObject({ pass: true });
    const alerts = (run.result.data.results as { alerts: Array<Record<string, unknown>> }).alerts;
    const byName = Object.fromEntries(alerts.map((alert) => [alert.name, alert]));
    expect(Object.keys(byName).sort()).toEqual(['DiskFull/prod/db-0', 'HighLatency/prod/api']);
    expect(byName['DiskFull/prod/db-0']).toMatchObject({
      message: 'disk is 97% full',
      labels: { severity: 'critical' },
      state: 'active',
    });
    expect(byName['HighLatency/prod/api']).toMatchObject({ message: 'p99 above 2s' });
    expect(String(byName['DiskFull/prod/db-0'].fingerprint)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('selects by alert names and exclude_filters, through a named connection', async () => {
    const run = await runCheck(
      'alertmanager',
      {
        name: 'named',
        connection: 'connection://default/alerts',
        alerts: ['DiskFull', 'High.*'],
        exclude_filters: { severity: 'warning' },
        display: { expr: "results.alerts.map(a, a.name).join(',')" },
      },
      options,
    );
    expect(run.result, run.result.error).toMatchObject({ pass: true, message: 'DiskFull/prod/db-0' });
  });

  it('fails when alerts fire against the test, and fans out one failing check per alert', async () => {
    const firing = await runCheck(
      'alertmanager',
      {
        name: 'critical',
        url: alertmanagerUrl,
        filters: { severity: 'critical' },
        test: { expr: 'count == 0' },
      },
      options,
    );
    expect(firing.result).toMatchObject({ pass: false, error: 'test expression returned false' });
    const fanned = await runCheck(
      'alertmanager',
      {
        name: 'per-alert',
        url: alertmanagerUrl,
        ignore: ['Watchdog'],
        transform: {
          expr: "results.alerts.map(a, {'name': a.name, 'pass': false, 'message': a.message, 'labels': a.labels}).toJSON()",
        },
      },
      options,
    );
    expect(fanned.derived.map((check) => [check.name, check.pass, check.message]).sort()).toEqual([
      ['DiskFull/prod/db-0', false, 'disk is 97% full'],
      ['HighLatency/prod/api', false, 'p99 above 2s'],
    ]);
  });

  it('passes with no matching alert, and fails when Alertmanager is unreachable or refuses the filter', async () => {
    const quiet = await runCheck(
      'alertmanager',
      { name: 'quiet', url: alertmanagerUrl, alerts: ['NoSuchAlert'], test: { expr: 'count == 0' } },
      options,
    );
    expect(quiet.result, quiet.result.error).toMatchObject({ pass: true });
    const down = await runCheck('alertmanager', { name: 'down', url: closedUrl }, options);
    expect(down.result.pass).toBe(false);
    expect(down.result.error).toMatch(/^error fetching from alertmanager: .*ECONNREFUSED/);
    const refused = await runCheck(
      'alertmanager',
      { name: 'refused', url: alertmanagerUrl, filters: { 'bad label': 'x' } },
      options,
    );
    expect(refused.result.pass).toBe(false);
    expect(refused.result.error).toMatch(/^error fetching from alertmanager: 400/);
  });

  it('refuses an invalid regular expression as an invalid spec', async () => {
    const run = await runCheck('alertmanager', { name: 'x', url: alertmanagerUrl, alerts: ['('] }, options);
    expect(run.result.invalid).toBe(true);
    expect(run.result.error).toMatch(/^invalid alertmanager check: alerts.0: invalid regular expression/);
  });
});
