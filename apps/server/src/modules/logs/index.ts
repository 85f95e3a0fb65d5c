/** The logs module: logging backends (files, Opsdeck's own log, PostgreSQL's, Loki, OpenSearch) and POST /api/logs. */
export { logsModule } from './module.js';
export { loggingBackendKind } from './logging-backend-kind.js';
export { searchLogs } from './logs-service.js';
export { logsRoutes, type LogsRoutesOptions } from './routes.js';
