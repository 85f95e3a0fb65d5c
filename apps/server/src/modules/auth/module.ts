import { READ, READ_DELETE, READ_UPDATE } from '../../data-api/index.js';
import type { ServerModule } from '../../server-module.js';
import { agentRoutes } from './agent-routes.js';
import { accessRowIssues } from './permission-guard.js';
import { permissionKind } from './permission-kind.js';
import { teamsWithStatusSource } from './read-sources.js';
import { authRoutes } from './routes.js';
import { teamKind } from './team-kind.js';

/**
 * People, teams, permissions and access tokens: their kinds and relations, the identity and token
 * routes, and the row checks that keep a write within what its caller may grant. (The auth plugin
 * itself, which tells every route who calls, is registered by app.ts before any module.)
 */
export const authModule: ServerModule = {
  name: 'auth',
  kinds: [teamKind, permissionKind],
  dataApi: {
    tables: {
      people: { actions: READ_UPDATE },
      identities: { actions: READ },
      teams: {},
      team_members: {},
      permissions: {},
      access_tokens: { actions: READ_DELETE, hiddenColumns: ['value'] },
    },
    views: {
      people_roles: {},
      team_components: {},
      // The components' health counts only the components the caller may read.
      teams_with_status: { readSource: teamsWithStatusSource },
      permissions_summary: {},
    },
  },
  dataApiRowChecks: accessRowIssues,
  async routes(app, { pool, logger, secrets, config }) {
    await app.register(authRoutes, { pool, logger, config: config.auth, secrets });
    await app.register(agentRoutes, { pool });
  },
};
