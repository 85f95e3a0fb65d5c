import type { Pool } from '../../platform/db/pool.js';
import type { JobsService } from '../../platform/jobs/index.js';
import type { Logger } from '../../platform/logger.js';
import type { TopologyRunOptions } from './topology-engine.js';
import { createTopologyScheduler } from './topology-scheduler.js';

export interface TopologyWorkersOptions {
  pool: Pool;
  jobs: Pick<JobsService, 'schedules'>;
  logger: Logger;
  run: Omit<TopologyRunOptions, 'logger' | 'signal'>;
  pollIntervalMs?: number;
  runTimeoutMs?: number;
}

export interface TopologyWorkers {
  refresh(): Promise<void>;
  stop(): Promise<void>;
}

/** Registers one schedule per live topology and keeps them in step with `topologies`. */
export async function startTopologyWorkers(options: TopologyWorkersOptions): Promise<TopologyWorkers> {
  const scheduler = createTopologyScheduler({
    ...options.run,
    pool: options.pool,
    jobs: options.jobs,
    logger: options.logger,
    pollIntervalMs: options.pollIntervalMs,
    runTimeoutMs: options.runTimeoutMs,
  });
  try {
    await scheduler.refresh();
  } catch (error) {
    options.logger.error(
      { err: error instanceof Error ? error.message : String(error) },
      'reading topologies failed',
    );
  }
  return { refresh: () => scheduler.refresh(), stop: () => scheduler.stop() };
}
