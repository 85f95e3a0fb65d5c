import { READ } from '../../data-api/index.js';
import type { ServerModule } from '../../server-module.js';
import { viewRoutes } from './routes.js';
import { viewKind } from './view-kind.js';
import { startViewWorkers } from './workers.js';

/** Views: the View kind, its materialised tables `view_<namespace>_<name>` and the views API. */
export const viewsModule: ServerModule = {
  name: 'views',
  kinds: [viewKind],
  dataApi: {
    tables: { views: {} },
    views: { views_summary: {} },
    // One table per view, `view_<namespace>_<name>`, filtered by request_fingerprint. Created at
    // a view's first run: the data API reloads its catalog when it meets a name it did not know.
    prefixes: { view_: { kind: 'view', actions: READ } },
  },
  async routes(app, { pool, logger }) {
    await app.register(viewRoutes, { pool, logger });
  },
  async startWorkers({ pool, logger }) {
    return startViewWorkers({ pool, logger });
  },
};
