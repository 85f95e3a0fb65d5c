import { READ, READ_UPDATE_DELETE } from '../../data-api/index.js';
import type { ServerModule } from '../../server-module.js';
import { settingsRoutes } from './routes.js';
import { viewKind } from './view-kind.js';

/** Properties and feature flags, agents, job history, the event queue, views, applications and log backends. */
export const settingsModule: ServerModule = {
  name: 'settings',
  kinds: [viewKind],
  dataApi: {
    tables: {
      properties: {},
      agents: { actions: READ_UPDATE_DELETE },
      job_histories: { actions: READ },
      logging_backends: {},
      applications: {},
      views: {},
    },
    views: {
      agents_summary: {},
      job_history_names: {},
      event_queue_summary: {},
      integrations_with_status: {},
      views_summary: {},
    },
    // One table per view, `view_<namespace>_<name>`, filtered by request_fingerprint.
    prefixes: { view_: { kind: 'view', actions: READ } },
  },
  async routes(app, { pool }) {
    await app.register(settingsRoutes, { pool });
  },
};
