/**
 * The incident-rules engine: a failing check that matches an IncidentRule opens an incident
 * (title from the rule's template, a root hypothesis with the check as evidence, the rule's
 * responders); the check's recovery resolves or closes it when the rule says so. This file binds
 * the engine to the event queue (one handler per event, each evaluation a job history row);
 * selection, opening and recovery are in rule-selection.ts, rule-opening.ts, rule-recovery.ts.
 */
import {
  type EventContext,
  type EventProperties,
  type JobRun,
  type StartJobOptions,
} from '../../platform/jobs/index.js';
import { isUuid } from './rule-spec.js';
import {
  CHECK_FAILED_EVENT,
  CHECK_PASSED_EVENT,
  RULE_EVALUATE_EVENT,
  RULE_RECOVER_EVENT,
  RULE_JOB_NAME,
  RULE_RESOURCE_TYPE,
  type CheckEventDetails,
  type RuleEvaluation,
} from './rule-types.js';
import { applyRulesToFailedCheck, applyScheduledRule } from './rule-opening.js';
import { applyCheckRecovery, applyScheduledRecovery } from './rule-recovery.js';

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
