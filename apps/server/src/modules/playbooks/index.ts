/** The playbooks module: Playbook resources, their runs, actions and approvals (see README.md). */
export { playbookKind } from './playbook-kind.js';
export { playbooksModule } from './module.js';
export { startPlaybookRunForNotification } from './notification-runs.js';
