import type { ServerModule } from '../../server-module.js';
import { searchRoutes } from './routes.js';

/**
 * Resource search for the selectors of the web app: reads the public relations of health,
 * topology, catalog, settings (connections) and playbooks, read-only, and owns no table.
 */
export const searchModule: ServerModule = {
  name: 'search',
  async routes(app, { pool }) {
    await app.register(searchRoutes, { pool });
  },
};
