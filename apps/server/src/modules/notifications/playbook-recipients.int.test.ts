import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCheck } from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { createJobsService, enqueueEvent, type JobsService } from '../../platform/jobs/index.js';
import { waitFor } from '../../platform/jobs/test-fixtures/helpers.js';
import { startPlaybookRunForNotification } from '../playbooks/index.js';
import { startNotificationWorkers } from './workers.js';

/**
 * A notification whose recipient is a playbook (spec settings §2.2/§3: the notification is a
 * permission subject): the event starts one run of the playbook, bound to the event's check,
 * when the notification holds playbook:run on it; without it, or with a Deny, the send history
 * says why and no run starts. Real queue, real delivery workers.
 */
const logger = pino({ level: 'silent' });
let db: TestDatabase;
let jobs: JobsService;
let workers: { stop(): void };

beforeAll(async () => {
  db = await createTestDatabase();
  jobs = createJobsService({
    pool: db.pool,
    logger,
    events: { pollIntervalMs: 20, backoff: { baseMs: 50, maxMs: 200 } },
  });
  workers = startNotificationWorkers({
    pool: db.pool,
    jobs,
    logger,
    maxAttempts: 3,
    services: { startPlaybookRunForNotification },
  });
  await jobs.start();
});

afterAll(async () => {
  workers?.stop();
  await jobs?.stop({ graceMs: 1000 });
  await db?.close();
});

beforeEach(async () => {
  await db.pool.query('DELETE FROM notification_send_history');
  await db.pool.query('DELETE FROM permissions');
  await db.pool.query('DELETE FROM notifications');
  await db.pool.query('DELETE FROM playbook_runs');
  await db.pool.query('DELETE FROM playbooks');
});

async function playbook(name: string): Promise<string> {
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO playbooks (name, spec) VALUES ($1, $2) RETURNING id`,
    [
      name,
      JSON.stringify({
        checks: [{ types: ['http'] }],
        parameters: [{ name: 'reason', default: 'paged by a notification' }],
        actions: [{ name: 'say', exec: { script: 'echo restarting' } }],
      }),
    ],
  );
  return rows[0].id;
}

async function rule(name: string, to: Record<string, unknown>): Promise<string> {
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO notifications (name, spec, events, title) VALUES ($1, $2, $3, 'Check failed') RETURNING id`,
    [name, JSON.stringify({ events: ['check.failed'], to }), ['check.failed']],
  );
  return rows[0].id;
}

async function grant(notificationId: string, playbookId: string | null, action: string, deny = false) {
  await db.pool.query(
    `INSERT INTO permissions (subject_type, notification_id, playbook_id, object, action, deny)
     VALUES ('notification', $1, $2, $3, $4, $5)`,
    [notificationId, playbookId, playbookId ? null : 'playbooks', action, deny],
  );
}

async function failCheck(name: string) {
  const check = await createCheck(db.pool, { name });
  await enqueueEvent(db.pool, 'check.failed', {
    id: check.id,
    check_id: check.id,
    canary_id: check.canary_id,
    name: check.name,
    status: 'unhealthy',
    error: 'HTTP 503',
  });
  return check;
}

async function settled(ruleId: string) {
  return waitFor(
    async () => {
      const { rows } = await db.pool.query<{
        status: string;
        error: string | null;
        playbook_run_id: string | null;
      }>(`SELECT status, error, playbook_run_id FROM notification_send_history WHERE notification_id = $1`, [
        ruleId,
      ]);
      return rows.length > 0 && rows.every((row) => row.status === 'sent' || row.status === 'failed')
        ? rows
        : undefined;
    },
    { timeoutMs: 15_000, what: 'the notification to settle' },
  );
}

describe('playbook recipients', () => {
  it('start one run of the playbook, bound to the failed check, when the notification may run it', async () => {
    const playbookId = await playbook('restart-api');
    const ruleId = await rule('page-restart', { playbook: 'default/restart-api' });
    await grant(ruleId, playbookId, 'playbook:run');
    const check = await failCheck('orders-api');

    const [row] = await settled(ruleId);
    expect(row).toMatchObject({ status: 'sent', error: null });
    const { rows: runs } = await db.pool.query(
      `SELECT id, playbook_id, check_id, status, parameters, request FROM playbook_runs`,
    );
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      id: row!.playbook_run_id,
      playbook_id: playbookId,
      check_id: check.id,
      status: 'scheduled',
      parameters: { reason: 'paged by a notification' },
      request: { trigger: 'notification', notification_id: ruleId, event: 'check.failed' },
    });
  });

  it('start nothing without playbook:run, and say so in the send history', async () => {
    await playbook('restart-api');
    const ruleId = await rule('page-restart', { playbook: 'restart-api' });
    await failCheck('billing-api');

    const [row] = await settled(ruleId);
    expect(row).toMatchObject({
      status: 'failed',
      error: 'the notification has no playbook:run permission on playbook default/restart-api',
      playbook_run_id: null,
    });
    const { rowCount } = await db.pool.query('SELECT 1 FROM playbook_runs');
    expect(rowCount).toBe(0);
  });

  it('honour a Deny over a grant on every playbook, and name a missing playbook', async () => {
    const playbookId = await playbook('restart-api');
    const denied = await rule('denied', { playbook: 'restart-api' });
    await grant(denied, null, 'playbook:*');
    await grant(denied, playbookId, 'playbook:run', true);
    const missing = await rule('missing', { playbook: 'ops/nope' });
    await failCheck('search-api');

    expect((await settled(denied))[0]).toMatchObject({
      status: 'failed',
      error: 'the notification has no playbook:run permission on playbook default/restart-api',
    });
    expect((await settled(missing))[0]).toMatchObject({
      status: 'failed',
      error: 'playbook ops/nope was not found',
    });
    const { rowCount } = await db.pool.query('SELECT 1 FROM playbook_runs');
    expect(rowCount).toBe(0);
  });
});
