import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { createCanary, createPerson } from '../../../test/harness/factories.js';
import { loadConfig } from '../../config.js';
import { createJobsService, type JobsService } from '../../platform/jobs/index.js';
import { createLogger } from '../../platform/logger.js';
import { createSecretBox, keyFromSecret } from '../../platform/secrets.js';
import type { Metrics } from '../../platform/telemetry/metrics.js';
import { createTokenForUser } from '../auth/index.js';
import { runCanaryChecks } from './canary-runner.js';
import { loadCanary, type CanaryRow } from './canary-sync.js';
import { checkMetricLabels, createCheckMetrics, metricLabelName } from './check-metrics.js';
import { startHealthWorkers } from './index.js';
import { startTestTarget, waitFor, type TestTarget } from './test-fixtures/targets.js';

const logger = createLogger('silent');
let db: TestDatabase;
let target: TestTarget;
let jobs: JobsService;
let app: FastifyInstance;
let metrics: Metrics;
let baseUrl: string;
let editorToken: string;
const previousLabels = process.env.CHECK_METRIC_LABELS;

beforeAll(async () => {
  // The operator's choice of check labels on the per-check metrics.
  process.env.CHECK_METRIC_LABELS = 'team, app.kubernetes.io/name ,team';
  db = await createTestDatabase();
  target = await startTestTarget();
  jobs = createJobsService({ pool: db.pool, logger });
  ({ app, metrics } = await buildApp({
    config: loadConfig({ WEB_DIST_DIR: '/nonexistent', LOG_LEVEL: 'silent' }),
    pool: db.pool,
    logger,
    secrets: createSecretBox(keyFromSecret('a-test-secret-key')),
    jobs,
  }));
  baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const editor = await createPerson(db.pool, { name: 'An editor', roles: ['editor'] });
  editorToken = await createTokenForUser(db.pool, { email: editor.email as string, name: 'editor' });
});

afterAll(async () => {
  if (previousLabels === undefined) delete process.env.CHECK_METRIC_LABELS;
  else process.env.CHECK_METRIC_LABELS = previousLabels;
  await app?.close();
  await target?.close();
  await db?.close();
});

async function canaryRow(spec: Record<string, unknown>, labels: Record<string, string>): Promise<CanaryRow> {
  const created = await createCanary(db.pool, { name: 'metrics-canary', spec, labels });
  const row = await loadCanary(db.pool, created.id);
  if (!row) throw new Error('canary not stored');
  return row;
}

async function scrape(): Promise<string[]> {
  const response = await fetch(`${baseUrl}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return (await response.text()).split('\n');
}

/** The sample lines of a metric whose labels include every `label="value"` given (escaped text). */
function samples(lines: string[], metric: string, ...labels: string[]): string[] {
  return lines.filter(
    (line) => line.startsWith(`${metric}{`) && labels.every((label) => line.includes(label)),
  );
}

describe('CHECK_METRIC_LABELS', () => {
  it('reads check label keys and names them as Prometheus labels', () => {
    expect(checkMetricLabels({ CHECK_METRIC_LABELS: ' team, app.kubernetes.io/name,,team ' })).toEqual([
      'team',
      'app.kubernetes.io/name',
    ]);
    expect(checkMetricLabels({})).toEqual([]);
    expect(metricLabelName('app.kubernetes.io/name')).toBe('app_kubernetes_io_name');
    expect(metricLabelName('9lives')).toBe('_9lives');
    expect(metricLabelName('name')).toBe('label_name');
  });
});

describe('check metrics on /metrics', () => {
  it('exports per-check and custom metrics, escapes label values and reports metric errors on the check', async () => {
    const team = 'core "ops"\\west\nsecond line';
    const canary = await canaryRow(
      {
        owner: 'platform',
        http: [
          {
            name: 'home',
            url: `${target.baseUrl}/ok`,
            labels: { 'app.kubernetes.io/name': 'web' },
            metrics: [
              {
                name: 'opsdeck_test_http_code',
                type: 'gauge',
                value: 'code',
                labels: [
                  { name: 'path', value: 'a "quoted" \\ path\nnext' },
                  { name: 'code_text', valueExpr: "'code ' + string(code)" },
                ],
              },
              { name: 'opsdeck_test_home_runs_total', type: 'counter', value: '1' },
              { name: 'opsdeck_test_home_elapsed', type: 'histogram', value: 'elapsed' },
            ],
          },
          {
            name: 'bad-metric',
            url: `${target.baseUrl}/ok`,
            metrics: [{ name: 'opsdeck_test_broken', value: 'no_such_variable + 1' }],
          },
          {
            name: 'clashing-metric',
            url: `${target.baseUrl}/ok`,
            // After home, which exports the gauge first.
            dependsOn: ['home'],
            metrics: [{ name: 'opsdeck_test_http_code', type: 'counter', value: '1' }],
          },
          { name: 'down', url: `${target.baseUrl}/fail`, responseCodes: [200] },
        ],
      },
      { team },
    );
    const summary = await runCanaryChecks(canary, {
      pool: db.pool,
      logger,
      checkTimeoutMs: 3000,
      // What the workers of this process use: the same metrics the app serves.
      metrics: createCheckMetrics(metrics.registry, checkMetricLabels()),
    });
    expect(summary.success).toBe(1);
    const { rows: checks } = await db.pool.query<{ id: string; name: string; status: string }>(
      'SELECT id, name, status FROM checks WHERE canary_id = $1',
      [canary.id],
    );
    const ids = Object.fromEntries(checks.map((check) => [check.name, check.id]));

    // Run Now through the API counts in the same series.
    const runNow = await fetch(`${baseUrl}/api/canary/run/check/${ids.home}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${editorToken}`, 'content-type': 'application/json' },
    });
    expect(runNow.status).toBe(200);

    const lines = await scrape();
    const escapedTeam = 'team="core \\"ops\\"\\\\west\\nsecond line"';
    const home = [`check_id="${ids.home}"`, 'name="home"', 'type="http"', 'canary_name="metrics-canary"'];
    expect(
      samples(
        lines,
        'canary_check',
        ...home,
        escapedTeam,
        'app_kubernetes_io_name="web"',
        'owner="platform"',
      ),
    ).toEqual([expect.stringMatching(/ 0$/)]);
    expect(samples(lines, 'canary_check_success_count', ...home)).toEqual([expect.stringMatching(/ 2$/)]);
    expect(samples(lines, 'canary_check_duration_count', ...home)).toEqual([expect.stringMatching(/ 2$/)]);
    expect(samples(lines, 'canary_check', 'name="down"', 'app_kubernetes_io_name=""')).toEqual([
      expect.stringMatching(/ 1$/),
    ]);
    expect(samples(lines, 'canary_check_failed_count', 'name="down"')).toEqual([
      expect.stringMatching(/ 1$/),
    ]);

    expect(
      samples(
        lines,
        'opsdeck_test_http_code',
        'path="a \\"quoted\\" \\\\ path\\nnext"',
        'code_text="code 200"',
      ),
    ).toEqual([expect.stringMatching(/ 200$/)]);
    expect(lines).toContain('# TYPE opsdeck_test_http_code gauge');
    expect(lines).toContain('# TYPE opsdeck_test_home_runs_total counter');
    expect(lines).toContain('opsdeck_test_home_runs_total 2');
    expect(lines).toContain('opsdeck_test_home_elapsed_count 2');
    expect(lines.some((line) => line.startsWith('opsdeck_test_broken'))).toBe(false);

    // A bad metric fails its check with the reason; the process and the other checks go on.
    const { rows: errors } = await db.pool.query<{ name: string; status: boolean; error: string | null }>(
      `SELECT c.name, s.status, s.error FROM check_statuses s JOIN checks c ON c.id = s.check_id
       WHERE c.canary_id = $1 AND c.name IN ('bad-metric', 'clashing-metric') ORDER BY c.name`,
      [canary.id],
    );
    expect(errors).toEqual([
      {
        name: 'bad-metric',
        status: false,
        error: expect.stringMatching(/^metric opsdeck_test_broken: .*no_such_variable/),
      },
      {
        name: 'clashing-metric',
        status: false,
        error:
          'metric opsdeck_test_http_code: opsdeck_test_http_code is already exported as a gauge, not a counter',
      },
    ]);
    expect(samples(lines, 'canary_check', 'name="bad-metric"')).toEqual([expect.stringMatching(/ 1$/)]);
  });
});

describe('scheduled runs', () => {
  it('export their results on /metrics like Run Now does', async () => {
    await createCanary(db.pool, {
      name: 'scheduled-metrics',
      spec: { schedule: '@every 1s', http: [{ name: 'scheduled-home', url: `${target.baseUrl}/ok` }] },
    });
    // What workers.ts starts: the scheduler's runs export to the registry the app serves.
    const workers = await startHealthWorkers({
      pool: db.pool,
      jobs,
      logger,
      pollIntervalMs: 200,
      runner: { metrics: createCheckMetrics(metrics.registry, checkMetricLabels()) },
    });
    await jobs.start();
    try {
      await waitFor(
        async () =>
          samples(await scrape(), 'canary_check_success_count', 'name="scheduled-home"').some((line) =>
            / [1-9]\d*$/.test(line),
          ),
        { timeoutMs: 15_000, what: 'a scheduled run of scheduled-home on /metrics' },
      );
    } finally {
      await workers.stop();
      await jobs.stop({ graceMs: 2000 });
    }
  });
});

describe('webhook pushes and deleted checks', () => {
  async function editorCall(method: string, path: string, body?: object) {
    return fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${editorToken}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  it('export pushed results on /metrics, and drop the series of checks once deleted', async () => {
    const spec = {
      owner: 'deployers',
      webhook: [
        {
          name: 'metrics-hook',
          labels: { team: 'release' },
          test: { expr: "json.status == 'ok'" },
          metrics: [{ name: 'opsdeck_test_pushed_builds', type: 'gauge', value: 'json.builds' }],
        },
      ],
      http: [{ name: 'metrics-sibling', url: `${target.baseUrl}/ok` }],
    };
    const created = await editorCall('POST', '/api/canaries', { name: 'pushed-metrics', spec });
    expect(created.status, await created.clone().text()).toBe(201);
    const canaryId = ((await created.json()) as { id: string }).id;
    const push = (status: string) =>
      fetch(`${baseUrl}/webhook/metrics-hook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ status, builds: 7 }),
      });
    expect((await push('ok')).status).toBe(200);
    expect((await push('broken')).status).toBe(200);
    const { rows } = await db.pool.query<{ id: string; name: string }>(
      'SELECT id, name FROM checks WHERE canary_id = $1',
      [canaryId],
    );
    const ids = Object.fromEntries(rows.map((row) => [row.name, row.id]));
    const runSibling = await editorCall('POST', `/api/canary/run/check/${ids['metrics-sibling']}`);
    expect(runSibling.status).toBe(200);

    const hook = [`check_id="${ids['metrics-hook']}"`, 'name="metrics-hook"', 'type="webhook"'];
    let lines = await scrape();
    expect(
      samples(
        lines,
        'canary_check',
        ...hook,
        'canary_name="pushed-metrics"',
        'owner="deployers"',
        'team="release"',
      ),
    ).toEqual([expect.stringMatching(/ 1$/)]);
    expect(samples(lines, 'canary_check_success_count', ...hook)).toEqual([expect.stringMatching(/ 1$/)]);
    expect(samples(lines, 'canary_check_failed_count', ...hook)).toEqual([expect.stringMatching(/ 1$/)]);
    expect(lines).toContain('opsdeck_test_pushed_builds 7');
    const sibling = `check_id="${ids['metrics-sibling']}"`;
    expect(samples(lines, 'canary_check', sibling)).toHaveLength(1);

    // The webhook check is removed from the spec: its checks row is soft-deleted, its series go.
    const updated = await editorCall('PUT', `/api/canaries/${canaryId}`, {
      spec: { owner: 'deployers', http: spec.http },
    });
    expect(updated.status).toBe(200);
    lines = await scrape();
    for (const metric of ['canary_check', 'canary_check_success_count', 'canary_check_duration_count'])
      expect(samples(lines, metric, hook[0])).toEqual([]);
    expect(samples(lines, 'canary_check', sibling)).toHaveLength(1);

    // The canary is deleted: every check it had leaves /metrics.
    expect((await editorCall('DELETE', `/api/canaries/${canaryId}`)).status).toBe(204);
    lines = await scrape();
    expect(lines.filter((line) => line.includes(sibling))).toEqual([]);
  });
});
