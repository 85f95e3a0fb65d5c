import type { OpsdeckConfig } from './config.js';
import type { Pool } from './platform/db/pool.js';
import { createJobsService, registerJobsMaintenance, type JobsService } from './platform/jobs/index.js';
import type { Logger } from './platform/logger.js';
import type { Metrics } from './platform/telemetry/metrics.js';
import type { SecretBox } from './platform/secrets.js';
import { closeJavascriptSandbox } from './expressions/index.js';
import { SERVER_MODULES } from './modules.js';
import type { ModuleServices, ModuleWorkers } from './server-module.js';

export interface Workers {
  /** The jobs service: HTTP routes use it to record job history for work they run. */
  jobs: JobsService;
  stop(): Promise<void>;
}

/**
 * Starts this process's jobs service and the modules' schedulers and event-queue consumers.
 * With WORKERS=false the process serves HTTP only: no module schedules run here.
 */
export async function startWorkers(deps: {
  pool: Pool;
  config: Pick<
    OpsdeckConfig,
    'workers' | 'shutdownGraceMs' | 'jobHistoryRetentionDays' | 'eventQueueRetentionDays'
  >;
  logger: Logger;
  metrics: Metrics;
  /** Opens the Secret resources that checks' `valueFrom` references read. */
  secrets?: SecretBox;
}): Promise<Workers> {
  const jobs = createJobsService({
    pool: deps.pool,
    logger: deps.logger.child({ component: 'jobs' }),
    metrics: deps.metrics.registry,
    shutdownGraceMs: deps.config.shutdownGraceMs,
  });
  await jobs.start();
  if (deps.config.workers) {
    await registerJobsMaintenance(deps.pool, jobs, {
      jobHistoryDays: deps.config.jobHistoryRetentionDays,
      eventDays: deps.config.eventQueueRetentionDays,
    });
  }
  const started: { name: string; workers: ModuleWorkers }[] = [];
  const services: Partial<ModuleServices> = Object.assign(
    {},
    ...SERVER_MODULES.map((module) => module.services ?? {}),
  );
  if (deps.config.workers) {
    for (const module of SERVER_MODULES) {
      if (!module.startWorkers) continue;
      const workers = await module.startWorkers({
        pool: deps.pool,
        jobs,
        logger: deps.logger.child({ component: module.name }),
        metrics: deps.metrics,
        secrets: deps.secrets,
        services,
      });
      started.push({ name: module.name, workers });
    }
  }
  return {
    jobs,
    stop: async () => {
      for (const { workers } of started.reverse()) await workers.stop();
      await jobs.stop();
      await closeJavascriptSandbox();
    },
  };
}
