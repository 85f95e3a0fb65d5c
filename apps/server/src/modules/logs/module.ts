import type { ServerModule } from '../../server-module.js';
import { createConnectionResolver, createValueFromResolver } from '../resources/index.js';
import { tapOwnLog } from './backends/opsdeck.js';
import { loggingBackendKind } from './logging-backend-kind.js';
import { logsRoutes } from './routes.js';

/**
 * Logs: the LoggingBackend kind and `POST /api/logs`. The logging_backends table and the
 * components_with_logs view are exposed by the settings and topology modules that own them.
 */
export const logsModule: ServerModule = {
  name: 'logs',
  kinds: [loggingBackendKind],
  async routes(app, { pool, logger, secrets }) {
    tapOwnLog(logger);
    const resolveConnection = createConnectionResolver(pool, secrets, createValueFromResolver(pool, secrets));
    await app.register(logsRoutes, { pool, resolveConnection });
  },
};
