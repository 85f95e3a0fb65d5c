import { READ, READ_UPDATE_DELETE } from '../../data-api/index.js';
import type { ServerModule } from '../../server-module.js';
import { settingsRoutes } from './routes.js';

/** Properties and feature flags, agents, job history, the event queue, applications and log backends (views: modules/views). */
export const settingsModule: ServerModule = {
  name: 'settings',
  dataApi: {
    tables: {
      properties: {},
      agents: { actions: READ_UPDATE_DELETE },
      job_histories: { actions: READ },
      logging_backends: {},
      applications: {},
    },
    views: {
      agents_summary: {},
      job_history_names: {},
      event_queue_summary: {},
      integrations_with_status: {},
    },
  },
  async routes(app, { pool }) {
    await app.register(settingsRoutes, { pool });
  },
};
