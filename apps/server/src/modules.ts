/**
 * Every module of the server, in one list: the only place that sees them all. app.ts registers
 * their data-API relations, row checks and routes from it, workers.ts their workers, and the
 * resource registry their kinds (at import, below: the CLI, the server and vitest's setup file
 * all import this file first).
 *
 * Adding a module: a folder under `modules/` with its `module.ts` (see `server-module.ts` and the
 * README's "Adding a module"), exported from its `index.ts`, and one line here.
 */
import {
  createDataApiAllowlist,
  HIDDEN_EVERYWHERE,
  mergeAllowlistInputs,
  type DataApiAllowlist,
  type DataApiAllowlistInput,
  type RowChecker,
} from './data-api/index.js';
import { authModule } from './modules/auth/index.js';
import { catalogModule } from './modules/catalog/index.js';
import { eventQueueModule } from './modules/event-queue/index.js';
import { healthModule } from './modules/health/index.js';
import { incidentsModule } from './modules/incidents/index.js';
import { integrationsModule } from './modules/integrations/index.js';
import { mcpModule } from './modules/mcp/index.js';
import { kubeApiModule } from './modules/kube-api/index.js';
import { logsModule } from './modules/logs/index.js';
import { applicationsModule } from './modules/applications/index.js';
import { notificationsModule } from './modules/notifications/index.js';
import { playbooksModule } from './modules/playbooks/index.js';
import { registerResourceKinds, resourcesModule } from './modules/resources/index.js';
import { searchModule } from './modules/search/index.js';
import { settingsModule } from './modules/settings/index.js';
import { topologyModule } from './modules/topology/index.js';
import { viewsModule } from './modules/views/index.js';
import type { ServerModule } from './server-module.js';

/** In registration order: routes, workers (stopped in reverse) and kinds (listings) follow it. */
export const SERVER_MODULES: readonly ServerModule[] = [
  authModule,
  resourcesModule,
  healthModule,
  catalogModule,
  topologyModule,
  incidentsModule,
  playbooksModule,
  notificationsModule,
  settingsModule,
  integrationsModule,
  eventQueueModule,
  viewsModule,
  mcpModule,
  kubeApiModule,
  logsModule,
  applicationsModule,
  searchModule,
];

registerResourceKinds(SERVER_MODULES.flatMap((module) => module.kinds ?? []));

/** Every relation the data API exposes (API.md §1), each declared by the module that owns it. */
export const dataApiAllowlistInput: DataApiAllowlistInput = mergeAllowlistInputs([
  { hiddenEverywhere: HIDDEN_EVERYWHERE },
  ...SERVER_MODULES.flatMap((module) => (module.dataApi ? [module.dataApi] : [])),
]);

export const dataApiAllowlist: DataApiAllowlist = createDataApiAllowlist(dataApiAllowlistInput);

/** Every module's checks of rows written through the data API, in module order. */
export const dataApiRowChecks: RowChecker = (relation, row, context) =>
  SERVER_MODULES.flatMap((module) => module.dataApiRowChecks?.(relation, row, context) ?? []);
