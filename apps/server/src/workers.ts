import type { OpsdeckConfig } from './platform/config.js';
import type { Pool } from './platform/db/pool.js';
import { createJobsService } from './platform/jobs/index.js';
import type { Logger } from './platform/logger.js';
import type { Metrics } from './platform/telemetry/metrics.js';

export interface Workers {
  stop(): Promise<void>;
}

/**
 * Starts this process's schedulers and event-queue consumers. Modules register their schedules
 * and consumers here; with WORKERS=false the process only serves HTTP.
 */
export async function startWorkers(deps: {
  pool: Pool;
  config: Pick<OpsdeckConfig, 'workers' | 'shutdownGraceMs'>;
  logger: Logger;
  metrics: Metrics;
}): Promise<Workers> {
  if (!deps.config.workers) return { stop: async () => undefined };
  const jobs = createJobsService({
    pool: deps.pool,
    logger: deps.logger.child({ component: 'jobs' }),
    metrics: deps.metrics.registry,
    shutdownGraceMs: deps.config.shutdownGraceMs,
  });
  await jobs.start();
  return { stop: () => jobs.stop() };
}
