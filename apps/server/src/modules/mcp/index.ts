/**
 * The MCP endpoint: MCP's Streamable HTTP transport (the SDK's, stateless, JSON answers) at
 * `/mcp` (and `/api/mcp`) for MCP clients, with read-only tools over health checks, the catalog
 * and incidents. See README.md.
 */
export {
  mcpRoutes,
  LATEST_PROTOCOL_VERSION,
  MCP_FORBIDDEN,
  MCP_PROTOCOL_VERSIONS,
  MCP_SCOPE_REQUIRED_MESSAGE,
  MCP_SERVER_NAME,
  type McpRoutesOptions,
} from './routes.js';
export { describeTool, type ToolDefinition } from './tools.js';
export { MCP_TOOLS } from './area-tools.js';
export { mcpModule } from './module.js';
