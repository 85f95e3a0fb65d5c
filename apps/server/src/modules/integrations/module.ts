import type { ServerModule } from '../../server-module.js';
import { chartSchemaUrlTemplate, createChartSchemaSource } from './chart-schemas.js';
import { integrationsRoutes } from './routes.js';

/**
 * Integrations (settings §2.6): the list is the settings module's `integrations_with_status`
 * view; this module serves what the Add Integration wizard fetches.
 */
export const integrationsModule: ServerModule = {
  name: 'integrations',
  async routes(app) {
    const charts = createChartSchemaSource(chartSchemaUrlTemplate());
    await app.register(integrationsRoutes, { charts });
  },
};
