import type { Pool } from '../../platform/db/pool.js';
import type { JobsService } from '../../platform/jobs/index.js';
import type { Logger } from '../../platform/logger.js';
import type { CanaryRunnerOptions } from './canary-runner.js';
import { createCanaryScheduler, type CanarySchedulerOptions } from './canary-scheduler.js';
import { checkStatusRetentionDays, registerRollupSchedules } from './rollups.js';
import { registerCompactionSchedule } from './compaction.js';

export interface HealthWorkersOptions {
  pool: Pool;
  jobs: Pick<JobsService, 'schedules'>;
  logger: Logger;
  /** Connections, timeouts and concurrency for check runs. */
  runner?: Omit<CanaryRunnerOptions, 'pool' | 'logger'>;
  /** How often canaries are re-read for changes. Default 10 s. */
  pollIntervalMs?: number;
  /** Budget of one canary tick. Default 5 minutes. */
  runTimeoutMs?: number;
  /** Default CHECK_STATUS_RETENTION_DAYS or 30. */
  retentionDays?: number;
}

export interface HealthWorkers {
  /** Re-reads canaries now (instead of waiting for the next poll). */
  refresh(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Registers the canary schedules (one per live canary, kept in step with the canaries table by
 * polling), the compaction, rollup and retention schedules. Call before or after jobs.start().
 */
export async function startHealthWorkers(options: HealthWorkersOptions): Promise<HealthWorkers> {
  const retentionDays = options.retentionDays ?? checkStatusRetentionDays();
  const logger = options.logger.child({ component: 'health' });
  await registerRollupSchedules(options.pool, options.jobs, retentionDays);
  await registerCompactionSchedule(options.pool, options.jobs);
  const schedulerOptions: CanarySchedulerOptions = {
    ...options.runner,
    pool: options.pool,
    jobs: options.jobs,
    logger,
    pollIntervalMs: options.pollIntervalMs,
    runTimeoutMs: options.runTimeoutMs,
  };
  const scheduler = createCanaryScheduler(schedulerOptions);
  try {
    await scheduler.refresh();
  } catch (error) {
    // The next poll retries; the database may simply not be reachable yet.
    logger.error({ err: error instanceof Error ? error.message : String(error) }, 'reading canaries failed');
  }
  return { refresh: () => scheduler.refresh(), stop: () => scheduler.stop() };
}
