/** The incident-rules engine's events, job names and the shapes its parts share. */
import type { JobsLogger } from '../../platform/jobs/index.js';
import type { CheckForSelection } from '../health/index.js';

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

export type RuleLogger = Pick<JobsLogger, 'info' | 'warn' | 'error' | 'debug'>;

export interface RecoveryOutcome {
  incidentId: string;
  /** What happened now; `scheduled` lists delayed actions. */
  status: 'resolved' | 'closed' | 'unchanged';
  scheduled: ('resolve' | 'close')[];
}
