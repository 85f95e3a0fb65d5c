export {
  applyCommand,
  formatAge,
  formatTable,
  getCommand,
  type ApplyCommandOptions,
  type CommandOutput,
} from './cli-commands.js';
export { DEMO_LOADED_PROPERTY, loadDemoResources, type DemoLoadReport } from './demo-loader.js';
export {
  DEFAULT_WATCH_DEBOUNCE_MS,
  logApplyResults,
  startResourceDirectoryWatcher,
  type DirectorySyncReport,
  type ResourceDirectoryWatcher,
  type ResourceDirectoryWatcherOptions,
} from './directory-watcher.js';
export { parseResourceDocuments, type DocumentOrigin, type ResourceDocument } from './documents.js';
export {
  describeSupportedKinds,
  findResourceKind,
  registerResourceKinds,
  resourceKinds,
  kindAliases,
  kindForDocument,
  resolveResourceKind,
  UnknownResourceKindError,
} from './registry.js';
export { collectResourceFiles, readResourceFile, type ResourceFileList } from './resource-files.js';
export type { ResourceLogger } from './resource-logger.js';
export {
  applyResource,
  applyResources,
  countAllResources,
  deleteResource,
  deleteResourcesMissingFromSource,
  deleteResourcesOfVanishedSources,
  listResources,
  toResourceManifest,
  type ApplyOptions,
  type ApplyResult,
  type ApplyStatus,
  type DeletedResource,
  type StoredResource,
} from './resource-store.js';
export { resourceSchemaRoutes, resourceSpecJsonSchema } from './schema-routes.js';
export { stableHash, stableStringify } from '../../platform/stable-hash.js';
export { createRowSealer, sealRowSecrets, SEALED_SPEC_TABLES } from './sealed-specs.js';
export {
  DEFAULT_NAMESPACE,
  formatFieldPath,
  resourceKey,
  resourceRowIssues,
  validateResource,
  type ResourceIdentity,
  type ResourceValidation,
  type ValidationIssue,
  type ValidResource,
} from './validation.js';
export {
  createValueFromResolver,
  ValueFromError,
  type ValueFromReference,
  type ValueFromResolver,
} from './value-from.js';
export { secretKind, secretValues } from './kinds/secret.js';
export { configMapKind } from './kinds/config-map.js';
export { connectionKind } from './kinds/connection.js';
export { API_SOURCE, resourceRoutes, type ResourceRoutesOptions } from './resource-routes.js';
export {
  createConnectionResolver,
  parseConnectionReference,
  type ConnectionResolver,
  type OpenedConnection,
} from './connection-resolver.js';
export { resourcesModule } from './module.js';
