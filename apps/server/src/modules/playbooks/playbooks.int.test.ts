import { createHmac, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  playbookListResponseSchema,
  playbookParamsResponseSchema,
  playbookRunDetailSchema,
  playbookRunResponseSchema,
  playbookRunsResponseSchema,
  type PlaybookRunDetail,
} from '@opsdeck/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCheck, createConfigItem } from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { registerErrorHandling } from '../../platform/http/errors.js';
import { createJobsService, type JobsService } from '../../platform/jobs/index.js';
import { waitFor } from '../../platform/jobs/test-fixtures/helpers.js';
import { authPlugin } from '../auth/index.js';
import {
  bearer,
  createTestPerson,
  createTestToken,
  testAuthConfig,
} from '../auth/test-fixtures/auth-test-app.js';
import { playbookRoutes } from './routes.js';
import { playbookWebhookRoutes } from './webhook-routes.js';
import { startPlaybookWorkers } from './workers.js';
import type { ModuleWorkers } from '../../server-module.js';

const logger = pino({ level: 'silent' });
let db: TestDatabase;
let app: FastifyInstance;
let jobs: JobsService;
let workers: ModuleWorkers;
let target: http.Server;
let targetUrl: string;
const hits: { method: string; url: string; body: string; auth?: string }[] = [];
const tokens: Record<string, string> = {};
const people: Record<string, string> = {};

beforeAll(async () => {
  db = await createTestDatabase();
  target = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      hits.push({
        method: request.method ?? '',
        url: request.url ?? '',
        body,
        auth: request.headers.authorization,
      });
      if (request.url?.startsWith('/flaky')) {
        const count = hits.filter((hit) => hit.url.startsWith('/flaky')).length;
        response.writeHead(count < 3 ? 503 : 200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ attempt: count }));
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ok: true, echo: body }));
    });
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  app = Fastify({ logger: false });
  registerErrorHandling(app);
  await app.register(authPlugin, { pool: db.pool, config: testAuthConfig() });
  await app.register(playbookRoutes, { pool: db.pool });
  await app.register(playbookWebhookRoutes, { pool: db.pool });
  await app.ready();
  jobs = createJobsService({ pool: db.pool, logger, events: { pollIntervalMs: 50 } });
  workers = await startPlaybookWorkers({
    pool: db.pool,
    jobs,
    logger,
    metrics: undefined as never,
    cancelPollMs: 100,
    schedulePollMs: 200,
  });
  await jobs.start();
  for (const role of ['admin', 'editor', 'viewer', 'responder'] as const) {
    const person = await createTestPerson(db.pool, { roles: [role] });
    people[role] = person.id;
    tokens[role] = await createTestToken(db.pool, person.id);
  }
}, 60_000);

afterAll(async () => {
  await jobs?.stop({ graceMs: 1000 });
  await workers?.stop();
  await app?.close();
  await new Promise((resolve) => target?.close(resolve));
  await db?.close();
});

async function createPlaybook(name: string, spec: Record<string, unknown>): Promise<string> {
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO playbooks (name, title, spec) VALUES ($1, $2, $3) RETURNING id`,
    [name, (spec.title as string | undefined) ?? name, spec],
  );
  return rows[0].id;
}

async function run(
  token: string,
  body: Record<string, unknown>,
): Promise<{ statusCode: number; json: Record<string, unknown> }> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/playbook/run',
    headers: bearer(token),
    payload: body,
  });
  return { statusCode: response.statusCode, json: response.json() };
}

async function detail(runId: string, token = tokens.admin): Promise<PlaybookRunDetail> {
  const response = await app.inject({
    method: 'GET',
    url: `/api/playbook/run/${runId}`,
    headers: bearer(token),
  });
  expect(response.statusCode).toBe(200);
  return playbookRunDetailSchema.parse(response.json());
}

async function finished(runId: string, timeoutMs = 20_000): Promise<PlaybookRunDetail> {
  return waitFor(
    async () => {
      const current = await detail(runId);
      return ['completed', 'failed', 'cancelled', 'timed_out'].includes(current.run.status)
        ? current
        : undefined;
    },
    { timeoutMs, intervalMs: 100, what: `run ${runId} to finish` },
  );
}

async function artifactText(id: string): Promise<string> {
  const response = await app.inject({
    method: 'GET',
    url: `/api/artifacts/download/${id}`,
    headers: bearer(tokens.viewer),
  });
  expect(response.statusCode).toBe(200);
  return response.body;
}

describe('exec, with parameters and templates over the check', () => {
  it('runs a bash script in its own directory with env, keeps stdout/stderr as artifacts and writes job history', async () => {
    const check = await createCheck(db.pool, { name: 'api-latency', type: 'http' });
    const id = await createPlaybook('restart', {
      title: 'Restart',
      checks: [{ types: ['http'] }],
      env: [{ name: 'GREETING', value: 'hello {{.params.who}}' }],
      parameters: [{ name: 'who', label: 'Who', required: true }],
      actions: [
        {
          name: 'say',
          exec: {
            script: 'echo "$GREETING on {{.check.name}}"; pwd; echo oops >&2',
          },
        },
      ],
    });
    const started = await run(tokens.editor, { id, check_id: check.id, params: { who: 'world' } });
    expect(started.statusCode).toBe(201);
    const body = playbookRunResponseSchema.parse(started.json);
    const done = await finished(body.run_id);
    expect(done.run.status).toBe('completed');
    expect(done.run.resource_name).toBe('api-latency');
    expect(done.run.started_by).toEqual({ type: 'person', detail: expect.any(String) });
    expect(done.actions).toHaveLength(1);
    expect(done.actions[0]).toMatchObject({ name: 'say', status: 'completed' });
    const result = done.actions[0].result as { stdout: string; exitCode: number };
    expect(result.stdout).toMatch(/^hello world on api-latency\n\/tmp\/opsdeck-exec-/);
    const names = done.artifacts.map((artifact) => artifact.filename).sort();
    expect(names).toEqual(['stderr', 'stdout']);
    const stderr = done.artifacts.find((artifact) => artifact.filename === 'stderr')!;
    expect(await artifactText(stderr.id)).toBe('oops\n');
    // The action's row and the run's (written just after the run's final status).
    const history = await waitFor(
      async () => {
        const { rows } = await db.pool.query<{ name: string; status: string }>(
          `SELECT name, status FROM job_history WHERE resource_type = 'playbook' AND resource_id = $1 ORDER BY name`,
          [id],
        );
        return rows.length === 2 && rows.every((row) => row.status !== 'RUNNING') ? rows : undefined;
      },
      { what: 'the job history of the run' },
    );
    expect(history).toEqual([
      { name: 'playbook action say', status: 'SUCCESS' },
      { name: 'playbook run restart', status: 'SUCCESS' },
    ]);
  });

  it('lists the playbooks a check can run and answers their parameters with templated defaults', async () => {
    const check = await createCheck(db.pool, { name: 'disk', type: 'disk' });
    const other = await createCheck(db.pool, { name: 'ping', type: 'icmp' });
    const id = await createPlaybook('clean-disk', {
      checks: [{ types: ['disk'] }],
      parameters: [{ name: 'target', default: 'clean-{{.check.name}}' }],
      actions: [{ name: 'a', exec: { script: 'true' } }],
    });
    const list = await app.inject({
      method: 'GET',
      url: `/api/playbook/list?check_id=${check.id}`,
      headers: bearer(tokens.editor),
    });
    expect(list.statusCode).toBe(200);
    const listed = playbookListResponseSchema.parse(list.json());
    expect(listed.map((playbook) => playbook.id)).toContain(id);
    const none = await app.inject({
      method: 'GET',
      url: `/api/playbook/list?check_id=${other.id}`,
      headers: bearer(tokens.editor),
    });
    expect(playbookListResponseSchema.parse(none.json()).map((playbook) => playbook.id)).not.toContain(id);
    const viewerList = await app.inject({
      method: 'GET',
      url: `/api/playbook/list?check_id=${check.id}`,
      headers: bearer(tokens.viewer),
    });
    expect(playbookListResponseSchema.parse(viewerList.json())).toEqual([]);

    const params = await app.inject({
      method: 'POST',
      url: `/api/playbook/${id}/params`,
      headers: bearer(tokens.editor),
      payload: { id, check_id: check.id },
    });
    expect(params.statusCode).toBe(200);
    expect(params.headers['cache-control']).toBe('no-store');
    expect(playbookParamsResponseSchema.parse(params.json()).params).toEqual([
      { name: 'target', default: 'clean-disk' },
    ]);
    const wrong = await run(tokens.editor, { id, check_id: other.id });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json).toMatchObject({ field: 'check_id' });
  });
});

describe('parameter validation', () => {
  it('refuses each rule with a 400 naming the field', async () => {
    const id = await createPlaybook('validated', {
      parameters: [
        { name: 'name', required: true, properties: { format: 'dns1123' } },
        { name: 'count', properties: { min: 1, max: 5 } },
        { name: 'code', properties: { minLength: 2, maxLength: 4, regex: '[A-Z]+' } },
        { name: 'memory', properties: { format: 'bytes' } },
        { name: 'cpu', properties: { format: 'millicores' } },
        { name: 'wait', type: 'duration' },
        { name: 'disk', type: 'bytes' },
      ],
      actions: [{ name: 'echo', exec: { script: 'echo {{.params.memory}} {{.params.cpu}}' } }],
    });
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{}, 'params.name', /This field is required/],
      [{ name: 'Bad_Name' }, 'params.name', /lowercase alphanumerics/],
      [{ name: 'ok', count: 9 }, 'params.count', /at most 5/],
      [{ name: 'ok', count: 'x' }, 'params.count', /This field must be a number/],
      [{ name: 'ok', code: 'A' }, 'params.code', /at least 2 characters/],
      [{ name: 'ok', code: 'ABCDE' }, 'params.code', /at most 4 characters/],
      [{ name: 'ok', code: 'ab' }, 'params.code', /must match/],
      [{ name: 'ok', memory: '12Ki' }, 'params.memory', /Mi, Gi or Ti/],
      [{ name: 'ok', cpu: '1.5' }, 'params.cpu', /suffix 'm'/],
      [{ name: 'ok', extra: 1 }, 'params.extra', /not a parameter/],
      [{ name: 'ok', wait: '5 minutes' }, 'params.wait', /duration/],
      [{ name: 'ok', disk: '1Pi' }, 'params.disk', /Mi, Gi or Ti/],
    ];
    for (const [params, field, message] of cases) {
      const response = await run(tokens.editor, { id, params });
      expect(response.statusCode, JSON.stringify(params)).toBe(400);
      expect(response.json.field).toBe(field);
      expect(String(response.json.error)).toMatch(message);
    }
    const missingId = await app.inject({
      method: 'POST',
      url: '/api/playbook/run',
      headers: bearer(tokens.editor),
      payload: {},
    });
    expect(missingId.statusCode).toBe(400);
    const ok = await run(tokens.editor, {
      id,
      params: { name: 'web-1.prod', count: '3', memory: '512', cpu: '250' },
    });
    expect(ok.statusCode).toBe(201);
    const done = await finished(String(ok.json.run_id));
    expect(done.run.parameters).toMatchObject({ memory: '512Mi', cpu: '250m' });
    expect((done.actions[0].result as { stdout: string }).stdout).toBe('512Mi 250m\n');
  });
});

describe('permissions', () => {
  it('refuses a viewer and a responder without playbook:run, and allows a responder given it on the playbook', async () => {
    const id = await createPlaybook('guarded', { actions: [{ name: 'a', exec: { script: 'true' } }] });
    const viewer = await run(tokens.viewer, { id });
    expect(viewer.statusCode).toBe(403);
    expect(viewer.json.error).toBe('You are not allowed to run playbook_runs');
    const responder = await run(tokens.responder, { id });
    expect(responder.statusCode).toBe(403);
    const anonymous = await app.inject({ method: 'POST', url: '/api/playbook/run', payload: { id } });
    expect(anonymous.statusCode).toBe(401);
    const granted = await createTestPerson(db.pool, { roles: ['responder'] });
    await db.pool.query(
      `INSERT INTO permissions (subject_type, person_id, action, playbook_id) VALUES ('person', $1, 'playbook:run', $2)`,
      [granted.id, id],
    );
    const grantedToken = await createTestToken(db.pool, granted.id);
    const allowed = await run(grantedToken, { id });
    expect(allowed.statusCode).toBe(201);
    expect((await finished(String(allowed.json.run_id))).run.status).toBe('completed');
  });
});

describe('http and sql actions against real peers', () => {
  it('posts a templated body with basic auth, then queries PostgreSQL and MariaDB', async () => {
    const config = await createConfigItem(db.pool, { name: 'orders-db', type: 'Postgres::Database' });
    const dbUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const id = await createPlaybook('notify-and-query', {
      configs: [{ types: ['Postgres::Database'] }],
      actions: [
        {
          name: 'post',
          http: {
            url: `${targetUrl}/hook`,
            method: 'POST',
            username: 'ops',
            password: 's3cret',
            headers: [{ name: 'content-type', value: 'application/json' }],
            templateBody: '{"config": "{{.config.name}}"}',
          },
        },
        { name: 'pg', sql: { url: dbUrl, query: "SELECT 40 + 2 AS answer, '{{.config.name}}' AS name" } },
        { name: 'maria', sql: { url: 'mysql://root@127.0.0.1:3306/mysql', query: 'SELECT 6 * 7 AS answer' } },
      ],
    });
    const started = await run(tokens.admin, { id, config_id: config.id });
    expect(started.statusCode).toBe(201);
    const done = await finished(String(started.json.run_id));
    const byName = Object.fromEntries(done.actions.map((action) => [action.name, action]));
    expect(byName.post).toMatchObject({ status: 'completed' });
    expect((byName.post.result as { code: number }).code).toBe(200);
    const hit = hits.find((entry) => entry.url === '/hook')!;
    expect(hit.body).toBe('{"config": "orders-db"}');
    expect(hit.auth).toBe(`Basic ${Buffer.from('ops:s3cret').toString('base64')}`);
    expect(byName.pg).toMatchObject({
      status: 'completed',
      result: { rows: [{ answer: 42, name: 'orders-db' }], count: 1 },
    });
    expect(byName.maria.status, JSON.stringify(byName.maria)).toBe('completed');
    expect(byName.maria.result).toMatchObject({ rows: [{ answer: 42 }] });
    expect(done.run.status).toBe('completed');
  });

  it('retries a failing http action with backoff until it succeeds', async () => {
    const id = await createPlaybook('flaky', {
      actions: [
        {
          name: 'call',
          retry: { limit: 3, duration: '200ms', exponent: { multiplier: 2 } },
          http: { url: `${targetUrl}/flaky` },
        },
      ],
    });
    const started = await run(tokens.admin, { id });
    const done = await finished(String(started.json.run_id));
    expect(done.run.status).toBe('completed');
    expect(done.actions[0]).toMatchObject({ status: 'completed', retry_count: 2 });
    const flaky = hits.filter((hit) => hit.url === '/flaky');
    expect(flaky).toHaveLength(3);
  });

  it('fails an unsupported action type at run time with a clear message', async () => {
    const id = await createPlaybook('cloudy', { actions: [{ name: 'p', pod: { name: 'x' } }] });
    const done = await finished(String((await run(tokens.admin, { id })).json.run_id));
    expect(done.run.status).toBe('failed');
    expect(done.actions[0].error).toBe('pod: action type not supported here');
  });
});

describe('if chains, delay and timeouts', () => {
  it('runs failure() handlers after a failure, skips success() ones, always() runs, getAction reads results', async () => {
    const id = await createPlaybook('chain', {
      actions: [
        { name: 'first', exec: { script: 'echo one' } },
        { name: 'second', if: "getAction('first').result.stdout == 'one\\n'", exec: { script: 'exit 3' } },
        { name: 'on-success', exec: { script: 'echo should-not-run' } },
        { name: 'on-failure', if: 'failure()', delay: '300ms', exec: { script: 'echo recovering' } },
        { name: 'cleanup', if: 'always()', exec: { script: 'echo cleanup' } },
        { name: 'never', if: 'skip()', exec: { script: 'echo never' } },
      ],
    });
    const done = await finished(String((await run(tokens.admin, { id })).json.run_id));
    const statuses = Object.fromEntries(done.actions.map((action) => [action.name, action.status]));
    expect(statuses).toEqual({
      first: 'completed',
      second: 'failed',
      'on-success': 'skipped',
      'on-failure': 'completed',
      cleanup: 'completed',
      never: 'skipped',
    });
    expect(done.actions.find((action) => action.name === 'second')!.error).toBe('exec: exited with code 3');
    const delayed = done.actions.find((action) => action.name === 'on-failure')!;
    expect(
      new Date(delayed.start_time!).getTime() - new Date(delayed.created_at).getTime(),
    ).toBeGreaterThanOrEqual(250);
    expect(done.run.status).toBe('failed');
    expect(done.run.error).toBe('second: exec: exited with code 3');
  });

  it('times out an action and a playbook', async () => {
    const id = await createPlaybook('slow', {
      actions: [{ name: 'sleepy', timeout: '300ms', exec: { script: 'sleep 5' } }],
    });
    const done = await finished(String((await run(tokens.admin, { id })).json.run_id));
    expect(done.actions[0].error).toBe('exec: timed out after 300 ms');
    const whole = await createPlaybook('slow-playbook', {
      timeout: '400ms',
      actions: [{ name: 's', exec: { script: 'sleep 5' } }],
    });
    const timedOut = await finished(String((await run(tokens.admin, { id: whole })).json.run_id));
    expect(timedOut.run.status).toBe('timed_out');
  });
});

describe('cancel and approvals', () => {
  it('cancel kills a running exec', async () => {
    const id = await createPlaybook('long', {
      actions: [{ name: 'long', exec: { script: 'echo started; sleep 30; echo finished' } }],
    });
    const runId = String((await run(tokens.admin, { id })).json.run_id);
    await waitFor(async () => (await detail(runId)).actions[0]?.status === 'running', {
      timeoutMs: 10_000,
      what: 'the exec to run',
    });
    const viewer = await app.inject({
      method: 'POST',
      url: `/api/playbook/run/cancel/${runId}`,
      headers: bearer(tokens.viewer),
    });
    expect(viewer.statusCode).toBe(403);
    const before = Date.now();
    const cancel = await app.inject({
      method: 'POST',
      url: `/api/playbook/run/cancel/${runId}`,
      headers: bearer(tokens.admin),
    });
    expect(cancel.statusCode).toBe(200);
    const done = await waitFor(
      async () => {
        const current = await detail(runId);
        return current.actions[0]?.status === 'failed' ? current : undefined;
      },
      { timeoutMs: 5000, what: 'the exec to be killed' },
    );
    expect(Date.now() - before).toBeLessThan(5000);
    expect(done.run.status).toBe('cancelled');
    expect(done.actions[0].error).toBe('cancelled');
    expect((done.actions[0].result as { stdout: string }).stdout).toBe('started\n');
    const again = await app.inject({
      method: 'POST',
      url: `/api/playbook/run/cancel/${runId}`,
      headers: bearer(tokens.admin),
    });
    expect(again.statusCode).toBe(409);
  });

  it('any: one listed approver starts the run; the approval is recorded and emitted', async () => {
    const approver = await createTestPerson(db.pool, { roles: ['editor'] });
    const approverToken = await createTestToken(db.pool, approver.id);
    const id = await createPlaybook('approved-any', {
      approval: { type: 'any', approvers: { people: [approver.email] } },
      actions: [{ name: 'a', exec: { script: 'echo approved' } }],
    });
    const runId = String((await run(tokens.editor, { id })).json.run_id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const waiting = await detail(runId, tokens.editor);
    expect(waiting.run.status).toBe('pending_approval');
    expect(waiting.actions).toEqual([]);
    expect(waiting.can.approve).toBe(false);
    // The editor may approve playbooks but is not a listed approver.
    const notListed = await app.inject({
      method: 'POST',
      url: `/api/playbook/run/approve/${runId}`,
      headers: bearer(tokens.editor),
    });
    expect(notListed.statusCode).toBe(403);
    const viewer = await app.inject({
      method: 'POST',
      url: `/api/playbook/run/approve/${runId}`,
      headers: bearer(tokens.viewer),
    });
    expect(viewer.statusCode).toBe(403);
    expect((await detail(runId, approverToken)).can.approve).toBe(true);
    const approve = await app.inject({
      method: 'POST',
      url: `/api/playbook/run/approve/${runId}`,
      headers: bearer(approverToken),
    });
    expect(approve.statusCode).toBe(200);
    expect(approve.json()).toEqual({ status: 'scheduled' });
    const done = await finished(runId);
    expect(done.run.status).toBe('completed');
    expect(done.approvals.map((approval) => approval.person_id)).toEqual([approver.id]);
  });

  it('all: waits for every listed person and team', async () => {
    const first = await createTestPerson(db.pool, { roles: ['editor'] });
    const second = await createTestPerson(db.pool, { roles: ['editor'] });
    const team = await db.pool.query<{ id: string }>(
      `INSERT INTO teams (name) VALUES ('dba-${Date.now()}') RETURNING id, name`,
    );
    const teamName = (
      await db.pool.query<{ name: string }>('SELECT name FROM teams WHERE id = $1', [team.rows[0].id])
    ).rows[0].name;
    await db.pool.query('INSERT INTO team_members (team_id, person_id) VALUES ($1, $2)', [
      team.rows[0].id,
      second.id,
    ]);
    const id = await createPlaybook('approved-all', {
      approval: { type: 'all', approvers: { people: [first.email], teams: [teamName] } },
      actions: [{ name: 'a', exec: { script: 'true' } }],
    });
    const runId = String((await run(tokens.admin, { id })).json.run_id);
    const firstApproval = await app.inject({
      method: 'POST',
      url: `/api/playbook/run/approve/${runId}`,
      headers: bearer(await createTestToken(db.pool, first.id)),
    });
    expect(firstApproval.json()).toEqual({ status: 'pending_approval' });
    const teamApproval = await app.inject({
      method: 'POST',
      url: `/api/playbook/run/approve/${runId}`,
      headers: bearer(await createTestToken(db.pool, second.id)),
    });
    expect(teamApproval.json()).toEqual({ status: 'scheduled' });
    const done = await finished(runId);
    expect(done.run.status).toBe('completed');
    expect(done.approvals).toHaveLength(2);
    const events = await db.pool.query(
      `SELECT count(*)::int AS n FROM event_queue WHERE name = 'playbook.approval.inserted' AND properties ->> 'run_id' = $1`,
      [runId],
    );
    expect(events.rows[0].n).toBe(2);
  });
});

describe('self-approval', () => {
  it('refuses an approver approving a run they started, unless the property allows it', async () => {
    const approver = await createTestPerson(db.pool, { roles: ['editor'] });
    const approverToken = await createTestToken(db.pool, approver.id);
    const other = await createTestPerson(db.pool, { roles: ['editor'] });
    const otherToken = await createTestToken(db.pool, other.id);
    const id = await createPlaybook('self-approval', {
      approval: { type: 'any', approvers: { people: [approver.email, other.email] } },
      actions: [{ name: 'a', exec: { script: 'true' } }],
    });
    const approve = (runId: string, token: string) =>
      app.inject({ method: 'POST', url: `/api/playbook/run/approve/${runId}`, headers: bearer(token) });

    const own = String((await run(approverToken, { id })).json.run_id);
    expect((await detail(own, approverToken)).can.approve).toBe(false);
    const refused = await approve(own, approverToken);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'You cannot approve a run you started' });
    expect((await detail(own, otherToken)).can.approve).toBe(true);
    expect((await approve(own, otherToken)).json()).toEqual({ status: 'scheduled' });
    const done = await finished(own);
    expect(done.approvals.map((approval) => approval.person_id)).toEqual([other.id]);

    await db.pool.query(
      `INSERT INTO properties (name, value) VALUES ('playbooks.approval.allow_self_approval', 'true')`,
    );
    try {
      const allowed = String((await run(approverToken, { id })).json.run_id);
      expect((await detail(allowed, approverToken)).can.approve).toBe(true);
      expect((await approve(allowed, approverToken)).json()).toEqual({ status: 'scheduled' });
    } finally {
      await db.pool.query(`DELETE FROM properties WHERE name = 'playbooks.approval.allow_self_approval'`);
    }
  });
});

describe('the runs list', () => {
  it('pages and filters by playbook and status', async () => {
    const id = await createPlaybook('listed', { actions: [{ name: 'a', exec: { script: 'true' } }] });
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1)
      ids.push(String((await run(tokens.admin, { id })).json.run_id));
    for (const runId of ids) await finished(runId);
    const page = await app.inject({
      method: 'GET',
      url: `/api/playbook/runs?playbook=${id}&pageSize=2`,
      headers: bearer(tokens.viewer),
    });
    expect(page.statusCode).toBe(200);
    const body = playbookRunsResponseSchema.parse(page.json());
    expect(body.totalEntries).toBe(3);
    expect(body.data).toHaveLength(2);
    expect(body.data[0].playbook.name).toBe('listed');
    const failed = await app.inject({
      method: 'GET',
      url: `/api/playbook/runs?playbook=${id}&status=failed`,
      headers: bearer(tokens.viewer),
    });
    expect(playbookRunsResponseSchema.parse(failed.json()).totalEntries).toBe(0);
  });
});

describe('webhook triggers', () => {
  it('starts a run from an authenticated webhook call, with the request in .request', async () => {
    await createPlaybook('deploy-hook', {
      on: {
        webhook: {
          path: 'deploy-hook',
          authentication: { basic: { username: 'ci', password: 'hook-pass' } },
        },
      },
      parameters: [{ name: 'env', default: 'staging' }],
      actions: [{ name: 'echo', exec: { script: 'echo {{.request.body.version}} to {{.params.env}}' } }],
    });
    const payload = JSON.stringify({ version: 'v1.2.3' });
    const refused = await app.inject({
      method: 'POST',
      url: '/playbook/webhook/deploy-hook',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from('ci:wrong').toString('base64')}`,
      },
      payload,
    });
    expect(refused.statusCode).toBe(401);
    const unknown = await app.inject({ method: 'POST', url: '/playbook/webhook/nothing-here', payload });
    expect(unknown.statusCode).toBe(404);
    const accepted = await app.inject({
      method: 'POST',
      url: '/playbook/webhook/deploy-hook',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from('ci:hook-pass').toString('base64')}`,
      },
      payload,
    });
    expect(accepted.statusCode).toBe(201);
    const done = await finished(String(accepted.json<{ run_id: string }>().run_id));
    expect(done.run.status).toBe('completed');
    expect((done.actions[0].result as { stdout: string }).stdout).toBe('v1.2.3 to staging\n');
    const stored = await db.pool.query<{ request: Record<string, unknown> }>(
      'SELECT request FROM playbook_runs WHERE id = $1',
      [done.run.id],
    );
    expect(stored.rows[0].request).toMatchObject({
      trigger: 'webhook',
      path: 'deploy-hook',
      body: { version: 'v1.2.3' },
    });
    expect(JSON.stringify(stored.rows[0].request)).not.toContain('hook-pass');
    expect(JSON.stringify(stored.rows[0].request)).not.toContain(
      Buffer.from('ci:hook-pass').toString('base64'),
    );
  });

  it('checks a GitHub signature over the raw body', async () => {
    await createPlaybook('gh-hook', {
      on: { webhook: { path: 'gh-hook', authentication: { github: { token: 'gh-secret' } } } },
      actions: [{ name: 'a', exec: { script: 'true' } }],
    });
    const payload = '{"action":"opened"}';
    const signature = `sha256=${createHmac('sha256', 'gh-secret').update(payload).digest('hex')}`;
    const bad = await app.inject({
      method: 'POST',
      url: '/playbook/webhook/gh-hook',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': 'sha256=00' },
      payload,
    });
    expect(bad.statusCode).toBe(401);
    const good = await app.inject({
      method: 'POST',
      url: '/playbook/webhook/gh-hook',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
      payload,
    });
    expect(good.statusCode).toBe(201);
    expect((await finished(String(good.json<{ run_id: string }>().run_id))).run.status).toBe('completed');
  });
});

describe('JWT webhook authentication', () => {
  function jwt(key: KeyObject, header: Record<string, unknown>, claims: Record<string, unknown>): string {
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const data = `${encode(header)}.${encode(claims)}`;
    const signature =
      header.alg === 'ES256'
        ? sign('sha256', Buffer.from(data), { key, dsaEncoding: 'ieee-p1363' })
        : sign('sha256', Buffer.from(data), key);
    return `${data}.${signature.toString('base64url')}`;
  }

  it('accepts a token signed by a key of the JWKS (RS256 and ES256) and refuses forged, expired or missing ones', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwks = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          keys: [
            { ...rsa.publicKey.export({ format: 'jwk' }), kid: 'rsa-1', use: 'sig' },
            { ...ec.publicKey.export({ format: 'jwk' }), kid: 'ec-1', use: 'sig' },
          ],
        }),
      );
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    try {
      const jwksUri = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/.well-known/jwks.json`;
      const id = await createPlaybook('jwt-hook', {
        on: { webhook: { path: 'jwt-hook', authentication: { jwt: { jwksUri } } } },
        actions: [{ name: 'echo', exec: { script: 'echo ok' } }],
      });
      const now = Math.floor(Date.now() / 1000);
      const call = (token?: string) =>
        app.inject({
          method: 'POST',
          url: '/playbook/webhook/jwt-hook',
          headers: {
            'content-type': 'application/json',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          payload: '{}',
        });
      const good = await call(
        jwt(rsa.privateKey, { alg: 'RS256', kid: 'rsa-1' }, { sub: 'ci', exp: now + 300 }),
      );
      expect(good.statusCode, good.body).toBe(201);
      const ecGood = await call(jwt(ec.privateKey, { alg: 'ES256', kid: 'ec-1' }, { sub: 'ci' }));
      expect(ecGood.statusCode, ecGood.body).toBe(201);
      const missing = await call();
      expect(missing.statusCode).toBe(401);
      expect(missing.json().error).toBe('Unauthorized: a Bearer token is required');
      const forged = await call(jwt(stranger.privateKey, { alg: 'RS256', kid: 'rsa-1' }, { sub: 'ci' }));
      expect(forged.json()).toMatchObject({ error: 'Unauthorized: the token signature is not valid' });
      const expired = await call(jwt(rsa.privateKey, { alg: 'RS256', kid: 'rsa-1' }, { exp: now - 3600 }));
      expect(expired.json()).toMatchObject({ error: 'Unauthorized: the token has expired' });
      const unknownKey = await call(jwt(rsa.privateKey, { alg: 'RS256', kid: 'other' }, {}));
      expect(unknownKey.json()).toMatchObject({ error: 'Unauthorized: no key other in the JWKS' });
      const none = await call(`${Buffer.from('{"alg":"none"}').toString('base64url')}.e30.`);
      expect(none.json()).toMatchObject({ error: 'Unauthorized: the algorithm none is not accepted' });
      const runs = await db.pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM playbook_runs WHERE playbook_id = $1',
        [id],
      );
      expect(runs.rows[0].n).toBe(2);
      const started = await detail(String(good.json().run_id));
      expect(started.run.started_by).toEqual({ type: 'webhook', detail: 'jwt-hook' });
    } finally {
      await new Promise((resolve) => jwks.close(resolve));
    }
  });
});

describe('schedule triggers', () => {
  it('starts runs on the playbook schedule, recorded as started by the schedule', async () => {
    const id = await createPlaybook('every-second', {
      on: { schedule: [{ schedule: '@every 1s' }] },
      actions: [{ name: 'tick', exec: { script: 'echo tick' } }],
    });
    const runs = await waitFor(
      async () => {
        const { rows } = await db.pool.query<{ id: string; request: { trigger: string } }>(
          'SELECT id, request FROM playbook_runs WHERE playbook_id = $1',
          [id],
        );
        return rows.length >= 2 ? rows : undefined;
      },
      { timeoutMs: 15_000, intervalMs: 200, what: 'two scheduled runs' },
    );
    expect(runs[0].request.trigger).toBe('schedule');
    expect((await finished(runs[0].id)).run.status).toBe('completed');
    // Deleting the playbook stops its schedule.
    await db.pool.query('UPDATE playbooks SET deleted_at = now() WHERE id = $1', [id]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const count = async () =>
      (
        await db.pool.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM playbook_runs WHERE playbook_id = $1',
          [id],
        )
      ).rows[0].n;
    const before = await count();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await count()).toBe(before);
  });
});
