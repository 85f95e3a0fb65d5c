import type { ServerModule } from '../../server-module.js';
import { applicationKind } from './application-kind.js';
import { applicationRoutes } from './routes.js';

/**
 * Applications: the Application kind and its audit report. The applications table is exposed
 * through the data API by the settings module; this module reads the catalog, topology, health,
 * incidents and permissions through read-only SQL over their public relations.
 */
export const applicationsModule: ServerModule = {
  name: 'applications',
  kinds: [applicationKind],
  async routes(app, { pool }) {
    await app.register(applicationRoutes, { pool });
  },
};
