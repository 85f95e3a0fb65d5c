import { NEW_HYPOTHESIS_DEFAULTS } from '@opsdeck/contracts';
/**
 * The incident-rules engine: a failing check that matches an IncidentRule opens an incident
 * (title from the rule's template, a root hypothesis with the check as evidence, the rule's
 * responders); the check's recovery resolves or closes it when the rule says so.
 */
import type { Pool, PoolClient } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/pool.js';
import {
  enqueueEvent,
  type EventContext,
  type EventProperties,
  type JobRun,
  type JobsLogger,
  type StartJobOptions,
} from '../../platform/jobs/index.js';
import { renderTemplate } from '../../expressions/index.js';
import { findPersonId, findTeamId } from '../auth/index.js';
import {
  componentIdsOfCheck,
  countChecksNotHealthy,
  loadCheckForSelection,
  type CheckForSelection,
} from '../health/index.js';
import { loadComponentsForSelection } from '../topology/index.js';
import { isUuid, parseIncidentRule, sortRules, type IncidentRule } from './rule-spec.js';
import { labelsOf, matchesSelector, matchesValueList, type SelectableResource } from './selectors.js';

/** Emitted by the health module on a status transition. */
export const CHECK_FAILED_EVENT = 'check.failed';
export const CHECK_PASSED_EVENT = 'check.passed';
/** Our own follow-ups: a rule whose filter.age was not yet reached, and delayed auto-resolve/close. */
export const RULE_EVALUATE_EVENT = 'incident_rules.evaluate';
export const RULE_RECOVER_EVENT = 'incident_rules.recover';
/** Job history of rule evaluations: one row per rule an event ran, on the rule's Job History tab. */
export const RULE_JOB_NAME = 'IncidentRule';
export const RULE_RESOURCE_TYPE = 'incident_rule';

/** The check as the rules see it (the health module's selection view of it). */
export type CheckRow = CheckForSelection;

export interface CheckEventDetails {
  message?: string;
  error?: string;
}

export interface RuleOutcome {
  ruleId: string;
  ruleName: string;
  /** opened: a new incident; open: one was already open for this rule and check; scheduled: filter.age pending. */
  result: 'opened' | 'open' | 'scheduled';
  incidentId?: string;
}

/**
 * One rule looked at for one event: what the rule engine did with it. The event consumers write
 * each as a job history row of the rule (`IncidentRule`, resource `incident_rule`).
 */
export interface RuleEvaluation {
  ruleId: string;
  ruleName: string;
  /** The event that ran the rule. */
  event: string;
  checkId: string;
  checkName?: string;
  /**
   * opened / open / scheduled (check.failed, incident_rules.evaluate); not selected: the rule's
   * filter or selectors do not take the check; check not failing: a delayed evaluation whose check
   * recovered meanwhile; resolved / closed / unchanged (check.passed, incident_rules.recover);
   * failed: the evaluation threw, so the event's whole transaction was rolled back (it is retried).
   */
  result:
    | RuleOutcome['result']
    | 'not selected'
    | 'check not failing'
    | 'resolved'
    | 'closed'
    | 'unchanged'
    | 'failed';
  incidentId?: string;
  /** Delayed follow-ups queued by this evaluation (filter.age, autoResolve/autoClose timeouts). */
  scheduled?: string[];
}

type Logger = Pick<JobsLogger, 'info' | 'warn' | 'error' | 'debug'>;

const loadCheck = loadCheckForSelection;

/** Live rules in processing order; a rule whose spec cannot be read is logged and skipped. */
export async function loadIncidentRules(db: Pool | PoolClient, logger: Logger): Promise<IncidentRule[]> {
  const { rows } = await db.query<{ id: string; name: string; namespace: string; spec: unknown }>(
    'SELECT id, name, namespace, spec FROM incident_rules WHERE deleted_at IS NULL',
  );
  const rules: IncidentRule[] = [];
  for (const row of rows) {
    try {
      rules.push(parseIncidentRule(row));
    } catch (error) {
      logger.warn(
        { rule: `${row.namespace}/${row.name}`, err: error instanceof Error ? error.message : String(error) },
        'skipping an incident rule whose spec cannot be read',
      );
    }
  }
  return sortRules(rules);
}

function checkResource(check: CheckRow): SelectableResource {
  return {
    id: check.id,
    name: check.name,
    namespace: check.namespace,
    type: check.type,
    labels: labelsOf(check.labels),
    fields: {
      status: check.status,
      severity: check.severity,
      agent_id: check.agent_id,
      canary_id: check.canary_id,
      canary_name: check.canary_name,
    },
  };
}

async function relatedComponents(db: Pool | PoolClient, checkId: string): Promise<SelectableResource[]> {
  const rows = await loadComponentsForSelection(db, await componentIdsOfCheck(db, checkId));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    namespace: row.namespace,
    type: row.type,
    labels: labelsOf(row.labels),
    fields: { status: row.status },
  }));
}

/**
 * Whether a rule selects a check: its filter (status, severity, type of the check; category =
 * the type of the incident the rule opens), then its `checks` selectors on the check itself or
 * its `components` selectors on the components the check belongs to. A rule without selectors
 * selects nothing.
 */
export function ruleSelectsCheck(
  rule: IncidentRule,
  check: SelectableResource & { status: string | null; severity: string | null },
  components: readonly SelectableResource[],
): boolean {
  const { filter } = rule;
  if (filter.status.length > 0 && !matchesValueList(filter.status, check.status)) return false;
  if (filter.severity.length > 0 && !matchesValueList(filter.severity, check.severity)) return false;
  if (filter.type.length > 0 && !matchesValueList(filter.type, check.type)) return false;
  if (filter.category.length > 0 && !matchesValueList(filter.category, rule.template.type)) return false;
  if (rule.checks.some((selector) => matchesSelector(selector, check))) return true;
  return rule.components.some((selector) =>
    components.some((component) => matchesSelector(selector, component)),
  );
}

function templateText(
  source: string | undefined,
  variables: unknown,
  fallback: string,
  logger: Logger,
): string {
  if (!source) return fallback;
  if (!source.includes('{{')) return source;
  try {
    return renderTemplate(source, variables);
  } catch (error) {
    logger.warn(
      { template: source, err: error instanceof Error ? error.message : String(error) },
      'incident rule template failed',
    );
    return source;
  }
}

async function openIncidentFor(
  client: PoolClient,
  rule: IncidentRule,
  check: CheckRow,
  details: CheckEventDetails,
  logger: Logger,
): Promise<{ incidentId: string; created: boolean }> {
  const existing = await client.query<{ id: string }>(
    `SELECT i.id FROM incidents i
     WHERE i.incident_rule_id = $1 AND i.status NOT IN ('resolved', 'closed')
       AND EXISTS (SELECT 1 FROM hypotheses h JOIN evidences e ON e.hypothesis_id = h.id
                   WHERE h.incident_id = i.id AND e.check_id = $2)
     LIMIT 1`,
    [rule.id, check.id],
  );
  if (existing.rows[0]) return { incidentId: existing.rows[0].id, created: false };

  const reason = details.error || details.message || '';
  const variables = {
    check: {
      id: check.id,
      name: check.name,
      type: check.type,
      namespace: check.namespace,
      labels: labelsOf(check.labels),
      severity: check.severity,
      status: check.status,
      description: check.description,
      endpoint: check.endpoint,
      message: details.message ?? '',
      error: details.error ?? '',
    },
    canary: { id: check.canary_id, name: check.canary_name, namespace: check.canary_namespace },
    rule: { id: rule.id, name: rule.name, namespace: rule.namespace },
  };
  const headline = `${check.name} is ${check.status ?? 'unhealthy'}`;
  const title = templateText(rule.template.title, variables, headline, logger);
  const description = templateText(rule.template.description, variables, reason, logger);
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO incidents (title, description, type, severity, status, incident_rule_id, commander_id, communicator_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [
      title,
      description === '' ? null : description,
      rule.template.type,
      rule.template.severity,
      rule.template.status,
      rule.id,
      rule.template.commanderId ?? null,
      rule.template.communicatorId ?? rule.template.commanderId ?? null,
    ],
  );
  const incidentId = rows[0].id;
  const hypothesis = await client.query<{ id: string }>(
    `INSERT INTO hypotheses (incident_id, title, type, status) VALUES ($1, $2, $3, $4) RETURNING id`,
    [incidentId, headline, NEW_HYPOTHESIS_DEFAULTS.type, NEW_HYPOTHESIS_DEFAULTS.status],
  );
  await client.query(
    `INSERT INTO evidences (hypothesis_id, type, check_id, description, definition_of_done, evidence, properties)
     VALUES ($1, 'check', $2, $3, true, $4, $5)`,
    [
      hypothesis.rows[0].id,
      check.id,
      reason === '' ? headline : reason,
      JSON.stringify({ check_id: check.id, canary_id: check.canary_id, status: check.status, ...details }),
      JSON.stringify({ check_name: check.name, check_type: check.type, incident_rule: rule.name }),
    ],
  );
  await addResponders(client, incidentId, rule, logger);
  return { incidentId, created: true };
}

async function addResponders(
  client: PoolClient,
  incidentId: string,
  rule: IncidentRule,
  logger: Logger,
): Promise<void> {
  for (const reference of rule.responders.people) {
    const personId = await findPersonId(client, reference);
    if (!personId) {
      logger.warn({ rule: rule.name, person: reference }, 'incident rule responder not found');
      continue;
    }
    await client.query(`INSERT INTO responders (incident_id, type, person_id) VALUES ($1, 'person', $2)`, [
      incidentId,
      personId,
    ]);
  }
  for (const reference of rule.responders.teams) {
    const teamId = await findTeamId(client, reference);
    if (!teamId) {
      logger.warn({ rule: rule.name, team: reference }, 'incident rule responder team not found');
      continue;
    }
    await client.query(`INSERT INTO responders (incident_id, type, team_id) VALUES ($1, 'team', $2)`, [
      incidentId,
      teamId,
    ]);
  }
}

/** Serializes rule work per check across workers and replicas, so one failure opens one incident. */
async function lockCheck(client: PoolClient, checkId: string): Promise<void> {
  await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('opsdeck.incident_rules:' || $1, 0))`, [
    checkId,
  ]);
}

function failingForMs(check: CheckRow, now: number): number {
  return check.last_transition_time ? now - check.last_transition_time.getTime() : 0;
}

/**
 * Runs the rules for a failing check, in priority order, stopping after a matching rule with
 * breakOnMatch. A match whose filter.age is not reached yet is scheduled (and still counts as a
 * match for breakOnMatch).
 */
export async function applyRulesToFailedCheck(
  pool: Pool,
  checkId: string,
  details: CheckEventDetails,
  logger: Logger,
  evaluations: RuleEvaluation[] = [],
): Promise<RuleOutcome[]> {
  return withTransaction(pool, async (client) => {
    await lockCheck(client, checkId);
    const check = await loadCheck(client, checkId);
    if (!check || check.deleted_at || check.status !== 'unhealthy') return [];
    const rules = await loadIncidentRules(client, logger);
    if (rules.length === 0) return [];
    const resource = { ...checkResource(check), status: check.status, severity: check.severity };
    const components = rules.some((rule) => rule.components.length > 0)
      ? await relatedComponents(client, checkId)
      : [];
    const outcomes: RuleOutcome[] = [];
    const now = Date.now();
    const evaluated = (rule: IncidentRule, result: RuleEvaluation['result']) => {
      const entry: RuleEvaluation = {
        ruleId: rule.id,
        ruleName: rule.name,
        event: CHECK_FAILED_EVENT,
        checkId: check.id,
        checkName: check.name,
        result,
      };
      evaluations.push(entry);
      return entry;
    };
    for (const rule of rules) {
      if (!ruleSelectsCheck(rule, resource, components)) {
        evaluated(rule, 'not selected');
        continue;
      }
      // 'failed' until the rule's work is done: a throw leaves it so.
      const entry = evaluated(rule, 'failed');
      const wait = rule.filter.ageMs - failingForMs(check, now);
      if (wait > 0) {
        await enqueueEvent(
          client,
          RULE_EVALUATE_EVENT,
          { check_id: check.id, rule_id: rule.id, ...details },
          { delayMs: wait },
        );
        outcomes.push({ ruleId: rule.id, ruleName: rule.name, result: 'scheduled' });
        Object.assign(entry, { result: 'scheduled', scheduled: [`${RULE_EVALUATE_EVENT} in ${wait} ms`] });
      } else {
        const { incidentId, created } = await openIncidentFor(client, rule, check, details, logger);
        outcomes.push({
          ruleId: rule.id,
          ruleName: rule.name,
          result: created ? 'opened' : 'open',
          incidentId,
        });
        Object.assign(entry, { result: created ? 'opened' : 'open', incidentId });
        if (created)
          logger.info(
            { rule: rule.name, check: check.name, incident: incidentId },
            'incident rule opened an incident',
          );
      }
      if (rule.breakOnMatch) break;
    }
    return outcomes;
  });
}

/** The delayed evaluation of one rule (filter.age): opens only if the check is still failing. */
export async function applyScheduledRule(
  pool: Pool,
  checkId: string,
  ruleId: string,
  details: CheckEventDetails,
  logger: Logger,
  evaluations: RuleEvaluation[] = [],
): Promise<RuleOutcome | null> {
  return withTransaction(pool, async (client) => {
    await lockCheck(client, checkId);
    const check = await loadCheck(client, checkId);
    if (!check || check.deleted_at) return null;
    const rule = (await loadIncidentRules(client, logger)).find((candidate) => candidate.id === ruleId);
    if (!rule) return null;
    const entry: RuleEvaluation = {
      ruleId: rule.id,
      ruleName: rule.name,
      event: RULE_EVALUATE_EVENT,
      checkId: check.id,
      checkName: check.name,
      result: 'failed',
    };
    evaluations.push(entry);
    const evaluated = (result: RuleEvaluation['result'], extra: Partial<RuleEvaluation> = {}) =>
      Object.assign(entry, { result, ...extra });
    if (check.status !== 'unhealthy') {
      evaluated('check not failing');
      return null;
    }
    const components = rule.components.length > 0 ? await relatedComponents(client, checkId) : [];
    if (
      !ruleSelectsCheck(
        rule,
        { ...checkResource(check), status: check.status, severity: check.severity },
        components,
      )
    ) {
      evaluated('not selected');
      return null;
    }
    const wait = rule.filter.ageMs - failingForMs(check, Date.now());
    if (wait > 0) {
      // The check failed again after recovering in between: wait for the new failure's age.
      await enqueueEvent(
        client,
        RULE_EVALUATE_EVENT,
        { check_id: check.id, rule_id: rule.id, ...details },
        { delayMs: wait },
      );
      evaluated('scheduled', { scheduled: [`${RULE_EVALUATE_EVENT} in ${wait} ms`] });
      return { ruleId: rule.id, ruleName: rule.name, result: 'scheduled' };
    }
    const { incidentId, created } = await openIncidentFor(client, rule, check, details, logger);
    evaluated(created ? 'opened' : 'open', { incidentId });
    return { ruleId: rule.id, ruleName: rule.name, result: created ? 'opened' : 'open', incidentId };
  });
}

export interface RecoveryOutcome {
  incidentId: string;
  /** What happened now; `scheduled` lists delayed actions. */
  status: 'resolved' | 'closed' | 'unchanged';
  scheduled: ('resolve' | 'close')[];
}

const OPEN_RULE_INCIDENTS = `
  SELECT DISTINCT i.id, i.status, r.id AS rule_id, r.name, r.namespace, r.spec
  FROM incidents i
  JOIN incident_rules r ON r.id = i.incident_rule_id
  JOIN hypotheses h ON h.incident_id = i.id
  JOIN evidences e ON e.hypothesis_id = h.id
  WHERE e.check_id = $1 AND i.status NOT IN ('resolved', 'closed')`;

/** Every check this incident has as evidence is healthy now. */
async function allChecksHealthy(client: PoolClient, incidentId: string): Promise<boolean> {
  const { rows } = await client.query<{ check_id: string }>(
    `SELECT DISTINCT e.check_id FROM evidences e JOIN hypotheses h ON h.id = e.hypothesis_id
     WHERE h.incident_id = $1 AND e.check_id IS NOT NULL`,
    [incidentId],
  );
  return (
    (await countChecksNotHealthy(
      client,
      rows.map((row) => row.check_id),
    )) === 0
  );
}

async function setStatus(
  client: PoolClient,
  incidentId: string,
  status: 'resolved' | 'closed',
): Promise<void> {
  await client.query(`UPDATE incidents SET status = $2 WHERE id = $1 AND status <> $2`, [incidentId, status]);
}

/**
 * A check recovered: its evidence in the rule-opened incidents still open is done, and each
 * such incident is resolved (autoResolve) and/or closed (autoClose) now or after the rule's
 * timeout, once every check it has as evidence is healthy.
 */
export async function applyCheckRecovery(
  pool: Pool,
  checkId: string,
  passedAt: string,
  logger: Logger,
  evaluations: RuleEvaluation[] = [],
): Promise<RecoveryOutcome[]> {
  return withTransaction(pool, async (client) => {
    await lockCheck(client, checkId);
    const check = await loadCheck(client, checkId);
    if (!check || check.status !== 'healthy') return [];
    const { rows } = await client.query<{
      id: string;
      status: string;
      rule_id: string;
      name: string;
      namespace: string;
      spec: unknown;
    }>(OPEN_RULE_INCIDENTS, [checkId]);
    const outcomes: RecoveryOutcome[] = [];
    for (const row of rows) {
      const entry: RuleEvaluation = {
        ruleId: row.rule_id,
        ruleName: row.name,
        event: CHECK_PASSED_EVENT,
        checkId: check.id,
        checkName: check.name,
        result: 'failed',
        incidentId: row.id,
      };
      evaluations.push(entry);
      await client.query(
        `UPDATE evidences e SET done = true FROM hypotheses h
         WHERE h.id = e.hypothesis_id AND h.incident_id = $1 AND e.check_id = $2 AND NOT e.done`,
        [row.id, checkId],
      );
      let rule: IncidentRule;
      try {
        rule = parseIncidentRule({
          id: row.rule_id,
          name: row.name,
          namespace: row.namespace,
          spec: row.spec,
        });
      } catch (error) {
        logger.warn(
          { rule: row.name, err: error instanceof Error ? error.message : String(error) },
          'incident rule spec unreadable',
        );
        outcomes.push({ incidentId: row.id, status: 'unchanged', scheduled: [] });
        entry.result = 'unchanged';
        continue;
      }
      const outcome: RecoveryOutcome = { incidentId: row.id, status: 'unchanged', scheduled: [] };
      const healthy = await allChecksHealthy(client, row.id);
      const actions: ['resolve' | 'close', number | null][] = [
        ['resolve', rule.autoResolveMs],
        ['close', rule.autoCloseMs],
      ];
      for (const [action, delay] of actions) {
        if (delay === null || !healthy) continue;
        if (delay > 0) {
          await enqueueEvent(
            client,
            RULE_RECOVER_EVENT,
            { incident_id: row.id, check_id: checkId, action, passed_at: passedAt },
            { delayMs: delay },
          );
          outcome.scheduled.push(action);
        } else {
          const status = action === 'resolve' ? 'resolved' : 'closed';
          await setStatus(client, row.id, status);
          outcome.status = status;
        }
      }
      outcomes.push(outcome);
      entry.result = outcome.status;
      if (outcome.scheduled.length > 0)
        entry.scheduled = outcome.scheduled.map((action) => `${RULE_RECOVER_EVENT} (${action})`);
    }
    return outcomes;
  });
}

/** A delayed auto-resolve/close: applies only if the check has not transitioned since it passed. */
export async function applyScheduledRecovery(
  pool: Pool,
  incidentId: string,
  checkId: string,
  action: 'resolve' | 'close',
  passedAt: string,
  evaluations: RuleEvaluation[] = [],
): Promise<boolean> {
  return withTransaction(pool, async (client) => {
    await lockCheck(client, checkId);
    const check = await loadCheck(client, checkId);
    const { rows } = await client.query<{ status: string; rule_id: string | null; rule_name: string | null }>(
      `SELECT i.status, r.id AS rule_id, r.name AS rule_name
       FROM incidents i LEFT JOIN incident_rules r ON r.id = i.incident_rule_id
       WHERE i.id = $1 FOR UPDATE OF i`,
      [incidentId],
    );
    const incident = rows[0];
    const entry: RuleEvaluation | undefined =
      incident?.rule_id && check
        ? {
            ruleId: incident.rule_id,
            ruleName: incident.rule_name ?? '',
            event: RULE_RECOVER_EVENT,
            checkId: check.id,
            checkName: check.name,
            result: 'failed',
            incidentId,
          }
        : undefined;
    if (entry) evaluations.push(entry);
    const evaluated = (result: RuleEvaluation['result']) => {
      if (entry) entry.result = result;
    };
    const passed = Date.parse(passedAt);
    const transitionedSince =
      check?.last_transition_time && Number.isFinite(passed) && check.last_transition_time.getTime() > passed;
    const status = incident?.status;
    if (
      !check ||
      check.status !== 'healthy' ||
      transitionedSince ||
      !status ||
      status === 'closed' ||
      (action === 'resolve' && status === 'resolved') ||
      !(await allChecksHealthy(client, incidentId))
    ) {
      evaluated('unchanged');
      return false;
    }
    const next = action === 'resolve' ? 'resolved' : 'closed';
    await setStatus(client, incidentId, next);
    evaluated(next);
    return true;
  });
}

function text(properties: EventProperties, key: string): string | undefined {
  const value = properties[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function checkDetails(properties: EventProperties): CheckEventDetails {
  const message = text(properties, 'message');
  const error = text(properties, 'error');
  return { ...(message ? { message } : {}), ...(error ? { error } : {}) };
}

/** The consumers' context; with `startJob` each rule evaluation is written to job history. */
export interface RuleEventContext extends EventContext {
  startJob?: (options: StartJobOptions) => Promise<JobRun>;
}

/** Results that changed an incident count as the job's successes. */
const ACTED: ReadonlySet<RuleEvaluation['result']> = new Set(['opened', 'resolved', 'closed']);

/**
 * Writes one job history row per evaluation, after the evaluation's transaction ended: SUCCESS
 * with its summary, or FAILED with the error when the transaction failed (the event is retried).
 * A failing history write is logged, never turned into a failure of work already committed.
 */
async function recordRuleJobs(
  context: RuleEventContext,
  evaluations: readonly RuleEvaluation[],
  failure: unknown,
): Promise<void> {
  const { startJob } = context;
  if (!startJob) return;
  for (const evaluation of evaluations) {
    try {
      const job = await startJob({
        name: RULE_JOB_NAME,
        resourceType: RULE_RESOURCE_TYPE,
        resourceId: evaluation.ruleId,
      });
      job.setDetail('summary', {
        event: evaluation.event,
        rule: evaluation.ruleName,
        check: { id: evaluation.checkId, name: evaluation.checkName ?? null },
        result: evaluation.result,
        ...(evaluation.incidentId ? { incident_id: evaluation.incidentId } : {}),
        ...(evaluation.scheduled ? { scheduled: evaluation.scheduled } : {}),
      });
      if (failure !== undefined) {
        // Nothing of the attempt was kept; the rule that threw carries the error itself.
        const failing = evaluations.find((candidate) => candidate.result === 'failed');
        await job.failure(
          evaluation.result === 'failed' || !failing
            ? failure
            : `not applied: rule ${failing.ruleName} failed: ${failure instanceof Error ? failure.message : String(failure)}`,
        );
        continue;
      }
      if (ACTED.has(evaluation.result)) job.incrementSuccess();
      await job.success();
    } catch (error) {
      context.logger.warn(
        { rule: evaluation.ruleName, err: error instanceof Error ? error.message : String(error) },
        'could not write the job history of an incident rule evaluation',
      );
    }
  }
}

/** Runs one event's rule work and writes its evaluations to job history, whether it succeeded or not. */
async function withRuleJobs(
  context: RuleEventContext,
  work: (evaluations: RuleEvaluation[]) => Promise<unknown>,
): Promise<void> {
  const evaluations: RuleEvaluation[] = [];
  try {
    await work(evaluations);
  } catch (error) {
    await recordRuleJobs(context, evaluations, error);
    throw error;
  }
  await recordRuleJobs(context, evaluations, undefined);
}

/** The event handlers, for the jobs service's `events.on` (or a fan-out consumer's own). */
export const incidentRuleHandlers = {
  async [CHECK_FAILED_EVENT](
    event: { properties: EventProperties },
    context: RuleEventContext,
  ): Promise<void> {
    const checkId = text(event.properties, 'check_id') ?? text(event.properties, 'id');
    if (!checkId || !isUuid(checkId)) return;
    await withRuleJobs(context, (evaluations) =>
      applyRulesToFailedCheck(
        context.pool,
        checkId,
        checkDetails(event.properties),
        context.logger,
        evaluations,
      ),
    );
  },
  async [CHECK_PASSED_EVENT](
    event: { properties: EventProperties },
    context: RuleEventContext,
  ): Promise<void> {
    const checkId = text(event.properties, 'check_id') ?? text(event.properties, 'id');
    if (!checkId || !isUuid(checkId)) return;
    const passedAt = text(event.properties, 'last_runtime') ?? new Date().toISOString();
    await withRuleJobs(context, (evaluations) =>
      applyCheckRecovery(context.pool, checkId, passedAt, context.logger, evaluations),
    );
  },
  async [RULE_EVALUATE_EVENT](
    event: { properties: EventProperties },
    context: RuleEventContext,
  ): Promise<void> {
    const checkId = text(event.properties, 'check_id');
    const ruleId = text(event.properties, 'rule_id');
    if (!checkId || !ruleId || !isUuid(checkId) || !isUuid(ruleId)) return;
    await withRuleJobs(context, (evaluations) =>
      applyScheduledRule(
        context.pool,
        checkId,
        ruleId,
        checkDetails(event.properties),
        context.logger,
        evaluations,
      ),
    );
  },
  async [RULE_RECOVER_EVENT](
    event: { properties: EventProperties },
    context: RuleEventContext,
  ): Promise<void> {
    const incidentId = text(event.properties, 'incident_id');
    const checkId = text(event.properties, 'check_id');
    const action = text(event.properties, 'action');
    const passedAt = text(event.properties, 'passed_at') ?? '';
    if (!incidentId || !checkId || !isUuid(incidentId) || !isUuid(checkId)) return;
    if (action !== 'resolve' && action !== 'close') return;
    await withRuleJobs(context, (evaluations) =>
      applyScheduledRecovery(context.pool, incidentId, checkId, action, passedAt, evaluations),
    );
  },
} as const;
