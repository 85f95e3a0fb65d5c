import type { Pool } from '../../platform/db/pool.js';
import {
  createResourceScheduleSync,
  type JobsLogger,
  type JobsService,
  type ResourceScheduleSync,
} from '../../platform/jobs/index.js';
import { Batcher } from '../../platform/jobs/support.js';
import type { CheckLogger } from './checks/index.js';
import {
  CANARY_COLUMNS,
  syncCanariesChecks,
  syncCanaryChecks,
  type CanaryRow,
  type SyncedCheck,
} from './canary-sync.js';
import {
  canaryScheduleOf,
  nextRuntimeOf,
  runCanaryChecks,
  type CanaryRunnerOptions,
} from './canary-runner.js';

/** The job history name of canary runs (scheduled and Run Now). */
export const CANARY_JOB_NAME = 'Canary';
export const CANARY_RESOURCE_TYPE = 'canary';
/** How often canaries are re-read for changes (a change is also NOTIFYed: migration 0180). */
export const DEFAULT_CANARY_POLL_INTERVAL_MS = 10_000;
/**
 * A canary tick's RUNNING job history row is written only when the tick lasts this long: most
 * take milliseconds and are written once, finished, saving a row write per tick (issue 22).
 */
export const CANARY_RUNNING_ROW_AFTER_MS = 1000;
/** Where changes to canaries are NOTIFYed, by a trigger (migration 0180). */
export const CANARY_CHANGES_CHANNEL = 'opsdeck_canaries';

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
  /** Refresh at once when canaries change (LISTEN on CANARY_CHANGES_CHANNEL). Default true. */
  listen?: boolean;
}

/** Reads canaries and (re)registers, or unregisters, their schedules. */
export type CanaryScheduler = ResourceScheduleSync;

/**
 * One schedule per live canary (`canary:<id>`), so each tick runs once across processes.
 * Changes are found by polling updated_at: a changed canary's checks rows are synced at once
 * and its schedule re-registered; deleted or paused canaries are unregistered.
 */
export function createCanaryScheduler(options: CanarySchedulerOptions): CanaryScheduler {
  const { pool, jobs, logger, pollIntervalMs, runTimeoutMs, listen, ...runner } = options;
  // Every runner option (concurrency, timeouts, resolvers, metrics) reaches the scheduled runs.
  const runnerOptions: CanaryRunnerOptions = { ...runner, pool, logger };
  // The checks rows of each canary as last synced here, by the canary's updated_at: a tick of an
  // unchanged canary runs them without writing them again.
  const syncedChecks = new Map<string, { updatedAt: number; checks: SyncedCheck[] }>();
  // The ticks of one batch read their canaries in one statement.
  const canaryReader = new Batcher<string, CanaryRow | undefined>(async (ids) => {
    const { rows } = await pool.query<CanaryRow>(
      `SELECT ${CANARY_COLUMNS} FROM canaries WHERE id = ANY($1::uuid[])`,
      [[...new Set(ids)]],
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => byId.get(id));
  });
  const remember = (canary: CanaryRow, checks: SyncedCheck[]) =>
    syncedChecks.set(canary.id, { updatedAt: canary.updated_at.getTime(), checks });

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
    versions: async (knownIds) =>
      (
        await pool.query<{ id: string; updatedAt: Date }>(
          `SELECT id, updated_at AS "updatedAt" FROM canaries
           WHERE deleted_at IS NULL OR id = ANY($1::uuid[])
              OR EXISTS (SELECT 1 FROM checks WHERE checks.canary_id = canaries.id AND checks.deleted_at IS NULL)`,
          [knownIds],
        )
      ).rows,
    loadByIds: async (ids) =>
      (
        await pool.query<CanaryRow>(`SELECT ${CANARY_COLUMNS} FROM canaries WHERE id = ANY($1::uuid[])`, [
          ids,
        ])
      ).rows,
    notify: listen === false ? undefined : { pool, channel: CANARY_CHANGES_CHANNEL },
    runChangedAtOnce: true,
    idOf: (canary) => canary.id,
    updatedAtOf: (canary) => canary.updated_at,
    scheduleName: canaryScheduleName,
    decide: async (canary) => {
      // A changed canary's checks rows are synced at once (a deleted one's checks are marked deleted).
      const checks = await syncCanaryChecks(pool, canary);
      if (canary.deleted_at !== null) {
        syncedChecks.delete(canary.id);
        return { schedule: null, forget: true };
      }
      remember(canary, checks);
      return { schedule: canaryScheduleOf(canary) };
    },
    // A start with thousands of canaries syncs their checks rows in a few statements per batch.
    decideMany: async (canaries) => {
      const synced = await syncCanariesChecks(pool, canaries);
      return canaries.map((canary, index) => {
        if (canary.deleted_at !== null) {
          syncedChecks.delete(canary.id);
          return { schedule: null, forget: true };
        }
        remember(canary, synced[index]);
        return { schedule: canaryScheduleOf(canary) };
      });
    },
    definition: (canary) => ({
      jobName: CANARY_JOB_NAME,
      timeoutMs: runTimeoutMs,
      recordRunningAfterMs: CANARY_RUNNING_ROW_AFTER_MS,
      resource: { type: CANARY_RESOURCE_TYPE, id: canary.id },
      agentId: canary.agent_id,
      handler: async ({ signal, job }) => {
        // The tick reads the row itself: a change since the last poll applies at once.
        const current = await canaryReader.add(canary.id);
        if (!current || current.deleted_at !== null) return;
        const cached = syncedChecks.get(current.id);
        let synced = cached?.updatedAt === current.updated_at.getTime() ? cached.checks : undefined;
        if (!synced) {
          synced = await syncCanaryChecks(pool, current);
          remember(current, synced);
        }
        const summary = await runCanaryChecks(current, {
          ...runnerOptions,
          signal,
          synced,
          nextRuntime: nextRuntimeOf(canaryScheduleOf(current), canaryScheduleName(canary.id)),
        });
        if (summary.success > 0) job.incrementSuccess(summary.success);
        for (const error of summary.errors) job.addError(error);
      },
    }),
  });
}
