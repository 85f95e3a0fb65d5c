import type { Pool } from '../../platform/db/pool.js';
import {
  createResourceScheduleSync,
  type JobsLogger,
  type JobsService,
  type ResourceScheduleSync,
} from '../../platform/jobs/index.js';
import type { CheckLogger } from './checks/index.js';
import { CANARY_COLUMNS, loadCanary, syncCanaryChecks, type CanaryRow } from './canary-sync.js';
import {
  canaryScheduleOf,
  nextRuntimeOf,
  runCanaryChecks,
  type CanaryRunnerOptions,
} from './canary-runner.js';

/** The job history name of canary runs (scheduled and Run Now). */
export const CANARY_JOB_NAME = 'Canary';
export const CANARY_RESOURCE_TYPE = 'canary';
/** How often canaries are re-read for changes. */
export const DEFAULT_CANARY_POLL_INTERVAL_MS = 10_000;

export function canaryScheduleName(canaryId: string): string {
  return `canary:${canaryId}`;
}

export interface CanarySchedulerOptions extends Omit<CanaryRunnerOptions, 'pool' | 'logger'> {
  pool: Pool;
  jobs: Pick<JobsService, 'schedules'>;
  logger: CheckLogger & JobsLogger;
  /** How often canaries are re-read. Default DEFAULT_CANARY_POLL_INTERVAL_MS. */
  pollIntervalMs?: number;
  /** A tick still running after this is recorded FAILED (its checks stop). Default 5 minutes. */
  runTimeoutMs?: number;
}

/** Reads canaries and (re)registers, or unregisters, their schedules. */
export type CanaryScheduler = ResourceScheduleSync;

/**
 * One schedule per live canary (`canary:<id>`), so each tick runs once across processes.
 * Changes are found by polling updated_at: a changed canary's checks rows are synced at once
 * and its schedule re-registered; deleted or paused canaries are unregistered.
 */
export function createCanaryScheduler(options: CanarySchedulerOptions): CanaryScheduler {
  const { pool, jobs, logger, pollIntervalMs, runTimeoutMs, ...runner } = options;
  // Every runner option (concurrency, timeouts, resolvers, metrics) reaches the scheduled runs.
  const runnerOptions: CanaryRunnerOptions = { ...runner, pool, logger };

  return createResourceScheduleSync<CanaryRow>({
    jobs,
    logger,
    kind: 'canary',
    pollIntervalMs: pollIntervalMs ?? DEFAULT_CANARY_POLL_INTERVAL_MS,
    load: async (knownIds) =>
      (
        await pool.query<CanaryRow>(
          `SELECT ${CANARY_COLUMNS} FROM canaries
           WHERE deleted_at IS NULL OR id = ANY($1::uuid[])
              OR EXISTS (SELECT 1 FROM checks WHERE checks.canary_id = canaries.id AND checks.deleted_at IS NULL)`,
          [knownIds],
        )
      ).rows,
    idOf: (canary) => canary.id,
    updatedAtOf: (canary) => canary.updated_at,
    scheduleName: canaryScheduleName,
    decide: async (canary) => {
      // A changed canary's checks rows are synced at once (a deleted one's checks are marked deleted).
      await syncCanaryChecks(pool, canary);
      if (canary.deleted_at !== null) return { schedule: null, forget: true };
      return { schedule: canaryScheduleOf(canary) };
    },
    definition: (canary) => ({
      jobName: CANARY_JOB_NAME,
      timeoutMs: runTimeoutMs,
      resource: { type: CANARY_RESOURCE_TYPE, id: canary.id },
      agentId: canary.agent_id,
      handler: async ({ signal, job }) => {
        // The tick reads the row itself: a change since the last poll applies at once.
        const current = await loadCanary(pool, canary.id);
        if (!current || current.deleted_at !== null) return;
        const summary = await runCanaryChecks(current, {
          ...runnerOptions,
          signal,
          nextRuntime: nextRuntimeOf(canaryScheduleOf(current), canaryScheduleName(canary.id)),
        });
        if (summary.success > 0) job.incrementSuccess(summary.success);
        for (const error of summary.errors) job.addError(error);
      },
    }),
  });
}
