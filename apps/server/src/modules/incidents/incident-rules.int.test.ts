import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCheck, createPerson } from '../../../test/harness/factories.js';
import { createTestDatabase, type TestDatabase } from '../../../test/harness/db.js';
import { createJobsService, enqueueEvent, type JobsService } from '../../platform/jobs/index.js';
import { waitFor } from '../../platform/jobs/test-fixtures/helpers.js';
import {
  applyCheckRecovery,
  applyRulesToFailedCheck,
  applyScheduledRecovery,
  applyScheduledRule,
  startIncidentWorkers,
  type IncidentWorkers,
  type RuleEvaluation,
} from './index.js';

const logger = pino({ level: 'silent' });
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  await db?.close();
});

beforeEach(async () => {
  // Each test states its own rules; incidents of earlier tests stay but name other checks.
  await db.pool.query('DELETE FROM incident_rules');
});

async function createRule(name: string, spec: Record<string, unknown>): Promise<string> {
  const { rows } = await db.pool.query<{ id: string }>(
    'INSERT INTO incident_rules (name, spec) VALUES ($1, $2) RETURNING id',
    [name, JSON.stringify(spec)],
  );
  return rows[0].id;
}

async function failingCheck(overrides: Record<string, unknown> = {}) {
  return createCheck(db.pool, { status: 'unhealthy', last_transition_time: new Date(), ...overrides });
}

async function setCheckStatus(
  checkId: string,
  status: 'healthy' | 'unhealthy',
  at = new Date(),
): Promise<void> {
  await db.pool.query('UPDATE checks SET status = $2, last_transition_time = $3 WHERE id = $1', [
    checkId,
    status,
    at,
  ]);
}

async function incidentsOfCheck(checkId: string) {
  const { rows } = await db.pool.query<{
    id: string;
    title: string;
    description: string | null;
    severity: string;
    type: string;
    status: string;
    incident_rule_id: string;
    created_by: string | null;
  }>(
    `SELECT DISTINCT i.id, i.title, i.description, i.severity, i.type, i.status, i.incident_rule_id,
            i.created_by, i.created_at
     FROM incidents i JOIN hypotheses h ON h.incident_id = i.id JOIN evidences e ON e.hypothesis_id = h.id
     WHERE e.check_id = $1 ORDER BY i.created_at`,
    [checkId],
  );
  return rows;
}

async function ruleJobs(ruleId: string) {
  const { rows } = await db.pool.query<{
    name: string;
    resource_type: string;
    status: string;
    success_count: number;
    error_count: number;
    summary: Record<string, unknown> | null;
    errors: string[] | null;
    finished: boolean;
  }>(
    `SELECT name, resource_type, status, success_count, error_count, details -> 'summary' AS summary,
            details -> 'errors' AS errors, time_end IS NOT NULL AND duration_millis IS NOT NULL AS finished
     FROM job_history WHERE resource_id = $1 ORDER BY time_start, created_at`,
    [ruleId],
  );
  // errors only where there are some, so the rows compare with toEqual.
  return rows.map(({ errors, ...row }): typeof row & { errors?: string[] } =>
    errors ? { ...row, errors } : row,
  );
}

describe('incident rules on the event queue', () => {
  let jobs: JobsService;
  let workers: IncidentWorkers;

  beforeAll(async () => {
    jobs = createJobsService({ pool: db.pool, logger, events: { pollIntervalMs: 20 } });
    workers = startIncidentWorkers({ pool: db.pool, jobs, logger });
    await jobs.start();
  });

  afterAll(async () => {
    workers?.stop();
    await jobs?.stop({ graceMs: 1000 });
  });

  it('opens an incident for a failing check, once, and resolves it when the check passes', async () => {
    const responder = await createPerson(db.pool, { email: 'oncall@example.test' });
    const team = await db.pool.query<{ id: string }>(
      `INSERT INTO teams (name) VALUES ('platform') RETURNING id`,
    );
    const ruleId = await createRule('http-down', {
      checks: [{ types: ['http'], labelSelector: 'env=prod' }],
      filter: { status: ['unhealthy'] },
      template: { title: '{{ .check.name }} is down', severity: 'High', type: 'availability' },
      responders: { people: ['oncall@example.test'], teams: ['platform'] },
      autoResolve: {},
    });
    const check = await failingCheck({ name: 'checkout-api', labels: { env: 'prod' } });
    const failed = {
      id: check.id,
      canary_id: check.canary_id,
      check_id: check.id,
      name: check.name,
      type: 'http',
      status: 'unhealthy',
      previous_status: 'healthy',
      message: '',
      error: 'connection refused',
    };
    await enqueueEvent(db.pool, 'check.failed', failed);
    const [incident] = await waitFor(
      async () => {
        const rows = await incidentsOfCheck(check.id);
        return rows.length > 0 ? rows : undefined;
      },
      { what: 'the incident', timeoutMs: 5000 },
    );
    expect(incident).toMatchObject({
      title: 'checkout-api is down',
      description: 'connection refused',
      severity: 'high',
      type: 'availability',
      status: 'open',
      incident_rule_id: ruleId,
      created_by: null,
    });
    const hypotheses = await db.pool.query(
      `SELECT h.title, h.type, h.status, e.type AS evidence_type, e.definition_of_done, e.done, e.description
       FROM hypotheses h JOIN evidences e ON e.hypothesis_id = h.id WHERE h.incident_id = $1`,
      [incident.id],
    );
    expect(hypotheses.rows).toEqual([
      {
        title: 'checkout-api is unhealthy',
        type: 'root',
        status: 'possible',
        evidence_type: 'check',
        definition_of_done: true,
        done: false,
        description: 'connection refused',
      },
    ]);
    const responders = await db.pool.query(
      'SELECT type, person_id, team_id FROM responders WHERE incident_id = $1 ORDER BY type',
      [incident.id],
    );
    expect(responders.rows).toEqual([
      { type: 'person', person_id: responder.id, team_id: null },
      { type: 'team', person_id: null, team_id: team.rows[0].id },
    ]);

    // A second failure event while the incident is open opens nothing new.
    await enqueueEvent(db.pool, 'check.failed', failed);
    await waitFor(
      async () => {
        const { rows } = await db.pool.query(`SELECT 1 FROM event_queue WHERE name = 'check.failed'`);
        return rows.length === 0;
      },
      { what: 'the event to be consumed', timeoutMs: 5000 },
    );
    expect(await incidentsOfCheck(check.id)).toHaveLength(1);

    await setCheckStatus(check.id, 'healthy');
    await enqueueEvent(db.pool, 'check.passed', {
      ...failed,
      status: 'healthy',
      previous_status: 'unhealthy',
      error: '',
    });
    await waitFor(async () => (await incidentsOfCheck(check.id))[0]?.status === 'resolved', {
      what: 'the incident to be resolved',
      timeoutMs: 5000,
    });
    const done = await db.pool.query(
      `SELECT e.done FROM evidences e JOIN hypotheses h ON h.id = e.hypothesis_id WHERE h.incident_id = $1`,
      [incident.id],
    );
    expect(done.rows).toEqual([{ done: true }]);
    const timeline = await db.pool.query<{ type: string; description: string }>(
      `SELECT type, description FROM incident_histories WHERE incident_id = $1 AND type = 'incident.status_updated'`,
      [incident.id],
    );
    expect(timeline.rows).toEqual([{ type: 'incident.status_updated', description: 'resolved' }]);

    // Every evaluation the events ran is in the rule's job history, newest last.
    const history = await waitFor(
      async () => {
        const rows = await ruleJobs(ruleId);
        return rows.length === 3 && rows.every((row) => row.finished) ? rows : undefined;
      },
      { what: 'three job history rows of the rule', timeoutMs: 5000 },
    );
    expect(history).toEqual([
      {
        name: 'IncidentRule',
        resource_type: 'incident_rule',
        status: 'SUCCESS',
        success_count: 1,
        error_count: 0,
        summary: {
          event: 'check.failed',
          rule: 'http-down',
          check: { id: check.id, name: 'checkout-api' },
          result: 'opened',
          incident_id: incident.id,
        },
        finished: true,
      },
      expect.objectContaining({
        status: 'SUCCESS',
        success_count: 0,
        summary: expect.objectContaining({ event: 'check.failed', result: 'open', incident_id: incident.id }),
      }),
      expect.objectContaining({
        status: 'SUCCESS',
        success_count: 1,
        summary: expect.objectContaining({
          event: 'check.passed',
          result: 'resolved',
          incident_id: incident.id,
        }),
      }),
    ]);
  });

  it('writes a rule that does not select the check, and a failed evaluation, to job history', async () => {
    const other = await createRule('other-checks', { checks: [{ name: 'nothing-like-this' }] });
    const missing = '00000000-0000-4000-8000-00000000dead';
    const broken = await createRule('broken-commander', {
      priority: 1,
      checks: [{ name: 'ledger-api' }],
      template: { commander_id: missing },
    });
    const check = await failingCheck({ name: 'ledger-api' });
    await enqueueEvent(db.pool, 'check.failed', { id: check.id, check_id: check.id, status: 'unhealthy' });

    const [failed] = await waitFor(
      async () => {
        const rows = await ruleJobs(broken);
        return rows[0]?.finished ? rows : undefined;
      },
      { what: 'the failed evaluation', timeoutMs: 5000 },
    );
    // The commander does not exist: the incident insert fails, nothing is kept, the event is retried.
    expect(failed).toMatchObject({
      status: 'FAILED',
      success_count: 0,
      error_count: 1,
      finished: true,
      summary: { event: 'check.failed', rule: 'broken-commander', result: 'failed' },
    });
    expect(failed!.errors?.[0]).toMatch(/commander_id_fkey/);
    expect(await incidentsOfCheck(check.id)).toEqual([]);
    // The rule that ran before it in the same attempt: its outcome was not kept either.
    const [skipped] = await ruleJobs(other);
    expect(skipped).toMatchObject({
      status: 'FAILED',
      summary: { event: 'check.failed', rule: 'other-checks', result: 'not selected' },
    });
    expect(skipped!.errors?.[0]).toMatch(/^not applied: rule broken-commander failed: /);
    // Stop the retries: without the broken rule the next attempt has nothing to do.
    await db.pool.query('DELETE FROM incident_rules WHERE id = $1', [broken]);
  });
});

describe('incident rule order', () => {
  it('runs rules by priority and stops after a breakOnMatch rule that matched', async () => {
    const low = await createRule('low', {
      priority: 5,
      checks: [{ name: 'pay-*' }],
      template: { title: 'low' },
    });
    const breaking = await createRule('breaking', {
      priority: 1,
      breakOnMatch: true,
      checks: [{ name: 'pay-db' }],
      template: { title: 'breaking', severity: 'critical' },
    });
    const middle = await createRule('middle', {
      priority: 3,
      checks: [{ name: 'pay-*' }],
      template: { title: 'middle' },
    });

    const db1 = await failingCheck({ name: 'pay-db' });
    const outcomes = await applyRulesToFailedCheck(db.pool, db1.id, { error: 'timeout' }, logger);
    expect(outcomes.map((outcome) => [outcome.ruleId, outcome.result])).toEqual([[breaking, 'opened']]);
    expect((await incidentsOfCheck(db1.id)).map((incident) => [incident.title, incident.severity])).toEqual([
      ['breaking', 'critical'],
    ]);

    // The breaking rule does not select this check, so every other match opens, in priority order.
    const api = await failingCheck({ name: 'pay-api' });
    const second = await applyRulesToFailedCheck(db.pool, api.id, {}, logger);
    expect(second.map((outcome) => [outcome.ruleId, outcome.result])).toEqual([
      [middle, 'opened'],
      [low, 'opened'],
    ]);
    // Again: the open incidents are kept, none is added.
    const again = await applyRulesToFailedCheck(db.pool, api.id, {}, logger);
    expect(again.map((outcome) => outcome.result)).toEqual(['open', 'open']);
    expect(await incidentsOfCheck(api.id)).toHaveLength(2);
  });

  it('applies the filter and component selectors, and nothing for a rule without selectors', async () => {
    await createRule('no-selectors', { filter: { status: ['unhealthy'] } });
    await createRule('severity', {
      checks: [{ name: '*' }],
      filter: { severity: ['critical'] },
      template: { title: 'sev' },
    });
    const component = await db.pool.query<{ id: string }>(
      `INSERT INTO components (name, type, labels) VALUES ('payments', 'Service', '{"tier": "1"}') RETURNING id`,
    );
    await createRule('component', {
      components: [{ types: ['Service'], labelSelector: 'tier in (1,2)' }],
      template: { title: 'component', type: 'technical_debt' },
    });
    const plain = await failingCheck({ name: 'unrelated', severity: 'low' });
    expect(await applyRulesToFailedCheck(db.pool, plain.id, {}, logger)).toEqual([]);

    const related = await failingCheck({ name: 'related', severity: 'critical' });
    await db.pool.query(
      'INSERT INTO check_component_relationships (component_id, check_id, canary_id) VALUES ($1, $2, $3)',
      [component.rows[0].id, related.id, related.canary_id],
    );
    const outcomes = await applyRulesToFailedCheck(db.pool, related.id, {}, logger);
    expect(outcomes.map((outcome) => outcome.ruleName).sort()).toEqual(['component', 'severity']);
    expect(
      (await incidentsOfCheck(related.id)).map((incident) => [incident.title, incident.type]).sort(),
    ).toEqual([
      ['component', 'technicalDebt'],
      ['sev', 'availability'],
    ]);
  });

  it('waits for filter.age before opening, and closes after autoClose.timeout of passing', async () => {
    const ruleId = await createRule('slow', {
      checks: [{ name: 'slow-check' }],
      filter: { age: '5m' },
      autoClose: { timeout: '10m' },
    });
    const check = await failingCheck({ name: 'slow-check' });
    const outcomes = await applyRulesToFailedCheck(db.pool, check.id, {}, logger);
    expect(outcomes).toEqual([{ ruleId, ruleName: 'slow', result: 'scheduled' }]);
    const scheduled = await db.pool.query<{ delay: number }>(
      `SELECT extract(epoch FROM available_at - now())::int AS delay FROM event_queue
       WHERE name = 'incident_rules.evaluate' AND properties->>'check_id' = $1`,
      [check.id],
    );
    expect(scheduled.rows[0].delay).toBeGreaterThan(280);
    expect(await incidentsOfCheck(check.id)).toHaveLength(0);

    // Five minutes later the check is still failing: the delayed evaluation opens the incident.
    await setCheckStatus(check.id, 'unhealthy', new Date(Date.now() - 301_000));
    const evaluations: RuleEvaluation[] = [];
    const opened = await applyScheduledRule(db.pool, check.id, ruleId, {}, logger, evaluations);
    expect(opened).toMatchObject({ result: 'opened' });
    const [incident] = await incidentsOfCheck(check.id);

    const passedAt = new Date();
    await setCheckStatus(check.id, 'healthy', passedAt);
    const recovery = await applyCheckRecovery(db.pool, check.id, passedAt.toISOString(), logger, evaluations);
    expect(recovery).toEqual([{ incidentId: incident.id, status: 'unchanged', scheduled: ['close'] }]);
    // A failure in between cancels the pending close.
    await setCheckStatus(check.id, 'unhealthy', new Date(passedAt.getTime() + 1000));
    await setCheckStatus(check.id, 'healthy', new Date(passedAt.getTime() + 2000));
    expect(
      await applyScheduledRecovery(
        db.pool,
        incident.id,
        check.id,
        'close',
        passedAt.toISOString(),
        evaluations,
      ),
    ).toBe(false);
    const laterPass = new Date(passedAt.getTime() + 2000).toISOString();
    expect(
      await applyScheduledRecovery(db.pool, incident.id, check.id, 'close', laterPass, evaluations),
    ).toBe(true);
    expect((await incidentsOfCheck(check.id))[0].status).toBe('closed');
    // What each step reports for the rule's job history.
    expect(evaluations.map(({ event, result, scheduled }) => [event, result, scheduled])).toEqual([
      ['incident_rules.evaluate', 'opened', undefined],
      ['check.passed', 'unchanged', ['incident_rules.recover (close)']],
      ['incident_rules.recover', 'unchanged', undefined],
      ['incident_rules.recover', 'closed', undefined],
    ]);
    expect(new Set(evaluations.map((evaluation) => evaluation.ruleId))).toEqual(new Set([ruleId]));
  });
});
