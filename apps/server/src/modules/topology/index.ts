/** The topology module: Topology resources and their components (see README.md). */
export { topologyKind } from './topology-kind.js';
export { topologyModule } from './module.js';
export { loadComponentsForSelection, type ComponentForSelection } from './component-lookup.js';
