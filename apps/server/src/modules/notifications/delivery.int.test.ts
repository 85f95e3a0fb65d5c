import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCheck, createConfigItem } from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { createJobsService, enqueueEvent, type JobsService } from '../../platform/jobs/index.js';
import { waitFor } from '../../platform/jobs/test-fixtures/helpers.js';
import { startSmtpCapture } from '../auth/test-fixtures/smtp-capture.js';
import { startHttpPeer } from './test-fixtures/http-peer.js';
import { startNotificationWorkers } from './workers.js';

/**
 * The delivery engine end to end: events enqueued as the health module does (check.failed on the
 * real queue, copied to notification.check.failed once per subscribing notification by the
 * platform's fan-out, migration 0290), the module's consumer
 * started on a real jobs service, real SMTP and HTTP peers receiving.
 */
const logger = pino({ level: 'silent' });
let db: TestDatabase;
let jobs: JobsService;
let workers: { stop(): void };
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
let hook: Awaited<ReturnType<typeof startHttpPeer>>;
let broken: Awaited<ReturnType<typeof startHttpPeer>>;

beforeAll(async () => {
  db = await createTestDatabase();
  smtp = await startSmtpCapture();
  hook = await startHttpPeer();
  broken = await startHttpPeer(() => ({ status: 500, body: 'upstream exploded' }));
  jobs = createJobsService({
    pool: db.pool,
    logger,
    events: { pollIntervalMs: 20, backoff: { baseMs: 50, maxMs: 200 } },
  });
  workers = startNotificationWorkers({
    pool: db.pool,
    jobs,
    logger,
    smtp: { url: smtp.url, from: 'Opsdeck <alerts@opsdeck.test>' },
    maxAttempts: 3,
    groupWaitMs: 1500,
  });
  await jobs.start();
});

afterAll(async () => {
  workers?.stop();
  await jobs?.stop({ graceMs: 1000 });
  await Promise.all([smtp?.close(), hook?.close(), broken?.close()]);
  await db?.close();
});

beforeEach(async () => {
  await db.pool.query('DELETE FROM notification_send_history');
  await db.pool.query('DELETE FROM notification_silences');
  await db.pool.query('DELETE FROM notifications');
  hook.requests.length = 0;
  broken.requests.length = 0;
});

async function createRule(
  name: string,
  spec: Record<string, unknown>,
  columns: Record<string, unknown> = {},
) {
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO notifications (name, spec, events, title, template, filter, repeat_interval, wait_for, group_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
    [
      name,
      JSON.stringify(spec),
      spec.events,
      spec.title ?? null,
      spec.template ?? null,
      spec.filter ?? null,
      spec.repeatInterval ?? null,
      spec.waitFor ?? null,
      spec.groupBy ?? null,
      ...Object.values(columns),
    ],
  );
  return rows[0].id;
}

async function failCheck(check: Record<string, unknown> & { id: string }, error = 'HTTP 503') {
  await db.pool.query(`UPDATE checks SET status = 'unhealthy' WHERE id = $1`, [check.id]);
  return enqueueEvent(db.pool, 'check.failed', {
    id: check.id,
    check_id: check.id,
    canary_id: check.canary_id,
    name: check.name,
    status: 'unhealthy',
    error,
  });
}

async function history(ruleId: string) {
  const { rows } = await db.pool.query<{
    status: string;
    recipient: string | null;
    error: string | null;
    title: string | null;
    body: string | null;
    count: number;
    parent_id: string | null;
    silenced_by: string | null;
    attempts: { status: string }[];
  }>(
    `SELECT status, recipient, error, title, body, count, parent_id, silenced_by, attempts
       FROM notification_send_history WHERE notification_id = $1 ORDER BY created_at, id`,
    [ruleId],
  );
  return rows;
}

describe('notification delivery', () => {
  it('emails the rendered title and body through a real SMTP server', async () => {
    const check = await createCheck(db.pool, { name: 'checkout-api' });
    const ruleId = await createRule('oncall-email', {
      events: ['check.failed'],
      title: '{{.check.name}} is down',
      template: 'Error was: {{.check.error}} (canary {{.canary.name}})',
      to: { email: 'oncall@example.test' },
    });
    await failCheck(check, 'HTTP 503 from upstream');
    const [mail] = await smtp.waitFor(1);
    expect(mail.to).toEqual(['oncall@example.test']);
    expect(mail.raw).toMatch(/^Subject: checkout-api is down$/m);
    expect(mail.text).toContain('Error was: HTTP 503 from upstream (canary ');
    await waitFor(async () => (await history(ruleId))[0]?.status === 'sent');
    const [row] = await history(ruleId);
    expect(row).toMatchObject({
      status: 'sent',
      recipient: 'oncall@example.test',
      title: 'checkout-api is down',
      error: null,
    });
    smtp.messages.length = 0;
  });

  it('uses the default template of the event, and only rules whose CEL filter matches', async () => {
    const check = await createCheck(db.pool, { name: 'payments' });
    const matching = await createRule('payments-hook', {
      events: ['check.failed'],
      filter: "check.name == 'payments'",
      to: { url: `${hook.origin}/hook` },
    });
    const other = await createRule('others-hook', {
      events: ['check.failed'],
      filter: "check.name == 'something-else'",
      to: { url: `${hook.origin}/other` },
    });
    await failCheck(check);
    await waitFor(async () => (await history(matching))[0]?.status === 'sent');
    expect(hook.requests.map((request) => request.path)).toEqual(['/hook']);
    expect(JSON.parse(hook.requests[0].body)).toMatchObject({ title: 'Check payments has failed' });
    expect(JSON.parse(hook.requests[0].body).message).toContain('Error: HTTP 503');
    expect(await history(other)).toEqual([]);
  });

  it('retries a failing channel with backoff, records each attempt and the error, then falls back', async () => {
    const check = await createCheck(db.pool);
    const ruleId = await createRule('flaky', {
      events: ['check.failed'],
      to: { url: `${broken.origin}/primary` },
      fallback: { url: `${hook.origin}/fallback` },
    });
    await failCheck(check);
    await waitFor(async () => (await history(ruleId)).some((row) => row.status === 'sent'), {
      timeoutMs: 10_000,
    });
    const rows = await history(ruleId);
    expect(broken.requests).toHaveLength(3);
    const primary = rows.find((row) => row.recipient === `${broken.origin.replace(/:\d+$/, '')}`)!;
    expect(primary.status).toBe('failed');
    expect(primary.error).toBe('webhook: HTTP 500: upstream exploded');
    expect(primary.attempts.map((attempt) => attempt.status)).toEqual(['retrying', 'retrying', 'failed']);
    expect(hook.requests.map((request) => request.path)).toEqual(['/fallback']);
    const { rows: rule } = await db.pool.query('SELECT error FROM notifications WHERE id = $1', [ruleId]);
    expect(rule[0].error).toBeNull();
  });

  it('sends nothing about a silenced resource, and records the silence', async () => {
    const check = await createCheck(db.pool);
    const ruleId = await createRule('silenced', {
      events: ['check.failed'],
      to: { url: `${hook.origin}/s` },
    });
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO notification_silences (check_id, until) VALUES ($1, NULL) RETURNING id`,
      [check.id],
    );
    // An expired silence and one whose filter does not match change nothing.
    await db.pool.query(
      `INSERT INTO notification_silences (check_id, "from", until) VALUES ($1, now() - interval '2 hours', now() - interval '1 hour')`,
      [check.id],
    );
    await failCheck(check);
    await waitFor(async () => (await history(ruleId)).length === 1);
    expect(await history(ruleId)).toMatchObject([{ status: 'silenced', silenced_by: rows[0].id }]);
    expect(hook.requests).toEqual([]);
  });

  it('a silence by CEL filter matches only what its filter selects', async () => {
    const quiet = await createCheck(db.pool, { name: 'quiet-one' });
    const loud = await createCheck(db.pool, { name: 'loud-one' });
    const ruleId = await createRule('by-filter', {
      events: ['check.failed'],
      to: { url: `${hook.origin}/f` },
    });
    await db.pool.query(`INSERT INTO notification_silences (filter) VALUES ($1)`, [
      "check.name.startsWith('quiet')",
    ]);
    await failCheck(quiet);
    await failCheck(loud);
    await waitFor(
      async () =>
        (await history(ruleId)).length === 2 &&
        (await history(ruleId)).every((row) => row.status !== 'pending'),
    );
    expect((await history(ruleId)).map((row) => row.status).sort()).toEqual(['sent', 'silenced']);
    expect(hook.requests).toHaveLength(1);
  });

  it('a silence by selectors matches the resources its selectors select, with its filter', async () => {
    const prodDb = await createCheck(db.pool, { name: 'db-prod', labels: { env: 'prod' } });
    const stagingDb = await createCheck(db.pool, { name: 'db-staging', labels: { env: 'staging' } });
    const prodWeb = await createCheck(db.pool, { name: 'web-prod', labels: { env: 'prod' } });
    const ruleId = await createRule('by-selectors', {
      events: ['check.failed'],
      to: { url: `${hook.origin}/sel` },
    });
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO notification_silences (selectors, filter) VALUES ($1, $2) RETURNING id`,
      [JSON.stringify([{ name: 'db-*', labelSelector: 'env=prod' }]), "check.type == 'http'"],
    );
    for (const check of [prodDb, stagingDb, prodWeb]) await failCheck(check);
    await waitFor(
      async () =>
        (await history(ruleId)).length === 3 &&
        (await history(ruleId)).every((row) => row.status !== 'pending'),
    );
    const byName = Object.fromEntries(
      (
        await db.pool.query<{ name: string; status: string; silenced_by: string | null }>(
          `SELECT ck.name, s.status, s.silenced_by FROM notification_send_history s JOIN checks ck ON ck.id = s.resource_id
            WHERE s.notification_id = $1`,
          [ruleId],
        )
      ).rows.map((row) => [row.name, [row.status, row.silenced_by]]),
    );
    expect(byName).toEqual({
      'db-prod': ['silenced', rows[0].id],
      'db-staging': ['sent', null],
      'web-prod': ['sent', null],
    });
    expect(hook.requests).toHaveLength(2);
  });

  it('repeatInterval skips the same event about the same resource within it', async () => {
    const check = await createCheck(db.pool);
    const ruleId = await createRule('repeat', {
      events: ['check.failed'],
      repeatInterval: '1h',
      to: { url: `${hook.origin}/r` },
    });
    await failCheck(check);
    await waitFor(async () => (await history(ruleId))[0]?.status === 'sent');
    await failCheck(check);
    await waitFor(async () => (await history(ruleId)).length === 2);
    expect((await history(ruleId)).map((row) => row.status)).toEqual(['sent', 'repeat-interval']);
    expect(hook.requests).toHaveLength(1);
  });

  it('groupBy collapses many failures into one message per group', async () => {
    const ruleId = await createRule('grouped', {
      events: ['check.failed'],
      groupBy: ['check.type'],
      groupByInterval: '1h',
      to: { url: `${hook.origin}/g` },
    });
    const checks = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        createCheck(db.pool, { type: index % 2 === 0 ? 'http' : 'tcp' }),
      ),
    );
    for (const check of checks) await failCheck(check);
    await waitFor(async () => (await history(ruleId)).length === 60, { timeoutMs: 20_000 });
    await waitFor(async () => (await history(ruleId)).every((row) => row.status !== 'pending'), {
      timeoutMs: 5000,
    });
    const rows = await history(ruleId);
    const leaders = rows.filter((row) => row.status === 'sent');
    expect(leaders).toHaveLength(2);
    expect(rows.filter((row) => row.status === 'grouped')).toHaveLength(58);
    expect(leaders.map((row) => row.count).sort()).toEqual([30, 30]);
    expect(hook.requests).toHaveLength(2);
  });

  it('inhibitions: a message about a failing parent suppresses its children of the listed types', async () => {
    const ruleId = await createRule('inhibited', {
      events: ['config.unhealthy'],
      inhibitions: [{ direction: 'outgoing', from: ['Kubernetes::Deployment'], to: ['Kubernetes::Pod'] }],
      to: { url: `${hook.origin}/i` },
    });
    const deployment = await createConfigItem(db.pool, {
      type: 'Kubernetes::Deployment',
      health: 'unhealthy',
    });
    const pod = await createConfigItem(db.pool, {
      health: 'unhealthy',
      parent_id: deployment.id,
      path: deployment.id,
    });
    const quietDeployment = await createConfigItem(db.pool, { type: 'Kubernetes::Deployment' });
    const orphan = await createConfigItem(db.pool, {
      health: 'unhealthy',
      parent_id: quietDeployment.id,
      path: quietDeployment.id,
    });
    const resources = async () => {
      const { rows } = await db.pool.query<{ resource_id: string; status: string }>(
        `SELECT resource_id, status FROM notification_send_history WHERE notification_id = $1 ORDER BY created_at, id`,
        [ruleId],
      );
      return rows;
    };
    await enqueueEvent(db.pool, 'config.unhealthy', { id: deployment.id, health: 'unhealthy' });
    await waitFor(async () => (await resources()).some((row) => row.status === 'sent'));
    await enqueueEvent(db.pool, 'config.unhealthy', { id: pod.id, health: 'unhealthy' });
    // The child of a parent nothing was sent about is not inhibited.
    await enqueueEvent(db.pool, 'config.unhealthy', { id: orphan.id, health: 'unhealthy' });
    await waitFor(async () => {
      const rows = await resources();
      return rows.length === 3 && rows.every((row) => row.status !== 'pending');
    });
    expect(new Map((await resources()).map((row) => [row.resource_id, row.status]))).toEqual(
      new Map([
        [deployment.id, 'sent'],
        [pod.id, 'inhibited'],
        [orphan.id, 'sent'],
      ]),
    );
    expect(hook.requests).toHaveLength(2);
  });

  it('a recursive silence on a parent silences its children; without recursive only the parent', async () => {
    const ruleId = await createRule('recursive', {
      events: ['config.unhealthy'],
      to: { url: `${hook.origin}/r` },
    });
    const parent = await createConfigItem(db.pool, { type: 'Kubernetes::Namespace', health: 'unhealthy' });
    const child = await createConfigItem(db.pool, {
      health: 'unhealthy',
      parent_id: parent.id,
      path: parent.id,
    });
    const otherParent = await createConfigItem(db.pool, { type: 'Kubernetes::Namespace' });
    const otherChild = await createConfigItem(db.pool, {
      health: 'unhealthy',
      parent_id: otherParent.id,
      path: otherParent.id,
    });
    await db.pool.query(
      `INSERT INTO notification_silences (config_id, recursive, until) VALUES ($1, true, NULL), ($2, false, NULL)`,
      [parent.id, otherParent.id],
    );
    for (const item of [child, otherChild]) {
      await enqueueEvent(db.pool, 'config.unhealthy', { id: item.id, health: 'unhealthy' });
    }
    const statuses = async () => {
      const { rows } = await db.pool.query<{ resource_id: string; status: string }>(
        `SELECT resource_id, status FROM notification_send_history WHERE notification_id = $1`,
        [ruleId],
      );
      return new Map(rows.map((row) => [row.resource_id, row.status]));
    };
    await waitFor(async () => {
      const found = await statuses();
      return found.size === 2 && ![...found.values()].includes('pending');
    });
    expect(await statuses()).toEqual(
      new Map([
        [child.id, 'silenced'],
        [otherChild.id, 'sent'],
      ]),
    );
  });

  it('a group sends one message listing every resource of the group', async () => {
    const ruleId = await createRule('grouped-list', {
      events: ['check.failed'],
      groupBy: ['check.type'],
      to: { url: `${hook.origin}/gl` },
    });
    const names = ['orders-db', 'orders-api', 'orders-web', 'orders-cache'];
    const checks = [];
    for (const name of names) checks.push(await createCheck(db.pool, { name, type: 'postgres' }));
    for (const check of checks) await failCheck(check);
    await waitFor(async () => (await history(ruleId)).some((row) => row.status === 'sent'), {
      timeoutMs: 10_000,
    });
    expect(hook.requests).toHaveLength(1);
    const sent = JSON.parse(hook.requests[0].body) as { title: string; message: string };
    expect(sent.title).toBe('Check orders-db has failed (and 3 more)');
    expect(sent.message).toContain('4 resources in this group:');
    for (const name of names) expect(sent.message).toContain(`- ${name} (check postgres)`);
    const rows = await history(ruleId);
    expect(rows.map((row) => row.status).sort()).toEqual(['grouped', 'grouped', 'grouped', 'sent']);
    expect(rows.find((row) => row.status === 'sent')?.body).toContain('- orders-cache (check postgres)');
  });

  it('keeps one subscription row per queue event of a live notification, none once it is deleted', async () => {
    const ruleId = await createRule('subscribed', {
      events: [
        'check.failed',
        'incident.status.resolved',
        'incident.status.closed',
        'incident.comment.added',
      ],
      to: { url: `${hook.origin}/sub` },
    });
    const subscriptions = async () =>
      (
        await db.pool.query<{ event_name: string }>(
          `SELECT event_name FROM event_queue_subscriptions WHERE subscriber = 'notification' AND owner_id = $1
            ORDER BY event_name`,
          [ruleId],
        )
      ).rows.map((row) => row.event_name);
    expect(await subscriptions()).toEqual(['check.failed', 'incident.status_updated', 'responder.commented']);
    await db.pool.query(`UPDATE notifications SET events = ARRAY['config.unhealthy'] WHERE id = $1`, [
      ruleId,
    ]);
    expect(await subscriptions()).toEqual(['config.unhealthy']);
    await db.pool.query('UPDATE notifications SET deleted_at = now() WHERE id = $1', [ruleId]);
    expect(await subscriptions()).toEqual([]);
    // Copies counted inside the transaction that raises the event (no worker can take them yet).
    const copiesOf = async (name: string) => {
      const client = await db.pool.connect();
      try {
        await client.query('BEGIN');
        const eventId = await enqueueEvent(client, name, { id: '00000000-0000-0000-0000-000000000001' });
        const { rows } = await client.query<{ name: string; owner: string }>(
          `SELECT name, properties ->> 'subscription_owner' AS owner FROM event_queue
            WHERE properties ->> 'event_id' = $1`,
          [eventId],
        );
        return rows;
      } finally {
        await client.query('ROLLBACK');
        client.release();
      }
    };
    expect(await copiesOf('check.failed')).toEqual([]);
    const live = await createRule('live', { events: ['check.failed'], to: { url: `${hook.origin}/l` } });
    expect(await copiesOf('check.failed')).toEqual([{ name: 'notification.check.failed', owner: live }]);
  });

  it('two notifications on one event each get their own copy and send once', async () => {
    const check = await createCheck(db.pool, { name: 'twice' });
    const first = await createRule('first', { events: ['check.failed'], to: { url: `${hook.origin}/one` } });
    const second = await createRule('second', {
      events: ['check.failed'],
      to: { url: `${hook.origin}/two` },
    });
    await failCheck(check);
    await waitFor(
      async () =>
        (await history(first))[0]?.status === 'sent' && (await history(second))[0]?.status === 'sent',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(hook.requests.map((request) => request.path).sort()).toEqual(['/one', '/two']);
  });

  it('waitFor sends nothing when the check recovered meanwhile', async () => {
    const flapping = await createCheck(db.pool);
    const steady = await createCheck(db.pool);
    const ruleId = await createRule('wait', {
      events: ['check.failed'],
      waitFor: '300ms',
      to: { url: `${hook.origin}/w` },
    });
    await failCheck(flapping);
    await failCheck(steady);
    await db.pool.query(`UPDATE checks SET status = 'healthy' WHERE id = $1`, [flapping.id]);
    await waitFor(async () => (await history(ruleId)).some((row) => row.status === 'sent'), {
      timeoutMs: 5000,
    });
    await waitFor(async () => (await history(ruleId)).filter((row) => row.status === 'skipped').length === 1);
    expect(hook.requests).toHaveLength(1);
    expect((await history(ruleId)).map((row) => row.status).sort()).toEqual(['sent', 'skipped', 'waited']);
  });

  it('an incident created through the database is announced once', async () => {
    const ruleId = await createRule('incidents', {
      events: ['incident.created'],
      to: { url: `${hook.origin}/i` },
    });
    await db.pool.query(
      `INSERT INTO incidents (title, type, severity) VALUES ('Checkout down', 'availability', 'high')`,
    );
    await waitFor(async () => (await history(ruleId))[0]?.status === 'sent');
    expect(JSON.parse(hook.requests[0].body)).toMatchObject({ title: 'Incident created: Checkout down' });
    // Nothing else arrives for the same incident (one event, one message).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(hook.requests).toHaveLength(1);
    expect(await history(ruleId)).toHaveLength(1);
  });

  it('an incident status change is incident.status.<status>', async () => {
    const ruleId = await createRule('incident-status', {
      events: ['incident.status.resolved'],
      to: { url: `${hook.origin}/st` },
    });
    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO incidents (title, type, severity) VALUES ('Queue stuck', 'availability', 'high') RETURNING id`,
    );
    await db.pool.query(`UPDATE incidents SET status = 'resolved' WHERE id = $1`, [rows[0].id]);
    await waitFor(async () => (await history(ruleId))[0]?.status === 'sent');
    expect(JSON.parse(hook.requests[0].body)).toMatchObject({ title: 'Incident Queue stuck is resolved' });
  });
});
