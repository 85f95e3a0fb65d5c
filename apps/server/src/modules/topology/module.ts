import { READ_UPDATE } from '../../data-api/index.js';
import type { ServerModule } from '../../server-module.js';
import { topologiesWithStatusSource } from './read-sources.js';
import { topologyKind } from './topology-kind.js';

/**
 * Topologies and their components. Today the module owns the kind, the tables and the views that
 * clients read; the topology engine and the dashboard come with issue 23.
 */
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
};
