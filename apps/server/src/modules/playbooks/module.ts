import { READ } from '../../data-api/index.js';
import type { ServerModule } from '../../server-module.js';
import { playbookKind } from './playbook-kind.js';

/**
 * Playbooks and their runs. Today the module owns the kind, the tables and the views that clients
 * read; the runner, actions and approvals come with issue 24.
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
};
