import os from 'node:os';
import {
  accountIdParamsSchema,
  createTokenRequestSchema,
  inviteUserRequestSchema,
  personUpdateRequestSchema,
  updateRolesRequestSchema,
  type AccessTokensResponse,
  type CreateTokenResponse,
  type DeletePersonResponse,
  type DeleteTokenResponse,
  type InviteUserResponse,
  type PersonView,
  type Role,
  type TokenPermissionsResponse,
  type UpdateRolesResponse,
  type WhoamiResponse,
} from '@opsdeck/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Pool } from '../../platform/db/pool.js';
import { HttpError } from '../../platform/http/errors.js';
import type { Logger } from '../../platform/logger.js';
import type { SecretBox } from '../../platform/secrets.js';
import {
  createAccessToken,
  deleteAccessToken,
  getAccessToken,
  listAccessTokens,
  parseExpiry,
  TokenInputError,
} from './access-tokens.js';
import { assignRoles, deletePerson, invitePerson, personView, updatePerson } from './account-service.js';
import { loadAuthConfig, type AuthConfig } from './auth-config.js';
import { requirePermission } from './authorization.js';
import type { FlowDeps } from './flows/flow-context.js';
import { registerFlowRoutes } from './flows/flow-routes.js';
import { registerKratosRoutes } from './kratos/routes.js';
import { createMailer, type Mailer } from './mailer.js';
import { roleChangeIssue } from './permission-guard.js';
import { authorize, listEffectivePermissions, loadGrantedPermissions, type AuthContext } from './rbac.js';

export interface AuthRoutesOptions {
  pool: Pool;
  logger?: Logger;
  /** Defaults to the environment (see auth-config.ts). */
  config?: AuthConfig;
  /** Defaults to SMTP_URL through nodemailer. */
  mailer?: Mailer;
  /** Seals TOTP secrets with SECRET_KEY (pass the app's SecretBox); plain storage without it. */
  secrets?: SecretBox;
}

/** The signed-in caller; the auth plugin has already answered 401 when there is none. */
function caller(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new HttpError(401, 'Unauthorized');
  return request.auth;
}

/**
 * Account management (tokens, people, roles, invites) is the person's own business: a browser
 * session or a token without scopes. A scoped token only carries the rights its scopes name, and
 * none of them (canaries, catalog, ...) is about the account, so a `canaries:read` token must not
 * list, revoke or inspect its owner's other tokens, rename the owner or hand out roles.
 */
function assertAccountCaller(auth: AuthContext): void {
  if (auth.token && auth.token.scopes.length > 0) throw new HttpError(403, ACCOUNT_SCOPED_TOKEN_MESSAGE);
}

export const ACCOUNT_SCOPED_TOKEN_MESSAGE =
  'A token with scopes cannot manage the account: sign in, or use a token without scopes';

/** The same refusal as a preHandler, ahead of the permission check of the route. */
async function accountCallerOnly(request: FastifyRequest): Promise<void> {
  assertAccountCaller(caller(request));
}

function isTokenOwnerOrAdmin(auth: AuthContext, ownerId: string, action: 'read' | 'write'): boolean {
  return auth.person.id === ownerId || authorize(auth, 'rbac', action).allow;
}

/**
 * Identity flows (flows/flow-routes.ts) and the account API of API.md §2: whoami, invites,
 * tokens, token permissions, people edits and role assignment.
 */
export async function authRoutes(app: FastifyInstance, options: AuthRoutesOptions): Promise<void> {
  const config = options.config ?? loadAuthConfig();
  // Routes with a contract schema: validated before the handler, typed inside it.
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const deps: FlowDeps = {
    pool: options.pool,
    config,
    logger: options.logger,
    mailer: options.mailer ?? createMailer(config, options.logger),
    secrets: options.secrets,
  };
  const { pool } = deps;
  registerFlowRoutes(app, deps);
  // Its own scope: the Kratos door alone also takes HTML form posts (urlencoded bodies).
  await app.register(async (scope) => registerKratosRoutes(scope, deps));

  /** Roles given or taken must each be within what the caller holds (permission-guard.ts). */
  async function refuseRoleEscalation(auth: AuthContext, personId: string, roles: readonly Role[]) {
    const { rows } = await pool.query<{ role: Role }>(`SELECT role FROM person_roles WHERE person_id = $1`, [
      personId,
    ]);
    const current = rows.map((row) => row.role);
    const changed = [
      ...roles.filter((role) => !current.includes(role)),
      ...current.filter((role) => !roles.includes(role)),
    ];
    const issue = roleChangeIssue(auth, changed);
    if (issue) throw new HttpError(403, issue, 'roles');
  }

  const hostedProvider = deps.config.hostedIdentityProvider;
  /** Spec core §2: under a hosted identity provider people are managed there, not here (409). */
  function refuseUnderHostedProvider(what: string, field?: string) {
    if (!hostedProvider) return;
    throw new HttpError(409, `People come from ${hostedProvider.name}: ${what} there`, field);
  }

  app.get('/api/auth/whoami', async (request): Promise<WhoamiResponse> => {
    const auth = caller(request);
    const { rows } = await pool.query<{ database: string }>('SELECT current_database() AS database');
    const person = await pool.query<{ avatar: string | null }>(`SELECT avatar FROM people WHERE id = $1`, [
      auth.person.id,
    ]);
    return {
      message: 'success',
      payload: {
        user: { ...auth.person, avatar: person.rows[0]?.avatar ?? null },
        roles: auth.roles,
        permissions: listEffectivePermissions(auth),
        hostname: os.hostname(),
        database: rows[0]?.database ?? '',
        identity_provider: {
          hosted: hostedProvider !== undefined,
          name: hostedProvider?.name ?? null,
        },
      },
    };
  });

  typed.post(
    '/api/auth/invite_user',
    {
      schema: { body: inviteUserRequestSchema },
      preHandler: [accountCallerOnly, requirePermission('identities', 'write')],
    },
    async (request): Promise<InviteUserResponse> => {
      refuseUnderHostedProvider('invite them');
      return invitePerson(deps, request.body, caller(request).person);
    },
  );

  typed.post(
    '/api/auth/create_token',
    { schema: { body: createTokenRequestSchema } },
    async (request): Promise<CreateTokenResponse> => {
      const auth = caller(request);
      if (auth.via === 'token')
        throw new HttpError(403, 'A token cannot create tokens: sign in to create one');
      if (auth.via === 'public') throw new HttpError(403, 'Tokens cannot be created without signing in');
      const input = request.body;
      try {
        const { token } = await createAccessToken(pool, {
          name: input.name,
          personId: auth.person.id,
          createdBy: auth.person.id,
          expiresAt: parseExpiry(input.expiry),
          scopes: input.scope,
        });
        return { payload: { token } };
      } catch (error) {
        if (error instanceof TokenInputError) throw new HttpError(400, error.message, error.field);
        throw error;
      }
    },
  );

  app.get('/api/auth/tokens', async (request): Promise<AccessTokensResponse> => {
    const auth = caller(request);
    assertAccountCaller(auth);
    const everyone = authorize(auth, 'rbac', 'write').allow;
    return { payload: await listAccessTokens(pool, everyone ? undefined : auth.person.id) };
  });

  typed.delete(
    '/api/auth/token/:id',
    { schema: { params: accountIdParamsSchema } },
    async (request): Promise<DeleteTokenResponse> => {
      const auth = caller(request);
      assertAccountCaller(auth);
      const { id } = request.params;
      const token = await getAccessToken(pool, id);
      if (!token) throw new HttpError(404, 'Token not found');
      if (!isTokenOwnerOrAdmin(auth, token.personId, 'write'))
        throw new HttpError(403, 'You are not allowed to revoke this token');
      await deleteAccessToken(pool, id);
      return { message: 'Token deleted' };
    },
  );

  typed.get(
    '/api/rbac/token/:id/permissions',
    { schema: { params: accountIdParamsSchema } },
    async (request): Promise<TokenPermissionsResponse> => {
      const auth = caller(request);
      assertAccountCaller(auth);
      const { id } = request.params;
      const token = await getAccessToken(pool, id);
      if (!token) throw new HttpError(404, 'Token not found');
      if (!isTokenOwnerOrAdmin(auth, token.personId, 'read'))
        throw new HttpError(403, 'You are not allowed to read this token');
      if (token.scopes.length > 0) {
        return {
          payload: token.scopes.map((scope) => ({
            subject: token.id,
            object: scope.object,
            action: scope.action,
            deny: false,
          })),
        };
      }
      // An unscoped token acts with its owner's rights.
      const owner = await personView(pool, token.personId);
      const roles = owner.roles;
      const person = { id: owner.id, name: owner.name, email: owner.email };
      const ownerContext: AuthContext = {
        person,
        roles,
        permissions: await loadGrantedPermissions(pool, person, roles),
        via: 'token',
      };
      return { payload: listEffectivePermissions(ownerContext) };
    },
  );

  typed.post(
    '/api/people/update',
    { schema: { body: personUpdateRequestSchema } },
    async (request): Promise<PersonView> => {
      const auth = caller(request);
      assertAccountCaller(auth);
      const update = request.body;
      for (const field of ['name', 'firstName', 'lastName', 'email'] as const)
        if (update[field] !== undefined) refuseUnderHostedProvider(`change their ${field}`, field);
      const self = update.id === auth.person.id;
      const adminOnly = update.email !== undefined || update.roles !== undefined;
      if (!self || adminOnly) {
        const decision = authorize(auth, 'identities', 'write');
        if (!decision.allow) throw new HttpError(403, decision.message);
      }
      if (update.roles !== undefined) {
        const decision = authorize(auth, 'rbac', 'write');
        if (!decision.allow) throw new HttpError(403, decision.message);
        await refuseRoleEscalation(auth, update.id, update.roles);
      }
      await updatePerson(pool, update);
      if (update.roles !== undefined) await assignRoles(pool, update.id, update.roles);
      return personView(pool, update.id);
    },
  );

  typed.delete(
    '/api/people/:id',
    {
      schema: { params: accountIdParamsSchema },
      preHandler: [accountCallerOnly, requirePermission('identities', 'write')],
    },
    async (request): Promise<DeletePersonResponse> => {
      refuseUnderHostedProvider('remove them');
      const { id } = request.params;
      const person = await personView(pool, id);
      await deletePerson(pool, id, caller(request).person.id);
      return { message: `${person.name} deleted`, payload: { id } };
    },
  );

  typed.post(
    '/api/rbac/:id/update_role',
    {
      schema: { params: accountIdParamsSchema, body: updateRolesRequestSchema },
      preHandler: [accountCallerOnly, requirePermission('rbac', 'write')],
    },
    async (request): Promise<UpdateRolesResponse> => {
      const { id } = request.params;
      const { roles } = request.body;
      await refuseRoleEscalation(caller(request), id, roles);
      const updated = await assignRoles(pool, id, roles);
      return { message: 'success', payload: { id, roles: updated } };
    },
  );
}
