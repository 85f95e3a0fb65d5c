import { READ, READ_UPDATE_DELETE } from '../../data-api/index.js';
import { openSealedStrings } from '../../platform/secret-fields.js';
import type { SecretBox } from '../../platform/secrets.js';
import type { Pool } from '../../platform/db/pool.js';
import type { Metrics } from '../../platform/telemetry/metrics.js';
import type { ServerModule } from '../../server-module.js';
import { createConnectionResolver, createValueFromResolver } from '../resources/index.js';
import { canaryKind } from './canary-kind.js';
import { canaryEditorRoutes } from './canary-routes.js';
import type { CanaryRunnerOptions } from './canary-runner.js';
import { checkMetricLabels, createCheckMetrics, pruneDeletedCheckMetrics } from './check-metrics.js';
import { startHealthWorkers } from './workers.js';
import { canariesWithStatusSource } from './read-sources.js';
import { healthRoutes } from './routes.js';
import { webhookRoutes } from './webhook-routes.js';

/** What a check run needs from outside the module: metrics, secrets, `valueFrom` and connections. */
function runnerServices(
  pool: Pool,
  metrics: Metrics,
  secrets: SecretBox | undefined,
): Omit<CanaryRunnerOptions, 'pool' | 'logger'> {
  // Check specs' `valueFrom` references read the Secret and ConfigMap resources.
  const resolveValueFrom = createValueFromResolver(pool, secrets);
  return {
    // One set per registry: the API's and the workers' runs show on the same /metrics.
    metrics: createCheckMetrics(metrics.registry, checkMetricLabels()),
    resolveValueFrom,
    // Named connections (`connection: connection://namespace/name`) with their credentials opened.
    resolveConnection: createConnectionResolver(pool, secrets, resolveValueFrom),
    // Specs' sealed secrets are opened only for the run that uses them.
    openSecrets: (spec: unknown): unknown => openSealedStrings(spec, secrets),
  };
}

/** Canaries and checks: their kind, relations, the health API, webhooks and the check schedulers. */
export const healthModule: ServerModule = {
  name: 'health',
  kinds: [canaryKind],
  dataApi: {
    tables: {
      // descriptive_version: the summary's cache key (migration 0072), not part of the contract.
      checks: { actions: READ_UPDATE_DELETE, hiddenColumns: ['descriptive_version'] },
      check_statuses: { actions: READ },
      canaries: { hiddenColumns: ['descriptive_version'] },
      check_component_relationships: { actions: READ },
      check_config_relationships: { actions: READ },
    },
    views: {
      check_names: {},
      canary_names: {},
      checks_labels_keys: {},
      checks_by_component: {},
      check_summary_for_config: {},
      // The view's roll-up of checks counts only the checks the caller may see.
      canaries_with_status: { readSource: canariesWithStatusSource },
    },
  },
  async routes(app, { pool, logger, jobs, secrets, metrics }) {
    const runner = runnerServices(pool, metrics, secrets);
    await app.register(healthRoutes, { pool, jobs, logger, runner });
    await app.register(canaryEditorRoutes, { pool, logger, secrets });
    // Outside /api: webhook pushes authenticate with the check's own token, not a session.
    await app.register(webhookRoutes, {
      pool,
      logger,
      resolveValueFrom: runner.resolveValueFrom,
      metrics: runner.metrics,
      openSecrets: runner.openSecrets,
    });
  },
  async beforeMetricsScrape({ pool, metrics }) {
    // Deleted checks leave /metrics, whichever way (and in whichever process) they were deleted.
    await pruneDeletedCheckMetrics(pool, createCheckMetrics(metrics.registry, checkMetricLabels()));
  },
  async startWorkers({ pool, jobs, logger, metrics, secrets }) {
    return startHealthWorkers({ pool, jobs, logger, runner: runnerServices(pool, metrics, secrets) });
  },
};
