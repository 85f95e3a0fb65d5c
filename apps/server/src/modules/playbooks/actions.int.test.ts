import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { createJobsService, type JobsService } from '../../platform/jobs/index.js';
import { waitFor } from '../../platform/jobs/test-fixtures/helpers.js';
import type { ModuleWorkers } from '../../server-module.js';
import { createSecretBox, keyFromSecret } from '../../platform/secrets.js';
import { startSmtpCapture } from '../auth/test-fixtures/smtp-capture.js';
import {
  answers200,
  freePort,
  requireBinary,
  startDaemon,
  type Daemon,
} from '../health/test-fixtures/daemons.js';
import { startHttpPeer } from '../notifications/test-fixtures/http-peer.js';
import { createRun } from './runs.js';
import { startPlaybookWorkers } from './workers.js';

const logger = pino({ level: 'silent' });
const box = createSecretBox(keyFromSecret('actions-test-key'));
let db: TestDatabase;
let jobs: JobsService;
let workers: ModuleWorkers;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
let hook: Awaited<ReturnType<typeof startHttpPeer>>;
let exporter: http.Server;
let prometheus: Daemon | undefined;
let prometheusUrl = '';
let workDir = '';

beforeAll(async () => {
  db = await createTestDatabase();
  smtp = await startSmtpCapture();
  hook = await startHttpPeer();
  jobs = createJobsService({ pool: db.pool, logger, events: { pollIntervalMs: 30 } });
  workers = await startPlaybookWorkers({
    pool: db.pool,
    jobs,
    logger,
    metrics: undefined as never,
    cancelPollMs: 100,
    schedulePollMs: 60_000,
    secrets: box,
  });
  await jobs.start();
}, 60_000);

afterAll(async () => {
  await jobs?.stop({ graceMs: 1000 });
  await workers?.stop();
  await Promise.all([smtp?.close(), hook?.close(), prometheus?.stop()]);
  if (exporter) await new Promise((resolve) => exporter.close(resolve));
  if (workDir) await rm(workDir, { recursive: true, force: true });
  await db?.close();
});

interface ActionRow {
  name: string;
  status: string;
  error: string | null;
  result: Record<string, unknown> | null;
}

async function runPlaybook(spec: Record<string, unknown>, parameters: Record<string, unknown> = {}) {
  const { rows } = await db.pool.query<{ id: string; name: string; namespace: string }>(
    `INSERT INTO playbooks (name, title, spec) VALUES ('pb-' || gen_random_uuid(), 'actions', $1)
     RETURNING id, name, namespace`,
    [spec],
  );
  const run = await createRun(db.pool, {
    playbook: { ...rows[0], title: null, description: null, spec },
    target: {},
    parameters,
    request: { trigger: 'test' },
    createdBy: null,
  });
  const status = await waitFor(
    async () => {
      const current = await db.pool.query<{ status: string; error: string | null }>(
        'SELECT status, error FROM playbook_runs WHERE id = $1',
        [run.id],
      );
      const row = current.rows[0];
      return ['completed', 'failed', 'timed_out'].includes(row.status) ? row : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 50, what: 'the run to finish' },
  );
  const actions = await db.pool.query<ActionRow>(
    'SELECT name, status, error, result FROM playbook_run_actions WHERE playbook_run_id = $1 ORDER BY created_at',
    [run.id],
  );
  return { id: run.id, ...status, actions: actions.rows };
}

/** The job-history rows of a run (one per stretch of work; these runs have one). */
async function runJobs(runId: string): Promise<string[]> {
  // The job ends just after the run's final status is written.
  return waitFor(
    async () => {
      const { rows } = await db.pool.query<{ status: string }>(
        `SELECT status FROM job_history WHERE name LIKE 'playbook run %' AND details -> 'summary' ->> 'run_id' = $1`,
        [runId],
      );
      return rows.length > 0 && rows.every((row) => row.status !== 'RUNNING')
        ? rows.map((row) => row.status)
        : undefined;
    },
    { what: 'the run job to end' },
  );
}

describe('notification action', () => {
  it('sends a templated email through a notification connection to a real SMTP server, and a webhook by URL', async () => {
    await db.pool.query(
      `INSERT INTO connections (name, namespace, type, url) VALUES ('mail', 'default', 'email', $1)`,
      [box.seal(`${smtp.url}/?from=playbooks@opsdeck.test&to=oncall@example.test`)],
    );
    const result = await runPlaybook(
      {
        parameters: [{ name: 'who', default: 'db-1' }],
        actions: [
          {
            name: 'mail',
            notification: {
              connection: 'connection://default/mail',
              title: 'Restarted {{.params.who}}',
              message: 'The playbook restarted {{.params.who}}.',
            },
          },
          {
            name: 'hook',
            notification: { url: `${hook.origin}/hook`, title: 'Hook {{.params.who}}', message: 'body' },
          },
        ],
      },
      { who: 'db-7' },
    );
    expect(result.status, JSON.stringify(result.actions)).toBe('completed');
    expect(await runJobs(result.id)).toEqual(['SUCCESS']);
    const [mail] = await smtp.waitFor(1);
    expect(mail.to).toEqual(['oncall@example.test']);
    expect(mail.raw).toContain('Restarted db-7');
    expect(mail.text).toContain('The playbook restarted db-7.');
    expect(result.actions[0].result).toMatchObject({
      recipients: [{ recipient: 'connection://default/mail', status: 'sent' }],
    });
    expect(
      hook.requests.some((request) => request.path === '/hook' && request.body.includes('Hook db-7')),
    ).toBe(true);
  });

  it('fails with the channel error when nothing could be delivered, without the URL in the message', async () => {
    const port = await freePort();
    const result = await runPlaybook({
      actions: [
        {
          name: 'unreachable',
          notification: { url: `https://token:secret@127.0.0.1:${port}/x`, title: 't', message: 'm' },
        },
        {
          name: 'missing',
          notification: { connection: 'connection://default/nope', title: 't', message: 'm' },
        },
        { name: 'no-title', notification: { connection: 'connection://default/mail', message: 'm' } },
      ],
    });
    expect(result.status).toBe('failed');
    expect(result.actions.map((action) => action.status)).toEqual(['failed', 'skipped', 'skipped']);
    expect(result.actions[0].error).toMatch(/^notification: /);
    expect(result.actions[0].error).not.toContain('secret');
    const second = await runPlaybook({
      actions: [
        {
          name: 'missing',
          notification: { connection: 'connection://default/nope', title: 't', message: 'm' },
        },
        {
          name: 'no-title',
          if: 'always()',
          notification: { connection: 'connection://default/mail', message: 'm' },
        },
      ],
    });
    expect(second.actions[0].error).toContain('connection default/nope was not found');
    expect(second.actions[1].error).toBe('notification: title is required');
  });
});

describe('prometheus action against a real Prometheus', () => {
  it("runs an instant query, a range query, and fails a bad query with Prometheus's error", async () => {
    await requireBinary('/usr/bin/prometheus', 'prometheus');
    workDir = await mkdtemp(path.join(tmpdir(), 'opsdeck-playbook-prometheus-'));
    exporter = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
      response.end(
        '# TYPE opsdeck_pb_depth gauge\nopsdeck_pb_depth{queue="emails"} 42\nopsdeck_pb_depth{queue="reports"} 3\n',
      );
    });
    await new Promise<void>((resolve) => exporter.listen(0, '127.0.0.1', resolve));
    const exporterPort = (exporter.address() as AddressInfo).port;
    const port = await freePort();
    prometheusUrl = `http://127.0.0.1:${port}`;
    await writeFile(
      path.join(workDir, 'prometheus.yml'),
      `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: exporter\n    static_configs:\n      - targets: ['127.0.0.1:${exporterPort}']\n`,
    );
    prometheus = await startDaemon(
      '/usr/bin/prometheus',
      [
        `--config.file=${path.join(workDir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${path.join(workDir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      () => answers200(`${prometheusUrl}/-/ready`),
      { what: 'prometheus' },
    );
    await waitFor(
      async () => {
        const response = await fetch(`${prometheusUrl}/api/v1/query?query=opsdeck_pb_depth`);
        const body = (await response.json()) as { data?: { result?: unknown[] } };
        return (body.data?.result?.length ?? 0) === 2;
      },
      { timeoutMs: 20_000, intervalMs: 200, what: 'the first scrape' },
    );
    await db.pool.query(
      `INSERT INTO connections (name, namespace, type, url) VALUES ('prom', 'default', 'prometheus', $1)`,
      [box.seal(prometheusUrl)],
    );
    const now = Math.floor(Date.now() / 1000);
    const result = await runPlaybook({
      actions: [
        {
          name: 'depth',
          prometheus: { connection: 'connection://default/prom', query: 'sum(opsdeck_pb_depth) by (queue)' },
        },
        {
          name: 'range',
          prometheus: {
            url: prometheusUrl,
            query: 'opsdeck_pb_depth{queue="emails"}',
            range: { start: now - 60, end: now + 5, step: '1s' },
          },
        },
      ],
    });
    expect(result.status, JSON.stringify(result.actions)).toBe('completed');
    const rows = (result.actions[0].result as { rows: { queue: string; value: number }[] }).rows;
    expect(rows.sort((a, b) => a.queue.localeCompare(b.queue))).toEqual([
      { queue: 'emails', value: 42 },
      { queue: 'reports', value: 3 },
    ]);
    const range = result.actions[1].result as {
      resultType: string;
      rows: { value: number; values: unknown[] }[];
    };
    expect(range.resultType).toBe('matrix');
    expect(range.rows[0].value).toBe(42);
    expect(range.rows[0].values.length).toBeGreaterThan(0);

    const bad = await runPlaybook({
      actions: [{ name: 'bad', prometheus: { url: prometheusUrl, query: 'sum(' } }],
    });
    expect(bad.status).toBe('failed');
    expect(await runJobs(bad.id)).toEqual(['FAILED']);
    expect(bad.actions[0].error).toMatch(/^prometheus: .*parse error/);
  }, 60_000);
});
