export { TopologyPage } from './components/topology-page';
export { ComponentPage, TopologyCardView } from './components/component-page';
export { TopologiesPage } from './components/topologies-page';
export { TopologyEditorPage } from './components/topology-editor-page';
