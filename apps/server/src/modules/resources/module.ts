import type { ServerModule } from '../../server-module.js';
import { connectionRoutes } from './connection-routes.js';
import { configMapKind } from './kinds/config-map.js';
import { connectionKind } from './kinds/connection.js';
import { secretKind } from './kinds/secret.js';
import { resourceRoutes } from './resource-routes.js';
import { resourceSchemaRoutes } from './schema-routes.js';
import { resourceRowIssues } from './validation.js';

/**
 * YAML resources of every kind (apply, get, delete, the directory watcher, the JSON Schemas
 * editors read), and the kinds every module's specs refer to: Connection, Secret and ConfigMap.
 */
export const resourcesModule: ServerModule = {
  name: 'resources',
  kinds: [connectionKind, secretKind, configMapKind],
  dataApi: {
    tables: {
      connections: { hiddenColumns: ['password', 'certificate'] },
    },
  },
  // A spec written through the data API is checked against its kind's schema like an apply.
  dataApiRowChecks: (relation, row) => resourceRowIssues(relation, row),
  async routes(app, { pool, logger, secrets }) {
    await app.register(resourceSchemaRoutes);
    await app.register(resourceRoutes, { pool, logger, secrets });
    await app.register(connectionRoutes, { pool, secrets });
  },
};
