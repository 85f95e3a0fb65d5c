import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanary } from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { runCanaryChecks } from './canary-runner.js';
import { loadCanary, type CanaryRow, type SyncedCheck } from './canary-sync.js';
import { startTestTarget, type TestTarget } from './test-fixtures/targets.js';

const logger = pino({ level: 'silent' });
let db: TestDatabase;
let target: TestTarget;
let emptyDir: string;

beforeAll(async () => {
  db = await createTestDatabase();
  target = await startTestTarget();
  emptyDir = await mkdtemp(path.join(tmpdir(), 'opsdeck-empty-'));
});

afterAll(async () => {
  await target?.close();
  await db?.close();
  if (emptyDir) await rm(emptyDir, { recursive: true, force: true });
});

async function canaryRow(spec: Record<string, unknown>): Promise<CanaryRow> {
  const created = await createCanary(db.pool, { spec });
  const row = await loadCanary(db.pool, created.id);
  if (!row) throw new Error('canary not stored');
  return row;
}

interface StatusRow {
  name: string;
  status: boolean;
  message: string | null;
  error: string | null;
  time: Date;
}

async function statuses(canaryId: string): Promise<Record<string, StatusRow[]>> {
  const { rows } = await db.pool.query<StatusRow>(
    `SELECT c.name, s.status, s.message, s.error, s.time
     FROM check_statuses s JOIN checks c ON c.id = s.check_id
     WHERE c.canary_id = $1 ORDER BY s.time`,
    [canaryId],
  );
  const out: Record<string, StatusRow[]> = {};
  for (const row of rows) (out[row.name] ??= []).push(row);
  return out;
}

const run = (canary: CanaryRow, extra: { filter?: (check: SyncedCheck) => boolean } = {}) =>
  runCanaryChecks(canary, { pool: db.pool, logger, checkTimeoutMs: 3000, concurrency: 4, ...extra });

describe('dependsOn', () => {
  it('runs a check after the checks it depends on and shows it their results', async () => {
    const canary = await canaryRow({
      http: [
        // Declared first, so only the dependency makes it wait.
        {
          name: 'second',
          url: `${target.baseUrl}/ok`,
          dependsOn: ['first'],
          test: { expr: 'dependsOn.first.pass && dependsOn.first.code == 200' },
          display: {
            expr: "'first answered ' + string(dependsOn.first.code) + ': ' + dependsOn.first.content",
          },
        },
        { name: 'first', url: `${target.baseUrl}/ok` },
        {
          name: 'third',
          url: `${target.baseUrl}/ok`,
          dependsOn: 'second',
          test: { expr: 'dependsOn.second.pass' },
        },
      ],
    });
    const summary = await run(canary);
    expect(summary).toMatchObject({ total: 3, success: 3, failed: 0, errors: [] });
    const rows = await statuses(canary.id);
    expect(rows.second[0]).toMatchObject({
      status: true,
      message: 'first answered 200: status 200',
      error: null,
    });
    expect(rows.third[0].status).toBe(true);
    // Each started after its dependency's result was known.
    expect(rows.second[0].time.getTime()).toBeGreaterThanOrEqual(rows.first[0].time.getTime());
    expect(rows.third[0].time.getTime()).toBeGreaterThanOrEqual(rows.second[0].time.getTime());
  });

  it('records a check whose dependency failed as failed without running it, and refuses unknown names and cycles', async () => {
    const before = target.hits.get('/never-called') ?? 0;
    const canary = await canaryRow({
      http: [
        { name: 'broken', url: `${target.baseUrl}/fail`, responseCodes: [200] },
        { name: 'after-broken', url: `${target.baseUrl}/never-called`, dependsOn: ['broken'] },
        { name: 'after-that', url: `${target.baseUrl}/never-called`, dependsOn: ['after-broken'] },
        { name: 'typo', url: `${target.baseUrl}/never-called`, dependsOn: ['no-such-check'] },
        { name: 'loop-a', url: `${target.baseUrl}/never-called`, dependsOn: ['loop-b'] },
        { name: 'loop-b', url: `${target.baseUrl}/never-called`, dependsOn: ['loop-a'] },
        { name: 'bad-field', url: `${target.baseUrl}/never-called`, dependsOn: { name: 'broken' } },
      ],
    });
    const summary = await run(canary);
    expect(summary.total).toBe(7);
    expect(summary.failed).toBe(7);
    const rows = await statuses(canary.id);
    expect(rows['after-broken'][0]).toMatchObject({
      status: false,
      message: 'not run because "broken" failed',
      error: 'skipped: dependency "broken" failed',
    });
    expect(rows['after-that'][0].error).toBe('skipped: dependency "after-broken" failed');
    expect(rows.typo[0].error).toBe('dependsOn: no check named "no-such-check" in canary');
    expect(rows['loop-a'][0].error).toMatch(
      /^dependsOn: circular dependency loop-(a|b) → loop-(a|b) → loop-(a|b)$/,
    );
    expect(rows['loop-b'][0].error).toMatch(/^dependsOn: circular dependency /);
    expect(rows['bad-field'][0].error).toBe('dependsOn: must be a list of check names');
    expect(target.hits.get('/never-called') ?? 0).toBe(before);
    const { rows: checks } = await db.pool.query<{ name: string; status: string }>(
      'SELECT name, status FROM checks WHERE canary_id = $1 ORDER BY name',
      [canary.id],
    );
    expect(checks.every((check) => check.status === 'unhealthy')).toBe(true);
  });

  it('also runs the dependencies of a check run on its own (Run Now)', async () => {
    const canary = await canaryRow({
      http: [
        { name: 'login', url: `${target.baseUrl}/ok` },
        { name: 'unrelated', url: `${target.baseUrl}/ok` },
        {
          name: 'profile',
          url: `${target.baseUrl}/ok`,
          dependsOn: ['login'],
          test: { expr: 'dependsOn.login.code == 200' },
        },
      ],
    });
    const summary = await run(canary, { filter: (check) => check.entry.name === 'profile' });
    expect(summary).toMatchObject({ total: 2, success: 2 });
    const rows = await statuses(canary.id);
    expect(Object.keys(rows).sort()).toEqual(['login', 'profile']);
  });
});

describe('retries and markFailOnEmpty in real runs', () => {
  it('retries a failing check as often as its own or its canary’s retries say', async () => {
    const canary = await canaryRow({
      retries: { maxRetries: 1, interval: '10ms' },
      http: [
        { name: 'own', url: `${target.baseUrl}/retry-own`, retries: { maxRetries: 2, interval: '10ms' } },
        { name: 'inherited', url: `${target.baseUrl}/retry-canary` },
        { name: 'no-retry', url: `${target.baseUrl}/retry-disabled`, retries: { disabled: true } },
      ],
    });
    const summary = await run(canary);
    expect(summary.failed).toBe(3);
    expect(target.hits.get('/retry-own')).toBe(3);
    expect(target.hits.get('/retry-canary')).toBe(2);
    expect(target.hits.get('/retry-disabled')).toBe(1);
    // One status per run, whatever the attempts.
    const rows = await statuses(canary.id);
    expect(rows.own).toHaveLength(1);
  });

  it('fails a check that found nothing only when markFailOnEmpty is set', async () => {
    const canary = await canaryRow({
      folder: [
        { name: 'empty-allowed', path: emptyDir },
        { name: 'empty-refused', path: emptyDir, markFailOnEmpty: true },
      ],
    });
    await run(canary);
    const rows = await statuses(canary.id);
    expect(rows['empty-allowed'][0]).toMatchObject({ status: true, error: null });
    expect(rows['empty-refused'][0]).toMatchObject({
      status: false,
      error: 'check returned an empty result',
    });
  });
});
