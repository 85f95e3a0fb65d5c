import type { ServerModule } from '../../server-module.js';
import { mcpRoutes } from './routes.js';

/** The Model Context Protocol endpoint: the data API's relations as tools for MCP clients. */
export const mcpModule: ServerModule = {
  name: 'mcp',
  async routes(app, { pool, logger, dataApi }) {
    await app.register(mcpRoutes, { pool, logger, allowlist: dataApi });
  },
};
