/** The applications module: Application resources and their audit report. */
export { applicationsModule } from './module.js';
export { applicationKind } from './application-kind.js';
export { applicationReport, listApplications } from './application-service.js';
export { applicationRoutes } from './routes.js';
