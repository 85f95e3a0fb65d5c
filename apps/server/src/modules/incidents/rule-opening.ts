/** A failing check that a rule selects opens an incident (title, root hypothesis, responders). */
import { NEW_HYPOTHESIS_DEFAULTS } from '@opsdeck/contracts';
import type { Pool, PoolClient } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/pool.js';
import { enqueueEvent } from '../../platform/jobs/index.js';
import { renderTemplate } from '../../expressions/index.js';
import { findPersonId, findTeamId } from '../auth/index.js';
import type { IncidentRule } from './rule-spec.js';
import { labelsOf } from './selectors.js';
import {
  CHECK_FAILED_EVENT,
  RULE_EVALUATE_EVENT,
  type CheckRow,
  type CheckEventDetails,
  type RuleOutcome,
  type RuleEvaluation,
  type RuleLogger,
} from './rule-types.js';
import {
  failingForMs,
  loadCheck,
  loadIncidentRules,
  lockCheck,
  relatedComponents,
  checkResource,
  ruleSelectsCheck,
} from './rule-selection.js';

function templateText(
  source: string | undefined,
  variables: unknown,
  fallback: string,
  logger: RuleLogger,
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
  logger: RuleLogger,
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
  logger: RuleLogger,
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

/**
 * Runs the rules for a failing check, in priority order, stopping after a matching rule with
 * breakOnMatch. A match whose filter.age is not reached yet is scheduled (and still counts as a
 * match for breakOnMatch).
 */
export async function applyRulesToFailedCheck(
  pool: Pool,
  checkId: string,
  details: CheckEventDetails,
  logger: RuleLogger,
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
  logger: RuleLogger,
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
