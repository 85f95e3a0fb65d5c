import type { Pool } from '../../platform/db/pool.js';
import type { JobsLogger, JobsService } from '../../platform/jobs/index.js';
import { errorMessage } from '../../platform/jobs/support.js';
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

interface Known {
  updatedAt: number;
  schedule: string | null;
}

export interface CanaryScheduler {
  /** Reads canaries and (re)registers, or unregisters, their schedules. */
  refresh(): Promise<void>;
  /** Names of the canary schedules registered by this process. */
  registered(): string[];
  stop(): Promise<void>;
}

/**
 * One schedule per live canary (`canary:<id>`), so each tick runs once across processes.
 * Changes are found by polling updated_at: a changed canary's checks rows are synced at once
 * and its schedule re-registered; deleted or paused canaries are unregistered.
 */
export function createCanaryScheduler(options: CanarySchedulerOptions): CanaryScheduler {
  const { pool, jobs, logger } = options;
  const known = new Map<string, Known>();
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<void> = Promise.resolve();
  let stopped = false;

  const runnerOptions: CanaryRunnerOptions = {
    pool,
    logger,
    concurrency: options.concurrency,
    checkTimeoutMs: options.checkTimeoutMs,
    resolveConnection: options.resolveConnection,
    resolveValueFrom: options.resolveValueFrom,
  };

  const register = async (canary: CanaryRow, schedule: string): Promise<void> => {
    const name = canaryScheduleName(canary.id);
    await jobs.schedules.register({
      name,
      jobName: CANARY_JOB_NAME,
      schedule,
      timeoutMs: options.runTimeoutMs,
      resource: { type: CANARY_RESOURCE_TYPE, id: canary.id },
      agentId: canary.agent_id,
      handler: async ({ signal, job }) => {
        // The tick reads the row itself: a change since the last poll applies at once.
        const current = await loadCanary(pool, canary.id);
        if (!current || current.deleted_at !== null) return;
        const currentSchedule = canaryScheduleOf(current);
        const summary = await runCanaryChecks(current, {
          ...runnerOptions,
          signal,
          nextRuntime: nextRuntimeOf(currentSchedule, name),
        });
        if (summary.success > 0) job.incrementSuccess(summary.success);
        for (const error of summary.errors) job.addError(error);
      },
    });
  };

  const apply = async (canary: CanaryRow): Promise<void> => {
    const name = canaryScheduleName(canary.id);
    const previous = known.get(canary.id);
    const updatedAt = canary.updated_at.getTime();
    if (previous && previous.updatedAt === updatedAt) return;
    await syncCanaryChecks(pool, canary);
    const schedule = canary.deleted_at === null ? canaryScheduleOf(canary) : null;
    if (schedule === null) {
      // An unknown one may have a schedule row left from when no process watched it.
      if (previous === undefined || previous.schedule) await jobs.schedules.unregister(name);
      if (canary.deleted_at === null) known.set(canary.id, { updatedAt, schedule: null });
      else known.delete(canary.id);
      return;
    }
    try {
      await register(canary, schedule);
      known.set(canary.id, { updatedAt, schedule });
    } catch (error) {
      // An invalid schedule keeps the canary off the scheduler until its spec changes.
      logger.warn(
        { canary: canary.id, schedule, err: errorMessage(error) },
        'canary schedule not registered',
      );
      if (previous?.schedule) await jobs.schedules.unregister(name);
      known.set(canary.id, { updatedAt, schedule: null });
    }
  };

  const refreshOnce = async (): Promise<void> => {
    const { rows } = await pool.query<CanaryRow>(
      `SELECT ${CANARY_COLUMNS} FROM canaries
       WHERE deleted_at IS NULL OR id = ANY($1::uuid[])
          OR EXISTS (SELECT 1 FROM checks WHERE checks.canary_id = canaries.id AND checks.deleted_at IS NULL)`,
      [[...known.keys()]],
    );
    const seen = new Set<string>();
    for (const canary of rows) {
      seen.add(canary.id);
      try {
        await apply(canary);
      } catch (error) {
        logger.error({ canary: canary.id, err: errorMessage(error) }, 'syncing a canary failed');
      }
    }
    // Rows removed outright (not soft-deleted) take their checks with them (ON DELETE CASCADE).
    for (const [id, entry] of known) {
      if (seen.has(id)) continue;
      if (entry.schedule) await jobs.schedules.unregister(canaryScheduleName(id));
      known.delete(id);
    }
  };

  // One refresh at a time: a poll landing during a slow one waits for it and then runs.
  const refresh = (): Promise<void> => {
    const next = chain.then(refreshOnce, refreshOnce);
    chain = next.catch(() => undefined);
    return next;
  };

  const poll = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      refresh()
        .catch((error: unknown) => logger.error({ err: errorMessage(error) }, 'reading canaries failed'))
        .finally(poll);
    }, options.pollIntervalMs ?? DEFAULT_CANARY_POLL_INTERVAL_MS);
    timer.unref();
  };
  poll();

  return {
    refresh,
    registered: () =>
      [...known.entries()]
        .filter(([, entry]) => entry.schedule !== null)
        .map(([id]) => canaryScheduleName(id)),
    async stop() {
      // Schedules stay registered in the database: other processes keep running them.
      stopped = true;
      clearTimeout(timer);
      await chain;
    },
  };
}
