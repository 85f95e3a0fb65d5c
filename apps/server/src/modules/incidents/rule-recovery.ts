/** A recovered check resolves or closes the incidents rules opened for it, as the rule says. */
import type { Pool, PoolClient } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/pool.js';
import { enqueueEvent } from '../../platform/jobs/index.js';
import { countChecksNotHealthy } from '../health/index.js';
import { parseIncidentRule, type IncidentRule } from './rule-spec.js';
import {
  CHECK_PASSED_EVENT,
  RULE_RECOVER_EVENT,
  type RuleEvaluation,
  type RuleLogger,
  type RecoveryOutcome,
} from './rule-types.js';
import { loadCheck, lockCheck } from './rule-selection.js';

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
  logger: RuleLogger,
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
