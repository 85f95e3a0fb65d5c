import {
  checkGraphResponseSchema,
  checkStatusesResponseSchema,
  runCheckResponseSchema,
} from '@opsdeck/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanary, createCheck, createCheckStatus } from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { registerErrorHandling } from '../../platform/http/errors.js';
import { createJobsService } from '../../platform/jobs/index.js';
import { authPlugin } from '../auth/index.js';
import {
  bearer,
  createTestPerson,
  createTestToken,
  testAuthConfig,
} from '../auth/test-fixtures/auth-test-app.js';
import { syncCanaryChecks } from './canary-sync.js';
import { loadCanary } from './canary-sync.js';
import { healthRoutes } from './routes.js';
import { startTestTarget, type TestTarget } from './test-fixtures/targets.js';

const logger = pino({ level: 'silent' });
let db: TestDatabase;
let app: FastifyInstance;
let target: TestTarget;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  db = await createTestDatabase();
  target = await startTestTarget();
  app = Fastify({ logger: false });
  registerErrorHandling(app);
  await app.register(authPlugin, { pool: db.pool, config: testAuthConfig() });
  const jobs = createJobsService({ pool: db.pool, logger });
  await app.register(healthRoutes, { pool: db.pool, jobs, logger, runner: { checkTimeoutMs: 3000 } });
  await app.ready();
  for (const role of ['editor', 'viewer', 'responder'] as const) {
    const person = await createTestPerson(db.pool, { roles: [role] });
    tokens[role] = await createTestToken(db.pool, person.id);
  }
});

afterAll(async () => {
  await app?.close();
  await target?.close();
  await db?.close();
});

/** percentile_cont: linear interpolation between the closest ranks. */
function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = fraction * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low] + (sorted[high] - sorted[low]) * (rank - low);
}

describe('POST /api/canary/run/check/:id', () => {
  it('runs the check for an editor and a responder, records it, and refuses a viewer', async () => {
    const created = await createCanary(db.pool, {
      spec: {
        http: [
          { name: 'up', url: `${target.baseUrl}/ok` },
          { name: 'down', url: `${target.baseUrl}/fail` },
        ],
      },
    });
    const canary = await loadCanary(db.pool, created.id);
    if (!canary) throw new Error('no canary');
    const checks = await syncCanaryChecks(db.pool, canary);
    const up = checks.find((check) => check.entry.name === 'up')!;
    const down = checks.find((check) => check.entry.name === 'down')!;
    const hitsBefore = target.hits.get('/fail') ?? 0;

    const viewer = await app.inject({
      method: 'POST',
      url: `/api/canary/run/check/${up.id}`,
      headers: bearer(tokens.viewer),
    });
    expect(viewer.statusCode).toBe(403);
    expect(viewer.json()).toEqual({ error: 'You are not allowed to run checks' });
    const anonymous = await app.inject({ method: 'POST', url: `/api/canary/run/check/${up.id}` });
    expect(anonymous.statusCode).toBe(401);

    const editor = await app.inject({
      method: 'POST',
      url: `/api/canary/run/check/${up.id}`,
      headers: bearer(tokens.editor),
    });
    expect(editor.statusCode).toBe(200);
    expect(editor.json()).toEqual({ total: 1, failed: 0, success: 1, errors: [] });
    // The answer is the contract's, key for key.
    expect(runCheckResponseSchema.parse(editor.json())).toEqual(editor.json());
    // Only the requested check ran.
    expect(target.hits.get('/fail') ?? 0).toBe(hitsBefore);

    const responder = await app.inject({
      method: 'POST',
      url: `/api/canary/run/check/${down.id}`,
      headers: bearer(tokens.responder),
    });
    expect(responder.statusCode).toBe(200);
    const body = responder.json<{ total: number; failed: number; success: number; errors: string[] }>();
    expect(body).toMatchObject({ total: 1, failed: 1, success: 0 });
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0]).toMatch(/^down: /);

    const statuses = await db.pool.query<{ check_id: string; status: boolean }>(
      'SELECT check_id, status FROM check_statuses WHERE check_id = ANY($1::uuid[]) ORDER BY status',
      [[up.id, down.id]],
    );
    expect(statuses.rows).toEqual([
      { check_id: down.id, status: false },
      { check_id: up.id, status: true },
    ]);
    const history = await db.pool.query(
      `SELECT name, status, success_count, error_count FROM job_history
       WHERE resource_type = 'canary' AND resource_id = $1 ORDER BY time_start`,
      [canary.id],
    );
    expect(history.rows).toEqual([
      { name: 'Canary', status: 'SUCCESS', success_count: 1, error_count: 0 },
      { name: 'Canary', status: 'FAILED', success_count: 0, error_count: 1 },
    ]);

    const missing = await app.inject({
      method: 'POST',
      url: '/api/canary/run/check/00000000-0000-0000-0000-000000000001',
      headers: bearer(tokens.editor),
    });
    expect(missing.statusCode).toBe(404);

    // The route's params schema refuses an id that is not a UUID, naming it; permission comes first.
    const malformed = await app.inject({
      method: 'POST',
      url: '/api/canary/run/check/not-a-uuid',
      headers: bearer(tokens.editor),
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ error: 'id must be a check id (a UUID)', field: 'id' });
    const malformedByViewer = await app.inject({
      method: 'POST',
      url: '/api/canary/run/check/not-a-uuid',
      headers: bearer(tokens.viewer),
    });
    expect(malformedByViewer.statusCode).toBe(403);
  });
});

describe('GET|POST /api/canary/api/summary and GET /api/canary/api', () => {
  it('computes uptime and latency percentiles over the range from raw statuses', async () => {
    const canary = await createCanary(db.pool, { name: 'summary-canary' });
    const check = await createCheck(db.pool, {
      canary_id: canary.id,
      name: 'summary-check',
      description: 'Summary check',
      endpoint: 'http://example.test',
      labels: { env: 'prod' },
    });
    const other = await createCheck(db.pool, { canary_id: canary.id, name: 'other', labels: { env: 'dev' } });
    const now = Date.now();
    const durations = [12, 40, 7, 95, 33, 18, 61, 22, 5, 70, 44, 29, 81, 16, 53, 9, 38, 27, 66, 120];
    for (const [index, duration] of durations.entries()) {
      await createCheckStatus(db.pool, check.id, {
        time: new Date(now - (index + 1) * 60_000),
        duration,
        status: index % 4 !== 0,
        message: `run ${index}`,
      });
    }
    // Outside the requested range: must not count.
    await createCheckStatus(db.pool, check.id, {
      time: new Date(now - 3 * 3_600_000),
      duration: 9999,
      status: false,
    });
    await createCheckStatus(db.pool, other.id, { time: new Date(now - 60_000), duration: 1, status: true });

    const response = await app.inject({
      method: 'GET',
      url: '/api/canary/api/summary?start=1h&labels=env=prod',
      headers: bearer(tokens.viewer),
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{
      duration: number;
      runnerName: string;
      checks_summary: Record<string, unknown>[];
    }>();
    expect(typeof body.duration).toBe('number');
    expect(typeof body.runnerName).toBe('string');
    expect(body.checks_summary).toHaveLength(1);
    const summary = body.checks_summary[0];
    expect(summary).toMatchObject({
      id: check.id,
      name: 'summary-check',
      description: 'Summary check',
      endpoint: 'http://example.test',
      canary_name: 'summary-canary',
      type: 'http',
      labels: { env: 'prod' },
      status: 'healthy',
      uptime: { passed: 15, failed: 5 },
      deleted_at: null,
    });
    expect(summary.latency).toEqual({
      rolling1h: Math.round(durations.reduce((sum, value) => sum + value, 0) / durations.length),
      p95: Math.round(percentile(durations, 0.95)),
      p97: Math.round(percentile(durations, 0.97)),
      p99: Math.round(percentile(durations, 0.99)),
    });

    const post = await app.inject({
      method: 'POST',
      url: '/api/canary/api/summary',
      headers: bearer(tokens.viewer),
      payload: { start: '4h', labels: { env: 'prod' } },
    });
    expect(post.json<{ checks_summary: Array<{ uptime: unknown }> }>().checks_summary[0].uptime).toEqual({
      passed: 15,
      failed: 6,
    });

    // An invalid labels parameter is ignored: every check of the range is listed.
    const unfiltered = await app.inject({
      method: 'GET',
      url: '/api/canary/api/summary?start=1h&labels=nonsense',
      headers: bearer(tokens.viewer),
    });
    const ids = unfiltered
      .json<{ checks_summary: Array<{ id: string }> }>()
      .checks_summary.map((row) => row.id);
    expect(ids).toEqual(expect.arrayContaining([check.id, other.id]));

    const bad = await app.inject({
      method: 'GET',
      url: '/api/canary/api/summary?start=yesterday-ish',
      headers: bearer(tokens.viewer),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      field: 'start',
      error: expect.stringMatching(/^start: "yesterday-ish" is not a time/),
    });
    const badBody = await app.inject({
      method: 'POST',
      url: '/api/canary/api/summary',
      headers: bearer(tokens.viewer),
      payload: { start: '1h', deleteFrom: true },
    });
    expect(badBody.statusCode).toBe(400);
    expect(badBody.json()).toEqual({
      error: 'deleteFrom: must be a time such as now-1h, 24h or an ISO 8601 time',
      field: 'deleteFrom',
    });
    const reversed = await app.inject({
      method: 'GET',
      url: '/api/canary/api/summary?start=now-1h&end=now-2h',
      headers: bearer(tokens.viewer),
    });
    expect(reversed.json()).toEqual({ error: 'start must be before end', field: 'start' });
    const anonymous = await app.inject({ method: 'GET', url: '/api/canary/api/summary?start=nonsense' });
    expect(anonymous.statusCode).toBe(401);

    const statuses = await app.inject({
      method: 'GET',
      url: `/api/canary/api?check=${check.id}&start=1h&includeMessages=true`,
      headers: bearer(tokens.viewer),
    });
    expect(statuses.statusCode).toBe(200);
    // The answer is the contract's, key for key (parsing drops keys the schema does not name).
    expect(checkStatusesResponseSchema.parse(statuses.json())).toEqual(statuses.json());
    const checks = statuses.json<{
      checks: Array<{
        id: string;
        checkStatuses: Array<{ time: string; duration: number; status: boolean; message?: string }>;
      }>;
    }>().checks;
    expect(checks.map((row) => row.id)).toEqual([check.id]);
    const list = checks[0].checkStatuses;
    expect(list).toHaveLength(20);
    expect(list[0]).toEqual({
      time: new Date(now - 60_000).toISOString(),
      duration: 12,
      status: false,
      message: 'run 0',
      error: null,
    });
    const times = list.map((row) => Date.parse(row.time));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const withoutMessages = await app.inject({
      method: 'GET',
      url: `/api/canary/api?check=${check.id}&start=1h`,
      headers: bearer(tokens.viewer),
    });
    const first = withoutMessages.json<{ checks: Array<{ checkStatuses: Record<string, unknown>[] }> }>()
      .checks[0].checkStatuses[0];
    expect(Object.keys(first).sort()).toEqual(['duration', 'status', 'time']);

    for (const [query, field, error] of [
      ['check=not-a-uuid', 'check', 'check must be a check id (a UUID)'],
      ['includeMessages=maybe', 'includeMessages', /^includeMessages: Invalid option/],
      ['end=1x', 'end', /^end: "1x" is not a time/],
    ] as const) {
      const refused = await app.inject({
        method: 'GET',
        url: `/api/canary/api?${query}`,
        headers: bearer(tokens.viewer),
      });
      expect(refused.statusCode, query).toBe(400);
      expect(refused.json(), query).toEqual({
        error: typeof error === 'string' ? error : expect.stringMatching(error),
        field,
      });
    }
  });
});

describe('GET /api/canary/api/graph', () => {
  it('buckets a check’s runs by the range, honours count and refuses bad input', async () => {
    const check = await createCheck(db.pool, { name: 'graph-check' });
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    const early = minute - 90 * 60_000;
    await createCheckStatus(db.pool, check.id as string, {
      time: new Date(early + 5_000),
      status: true,
      duration: 10,
    });
    await createCheckStatus(db.pool, check.id as string, {
      time: new Date(early + 20_000),
      status: false,
      duration: 30,
    });
    await createCheckStatus(db.pool, check.id as string, {
      time: new Date(minute - 30 * 60_000 + 1_000),
      status: true,
      duration: 50,
    });
    const get = (query: string, token = tokens.viewer) =>
      app.inject({ method: 'GET', url: `/api/canary/api/graph?${query}`, headers: bearer(token) });

    const twoHours = await get(`check=${check.id}&start=2h`);
    expect(twoHours.statusCode, twoHours.body).toBe(200);
    const body = twoHours.json() as {
      bucketSeconds: number;
      status: { time: string; status: boolean; duration: number; passed: number; failed: number }[];
      uptime: { passed: number; failed: number };
      latency: { p95?: number };
    };
    expect(body.bucketSeconds).toBe(60);
    expect(body.status).toEqual([
      { time: new Date(early).toISOString(), status: false, duration: 20, passed: 1, failed: 1 },
      {
        time: new Date(minute - 30 * 60_000).toISOString(),
        status: true,
        duration: 50,
        passed: 1,
        failed: 0,
      },
    ]);
    expect(body.uptime).toEqual({ passed: 2, failed: 1 });
    expect(body.latency.p95).toBeGreaterThan(30);
    expect(checkGraphResponseSchema.parse(body)).toEqual(body);

    const latest = (await get(`check=${check.id}&start=2h&count=1`)).json() as typeof body;
    expect(latest.status.map((point) => point.duration)).toEqual([50]);
    // Three days: hourly buckets; both early runs and the later one fall in their hours.
    const days = (await get(`check=${check.id}&start=3d`)).json() as typeof body;
    expect(days.bucketSeconds).toBe(3600);
    expect(days.status.reduce((sum, point) => sum + point.passed + point.failed, 0)).toBe(3);

    expect((await get('start=1h')).json()).toEqual({ error: 'check is required', field: 'check' });
    const badCount = await get(`check=${check.id}&count=0`);
    expect(badCount.statusCode).toBe(400);
    expect(badCount.json()).toEqual({
      error: 'count must be a whole number from 1 to 10000',
      field: 'count',
    });
    expect((await get(`check=${check.id}&count=many`)).json()).toMatchObject({ field: 'count' });
    expect((await get('check=00000000-0000-4000-8000-000000000001')).statusCode).toBe(404);
    const malformed = await get('check=not-a-uuid');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ error: 'check must be a check id (a UUID)', field: 'check' });
  });
});
