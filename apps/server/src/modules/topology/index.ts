/** The topology module: Topology resources and their components (see README.md). */
export { topologyKind } from './topology-kind.js';
export { topologyModule } from './module.js';
export { loadComponentsForSelection, type ComponentForSelection } from './component-lookup.js';
export {
  runTopology,
  loadTopology,
  TopologyRunError,
  type TopologyRow,
  type TopologyRunOptions,
  type TopologyRunSummary,
} from './topology-engine.js';
export {
  createTopologyScheduler,
  DEFAULT_TOPOLOGY_SCHEDULE,
  runTopologyJob,
  TOPOLOGY_JOB_NAME,
  TOPOLOGY_RESOURCE_TYPE,
  topologyScheduleName,
} from './topology-scheduler.js';
export { queryTopology, queryTopologyJson } from './topology-service.js';
export { createFacetsCache, COMPONENT_CHANGES_CHANNEL, type FacetsCache } from './facets-cache.js';
