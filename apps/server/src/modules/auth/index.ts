/**
 * The auth module: who is calling (sessions, API tokens, public mode), what they may do (the
 * role matrix, fine-grained permissions, token scopes, feature flags), and the self-service
 * identity flows behind the sign-in screens. See README.md for the HTTP surface.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export { authPlugin, publicPerson, sessionTokenOf, type AuthPluginOptions } from './auth-plugin.js';
export { authRoutes, type AuthRoutesOptions } from './routes.js';
export { authorizeRequest, requirePermission } from './authorization.js';
export {
  createDataApiAuthorizer,
  type DataApiAction,
  type DataApiAuthorizer,
  type DataApiTarget,
} from './data-api-authorizer.js';
export {
  authorize,
  hasTokenScope,
  listEffectivePermissions,
  loadGrantedPermissions,
  tokenScopesAllow,
  type AuthContext,
  type AuthPerson,
  type AuthorizeOptions,
  type Decision,
  type GrantedPermission,
  type PermissionTarget,
} from './rbac.js';
export { accessRowIssues, permissionRowIssues, roleChangeIssue } from './permission-guard.js';
export { featureDisabledMessage, isFeatureEnabled } from './feature-flags.js';
export { createTokenForUser, TokenInputError, type CreateTokenForUserOptions } from './access-tokens.js';
export { issueTokenForCaller } from './caller-tokens.js';
export { loadAuthConfig, AuthConfigError, type AuthConfig } from './auth-config.js';
export { createMailer, type Mailer, type OutgoingMail } from './mailer.js';
export { ensureFirstAdmin, type CreatedAdmin } from './bootstrap.js';
export { hashPassword, verifyPassword, generatePassword } from './password.js';
export { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from './http.js';

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../migrations');

/** The migrations this module added (applied with all the others by the migration runner). */
export const AUTH_MIGRATIONS = ['0012_auth_sessions_and_flows.sql', '0013_auth_factors.sql'].map((name) =>
  path.join(MIGRATIONS_DIR, name),
);
export { authModule } from './module.js';
export { permissionKind } from './permission-kind.js';
export { teamKind } from './team-kind.js';
export { findPersonId, findTeamId } from './directory.js';
export {
  playbookMayUseConnection,
  PLAYBOOK_CONNECTION_PERMISSION_PROPERTY,
  type ServiceDecision,
} from './service-subjects.js';
