/** The views module: View resources, their materialised tables and the views API (see README.md). */
export { viewsModule } from './module.js';
export { viewKind, viewSpec } from './view-kind.js';
export { runView, viewsForConfig, requestFingerprint, dropOrphanViewTables } from './view-service.js';
