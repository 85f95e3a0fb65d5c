/** Which checks a rule selects: the rules, the check and its components as selectors see them. */
import type { Pool, PoolClient } from '../../platform/db/pool.js';
import { componentIdsOfCheck, loadCheckForSelection } from '../health/index.js';
import { loadComponentsForSelection } from '../topology/index.js';
import { parseIncidentRule, sortRules, type IncidentRule } from './rule-spec.js';
import { labelsOf, matchesSelector, matchesValueList, type SelectableResource } from './selectors.js';
import { type CheckRow, type RuleLogger } from './rule-types.js';

export const loadCheck = loadCheckForSelection;

/** Live rules in processing order; a rule whose spec cannot be read is logged and skipped. */
export async function loadIncidentRules(db: Pool | PoolClient, logger: RuleLogger): Promise<IncidentRule[]> {
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

export function checkResource(check: CheckRow): SelectableResource {
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

export async function relatedComponents(
  db: Pool | PoolClient,
  checkId: string,
): Promise<SelectableResource[]> {
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

/** Serializes rule work per check across workers and replicas, so one failure opens one incident. */
export async function lockCheck(client: PoolClient, checkId: string): Promise<void> {
  await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('opsdeck.incident_rules:' || $1, 0))`, [
    checkId,
  ]);
}

export function failingForMs(check: CheckRow, now: number): number {
  return check.last_transition_time ? now - check.last_transition_time.getTime() : 0;
}
