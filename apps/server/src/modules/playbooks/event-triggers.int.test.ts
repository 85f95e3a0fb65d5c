import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCheck, createConfigItem } from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { createJobsService, enqueueEvent, type JobsService } from '../../platform/jobs/index.js';
import { waitFor } from '../../platform/jobs/test-fixtures/helpers.js';
import type { ModuleWorkers } from '../../server-module.js';
import { recordCheckResult } from '../health/check-recorder.js';
import { playbookSpec } from './playbook-kind.js';
import { startPlaybookWorkers } from './workers.js';

const logger = pino({ level: 'silent' });
let db: TestDatabase;
const processes: { jobs: JobsService; workers: ModuleWorkers }[] = [];

/** Two "processes" (jobs services with their own worker ids) sharing one database. */
beforeAll(async () => {
  db = await createTestDatabase();
  for (let index = 0; index < 2; index += 1) {
    const jobs = createJobsService({ pool: db.pool, logger, events: { pollIntervalMs: 30 } });
    const workers = await startPlaybookWorkers({
      pool: db.pool,
      jobs,
      logger,
      metrics: undefined as never,
      cancelPollMs: 100,
      schedulePollMs: 60_000,
    });
    await jobs.start();
    processes.push({ jobs, workers });
  }
}, 60_000);

afterAll(async () => {
  for (const { jobs, workers } of processes) {
    await jobs.stop({ graceMs: 1000 });
    await workers.stop();
  }
  await db?.close();
});

beforeEach(async () => {
  await db.pool.query('UPDATE playbooks SET deleted_at = now() WHERE deleted_at IS NULL');
});

async function createPlaybook(name: string, spec: Record<string, unknown>): Promise<string> {
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO playbooks (name, title, spec) VALUES ($1, $2, $3) RETURNING id`,
    [name, name, spec],
  );
  return rows[0].id;
}

interface RunRow {
  id: string;
  status: string;
  check_id: string | null;
  config_id: string | null;
  component_id: string | null;
  request: Record<string, unknown>;
}

async function runsOf(playbookId: string): Promise<RunRow[]> {
  const { rows } = await db.pool.query<RunRow>(
    `SELECT id, status, check_id, config_id, component_id, request FROM playbook_runs WHERE playbook_id = $1`,
    [playbookId],
  );
  return rows;
}

async function queueIsIdle(): Promise<boolean> {
  const { rows } = await db.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM event_queue WHERE name LIKE 'playbook.trigger.%'`,
  );
  return rows[0].n === 0;
}

const echo = (text: string) => [{ name: 'echo', exec: { script: `echo ${text}` } }];

describe('on.canary', () => {
  it('a check that really fails starts one run bound to the check; the filter and labels choose the playbook', async () => {
    const check = await createCheck(db.pool, {
      type: 'http',
      labels: { team: 'payments' },
      status: 'healthy',
    });
    const onFailed = await createPlaybook('on-failed', {
      on: { canary: [{ event: 'failed', filter: "check.type == 'http'", labels: { team: 'payments' } }] },
      actions: echo('{{.check.name}} failed'),
    });
    const otherType = await createPlaybook('on-failed-dns', {
      on: { canary: [{ event: 'failed', filter: "check.type == 'dns'" }] },
      actions: echo('no'),
    });
    const otherLabels = await createPlaybook('on-failed-other-team', {
      on: { canary: [{ event: 'failed', labels: { team: 'search' } }] },
      actions: echo('no'),
    });
    const onPassed = await createPlaybook('on-passed', {
      on: { canary: [{ event: 'passed' }] },
      actions: echo('passed'),
    });

    await recordCheckResult(db.pool, String(check.id), String(check.canary_id), {
      startedAt: new Date().toISOString(),
      result: { pass: false, message: '', error: 'connection refused', duration: 12 } as never,
    });

    const [run] = await waitFor(
      async () => {
        const runs = await runsOf(onFailed);
        return runs.length === 1 && runs[0].status === 'completed' ? runs : undefined;
      },
      { timeoutMs: 15_000, what: 'the triggered run to complete' },
    );
    expect(run.check_id).toBe(check.id);
    expect(run.request).toMatchObject({ trigger: 'event', event: 'check.failed' });
    const { rows: actions } = await db.pool.query<{ result: { stdout?: string } }>(
      'SELECT result FROM playbook_run_actions WHERE playbook_run_id = $1',
      [run.id],
    );
    expect(actions[0].result.stdout?.trim()).toBe(`${String(check.name)} failed`);
    await waitFor(queueIsIdle, { what: 'the trigger copies to be consumed' });
    expect(await runsOf(otherType)).toHaveLength(0);
    expect(await runsOf(otherLabels)).toHaveLength(0);
    expect(await runsOf(onPassed)).toHaveLength(0);

    // Recovery: check.passed reaches only the passed playbook.
    await recordCheckResult(db.pool, String(check.id), String(check.canary_id), {
      startedAt: new Date(Date.now() + 1000).toISOString(),
      result: { pass: true, message: 'ok', error: '', duration: 5 } as never,
    });
    await waitFor(async () => (await runsOf(onPassed)).length === 1, { what: 'the passed run' });
    expect(await runsOf(onFailed)).toHaveLength(1);
  }, 30_000);
});

describe('on.config and on.component', () => {
  it('binds the config of config.updated and config.changed, and the component of component.unhealthy', async () => {
    const config = await createConfigItem(db.pool, {
      type: 'Kubernetes::Deployment',
      labels: { env: 'prod' },
    });
    const onUpdated = await createPlaybook('on-config-updated', {
      on: { config: [{ event: 'updated', filter: "config.type.startsWith('Kubernetes::')" }] },
      actions: echo('updated'),
    });
    const onChanged = await createPlaybook('on-config-changed', {
      on: { config: [{ event: 'changed', filter: "event.properties.change_type == 'diff'" }] },
      actions: echo('changed'),
    });
    // What the scraper raises, in the transaction of its write.
    await enqueueEvent(db.pool, 'config.updated', { id: config.id });
    // A recorded change raises config.changed (migration 0210) because a playbook subscribes.
    await db.pool.query(
      `INSERT INTO config_changes (config_id, change_type, summary) VALUES ($1, 'diff', 'replicas 1 -> 2'),
                                                                           ($1, 'Pulled', 'image pulled')`,
      [config.id],
    );
    const [updated] = await waitFor(
      async () => {
        const runs = await runsOf(onUpdated);
        return runs.length === 1 ? runs : undefined;
      },
      { what: 'the config.updated run' },
    );
    expect(updated.config_id).toBe(config.id);
    const [changed] = await waitFor(
      async () => {
        const runs = await runsOf(onChanged);
        return runs.length === 1 ? runs : undefined;
      },
      { what: 'the config.changed run' },
    );
    expect(changed.config_id).toBe(config.id);
    await waitFor(queueIsIdle, { what: 'the trigger copies to be consumed' });
    expect(await runsOf(onChanged)).toHaveLength(1);

    const { rows } = await db.pool.query<{ id: string }>(
      `INSERT INTO topologies (name) VALUES ('t-' || gen_random_uuid()) RETURNING id`,
    );
    const component = (
      await db.pool.query<{ id: string }>(
        `INSERT INTO components (name, type, topology_id, labels) VALUES ('db-1', 'database', $1, '{"env":"prod"}') RETURNING id`,
        [rows[0].id],
      )
    ).rows[0];
    const onUnhealthy = await createPlaybook('on-component-unhealthy', {
      on: {
        component: [{ event: 'unhealthy', filter: "component.type == 'database'", labels: { env: 'prod' } }],
      },
      actions: echo('unhealthy'),
    });
    await enqueueEvent(db.pool, 'component.unhealthy', { id: component.id });
    const [unhealthy] = await waitFor(
      async () => {
        const runs = await runsOf(onUnhealthy);
        return runs.length === 1 ? runs : undefined;
      },
      { what: 'the component run' },
    );
    expect(unhealthy.component_id).toBe(component.id);
  }, 30_000);
});

describe('exactly once', () => {
  it('many events at once across two processes: one run per (playbook, event), and a redelivered copy adds none', async () => {
    const config = await createConfigItem(db.pool);
    const first = await createPlaybook('once-a', {
      on: { config: [{ event: 'created' }] },
      actions: echo('a'),
    });
    const second = await createPlaybook('once-b', {
      on: { config: [{ event: 'created' }] },
      actions: echo('b'),
    });
    const eventIds: string[] = [];
    for (let index = 0; index < 20; index += 1) {
      eventIds.push(await enqueueEvent(db.pool, 'config.created', { id: config.id }));
    }
    await waitFor(async () => (await runsOf(first)).length === 20 && (await runsOf(second)).length === 20, {
      timeoutMs: 20_000,
      what: '20 runs of each playbook',
    });
    await waitFor(queueIsIdle, { what: 'the trigger copies to be consumed' });
    // The same copy delivered again (a process died after creating the run) starts nothing new.
    await db.pool.query(
      `INSERT INTO event_queue (name, properties) VALUES ('playbook.trigger.config.created', $1)`,
      [{ id: config.id, event_id: eventIds[0], event_name: 'config.created', subscription_owner: first }],
    );
    await waitFor(queueIsIdle, { what: 'the redelivered copy to be consumed' });
    expect(await runsOf(first)).toHaveLength(20);
    const perEvent = await db.pool.query<{ n: number }>(
      `SELECT count(DISTINCT request ->> 'event_id')::int AS n FROM playbook_runs WHERE playbook_id = $1`,
      [first],
    );
    expect(perEvent.rows[0].n).toBe(20);
  }, 40_000);

  it('subscriptions follow the spec: an edit or delete stops the copies', async () => {
    const id = await createPlaybook('follow', { on: { config: [{ event: 'deleted' }] }, actions: echo('x') });
    const names = async () =>
      (
        await db.pool.query<{ event_name: string }>(
          `SELECT event_name FROM event_queue_subscriptions WHERE owner_id = $1 ORDER BY event_name`,
          [id],
        )
      ).rows.map((row) => row.event_name);
    expect(await names()).toEqual(['config.deleted']);
    await db.pool.query(`UPDATE playbooks SET spec = $2 WHERE id = $1`, [
      id,
      { on: { canary: [{ event: 'failed' }], component: [{ event: 'warning' }] }, actions: echo('x') },
    ]);
    expect(await names()).toEqual(['check.failed', 'component.warning']);
    await db.pool.query(`UPDATE playbooks SET deleted_at = now() WHERE id = $1`, [id]);
    expect(await names()).toEqual([]);
  });
});

describe('the spec', () => {
  it('refuses an event the product does not raise, naming the field', () => {
    const result = playbookSpec.safeParse({ on: { canary: [{ event: 'exploded' }] } });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].path).toEqual(['on', 'canary', 0, 'event']);
    expect(playbookSpec.safeParse({ on: { config: [{ event: 'changed', filter: 'true' }] } }).success).toBe(
      true,
    );
  });
});
