/**
 * Every module's resource kinds, imported from the kind files themselves: `apply` and `get`
 * register these instead of loading every module (routes, workers, the server) to start faster
 * (issue 22). cli/kinds.test.ts checks the list is the modules' own, in their order.
 */
import { applicationKind } from '../modules/applications/application-kind.js';
import { permissionKind } from '../modules/auth/permission-kind.js';
import { teamKind } from '../modules/auth/team-kind.js';
import { scrapeConfigKind } from '../modules/catalog/scrape-config-kind.js';
import { canaryKind } from '../modules/health/canary-kind.js';
import { incidentRuleKind } from '../modules/incidents/incident-rule-kind.js';
import { loggingBackendKind } from '../modules/logs/logging-backend-kind.js';
import { notificationKind } from '../modules/notifications/notification-kind.js';
import { notificationSilenceKind } from '../modules/notifications/notification-silence-kind.js';
import { playbookKind } from '../modules/playbooks/playbook-kind.js';
import { configMapKind } from '../modules/resources/kinds/config-map.js';
import { connectionKind } from '../modules/resources/kinds/connection.js';
import { secretKind } from '../modules/resources/kinds/secret.js';
import { registerResourceKinds } from '../modules/resources/registry.js';
import { topologyKind } from '../modules/topology/topology-kind.js';
import { viewKind } from '../modules/views/view-kind.js';

/** In the order of SERVER_MODULES (modules.ts). */
export const CLI_RESOURCE_KINDS = [
  teamKind,
  permissionKind,
  connectionKind,
  secretKind,
  configMapKind,
  canaryKind,
  scrapeConfigKind,
  topologyKind,
  incidentRuleKind,
  playbookKind,
  notificationKind,
  notificationSilenceKind,
  viewKind,
  loggingBackendKind,
  applicationKind,
];

registerResourceKinds(CLI_RESOURCE_KINDS);
