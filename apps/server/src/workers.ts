import type { OpsdeckConfig } from './config.js';
import type { Pool } from './platform/db/pool.js';
import { createJobsService, registerJobsMaintenance, type JobsService } from './platform/jobs/index.js';
import type { Logger } from './platform/logger.js';
import type { Metrics } from './platform/telemetry/metrics.js';
import type { SecretBox } from './platform/secrets.js';
import { openSealedStrings } from './platform/secret-fields.js';
import { createConnectionResolver, createValueFromResolver } from './modules/resources/index.js';
import { closeJavascriptSandbox } from './expressions/index.js';
import { checkMetricLabels, createCheckMetrics, startHealthWorkers } from './modules/health/index.js';
import { startIncidentWorkers } from './modules/incidents/index.js';
import { startCatalogWorkers } from './modules/catalog/index.js';

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
  // Check specs' `valueFrom` and named connections read the Secret, ConfigMap and Connection resources.
  const resolveValueFrom = createValueFromResolver(deps.pool, deps.secrets);
  // Specs' sealed secrets are opened only for the run that uses them.
  const openSecrets = (spec: unknown): unknown => openSealedStrings(spec, deps.secrets);
  const resolveConnection = createConnectionResolver(deps.pool, deps.secrets, resolveValueFrom);
  const health = deps.config.workers
    ? await startHealthWorkers({
        pool: deps.pool,
        jobs,
        logger: deps.logger.child({ component: 'health' }),
        runner: {
          metrics: createCheckMetrics(deps.metrics.registry, checkMetricLabels()),
          resolveValueFrom,
          resolveConnection,
          openSecrets,
        },
      })
    : undefined;
  const catalog = deps.config.workers
    ? await startCatalogWorkers({
        pool: deps.pool,
        jobs,
        logger: deps.logger.child({ component: 'catalog' }),
        openSecrets,
      })
    : undefined;
  const incidents = deps.config.workers
    ? startIncidentWorkers({ pool: deps.pool, jobs, logger: deps.logger.child({ component: 'incidents' }) })
    : undefined;
  return {
    jobs,
    stop: async () => {
      await health?.stop();
      await catalog?.stop();
      incidents?.stop();
      await jobs.stop();
      await closeJavascriptSandbox();
    },
  };
}
