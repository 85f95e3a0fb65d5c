/**
 * The incidents module: behaviour of incidents written through the data API lives in migration
 * 0031 (defaults, timeline, events, views); this module runs the incident-rules engine on the
 * event queue.
 */

export { ACTING_PERSON_SETTING, setActingPerson } from './acting-person.js';
export {
  CHECK_FAILED_EVENT,
  CHECK_PASSED_EVENT,
  RULE_EVALUATE_EVENT,
  RULE_JOB_NAME,
  RULE_RECOVER_EVENT,
  RULE_RESOURCE_TYPE,
  type CheckEventDetails,
  type RecoveryOutcome,
  type RuleEvaluation,
  type RuleOutcome,
} from './rule-types.js';
export { incidentRuleHandlers, type RuleEventContext } from './incident-rules.js';
export { loadIncidentRules, ruleSelectsCheck } from './rule-selection.js';
export { applyRulesToFailedCheck, applyScheduledRule } from './rule-opening.js';
export { applyCheckRecovery, applyScheduledRecovery } from './rule-recovery.js';
export { parseIncidentRule, parseRuleDuration, sortRules, type IncidentRule } from './rule-spec.js';
export {
  matchesLabelSelector,
  matchesSelector,
  matchesValueList,
  type SelectableResource,
} from './selectors.js';
export {
  INCIDENT_WORKER_EVENTS,
  startIncidentWorkers,
  type IncidentWorkers,
  type IncidentWorkersOptions,
} from './workers.js';
export { incidentsModule } from './module.js';
export { incidentRuleKind } from './incident-rule-kind.js';
