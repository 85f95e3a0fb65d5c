import { READ_UPDATE } from '../../data-api/index.js';
import type { Pool } from '../../platform/db/pool.js';
import { openSealedStrings } from '../../platform/secret-fields.js';
import type { SecretBox } from '../../platform/secrets.js';
import type { ServerModule } from '../../server-module.js';
import { createConnectionResolver, createValueFromResolver } from '../resources/index.js';
import { topologiesWithStatusSource } from './read-sources.js';
import { topologyRoutes } from './routes.js';
import type { TopologyRunOptions } from './topology-engine.js';
import { topologyKind } from './topology-kind.js';
import { startTopologyWorkers } from './workers.js';

/** What a run's lookups need from outside the module: connections, `valueFrom`, sealed secrets. */
function runServices(
  pool: Pool,
  secrets: SecretBox | undefined,
): Omit<TopologyRunOptions, 'logger' | 'signal'> {
  const resolveValueFrom = createValueFromResolver(pool, secrets);
  return {
    resolveValueFrom,
    resolveConnection: createConnectionResolver(pool, secrets, resolveValueFrom),
    openSecrets: (spec: unknown): unknown => openSealedStrings(spec, secrets),
    secrets,
  };
}

/** Topologies and their components: the kind, the engine's schedules, the topology API. */
export const topologyModule: ServerModule = {
  name: 'topology',
  kinds: [topologyKind],
  dataApi: {
    tables: {
      topologies: {},
      components: { actions: READ_UPDATE },
    },
    views: {
      // The components roll-up counts only the components the caller may see.
      topologies_with_status: { readSource: topologiesWithStatusSource },
      component_names: {},
      component_labels: {},
      component_labels_keys: {},
      components_with_logs: {},
      analysis_by_component: {},
      changes_by_component: {},
    },
    functions: ['get_parents_by_location', 'lookup_analysis_by_component'],
  },
  async routes(app, { pool, logger, jobs, secrets }) {
    await app.register(topologyRoutes, { pool, jobs, logger, run: runServices(pool, secrets) });
  },
  async startWorkers({ pool, jobs, logger, secrets }) {
    return startTopologyWorkers({ pool, jobs, logger, run: runServices(pool, secrets) });
  },
};
