import { READ } from '../../data-api/index.js';
import type { ServerModule } from '../../server-module.js';
import { startPlaybookRunForNotification } from './notification-runs.js';
import { playbookKind } from './playbook-kind.js';
import { playbookRoutes } from './routes.js';
import { playbookWebhookRoutes } from './webhook-routes.js';
import { startPlaybookWorkers } from './workers.js';

/**
 * Playbooks and their runs: the kind, the tables and views clients read, the run, parameter,
 * approval and cancel routes, and the runner that executes actions from the event queue.
 */
export const playbooksModule: ServerModule = {
  name: 'playbooks',
  kinds: [playbookKind],
  dataApi: {
    tables: {
      playbooks: {},
      playbook_runs: { actions: READ },
      playbook_run_actions: { actions: READ },
      playbook_approvals: { actions: READ },
      artifacts: { actions: READ },
    },
    views: { playbook_names: {} },
    functions: ['get_playbook_run_actions'],
  },
  async routes(app, { pool, secrets }) {
    await app.register(playbookRoutes, { pool, secrets });
    // Outside /api: a webhook authenticates with its own credentials, not a session.
    await app.register(playbookWebhookRoutes, { pool, secrets });
  },
  services: { startPlaybookRunForNotification },
  async startWorkers(context) {
    return startPlaybookWorkers(context);
  },
};
