/**
 * Authorization of a request: roles, permissions and token scopes, then the area's feature flag
 * (authorizeRequest), and requirePermission, the preHandler custom routes use. The data API's
 * gate, with row-level permissions, is data-api-authorizer.ts.
 */
import type { Feature, RequestedAction, Resource } from '@opsdeck/contracts';
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Pool } from '../../platform/db/pool.js';
import { authPoolOf } from './auth-plugin.js';
import { featureDisabledMessage, featureOfResource, isFeatureEnabled } from './feature-flags.js';
import { authorize, type AuthorizeOptions, type Decision } from './rbac.js';

/** Roles, permissions and token scopes, then the area's feature flag. */
export async function authorizeRequest(
  pool: Pool,
  request: FastifyRequest,
  resource: Resource,
  action: RequestedAction,
  options: AuthorizeOptions & { feature?: Feature | null } = {},
): Promise<Decision> {
  const decision = authorize(request.auth, resource, action, options);
  if (!decision.allow) return decision;
  const feature = options.feature === undefined ? featureOfResource(resource) : options.feature;
  if (feature && !(await isFeatureEnabled(pool, feature))) {
    return { allow: false, status: 403, message: featureDisabledMessage(feature) };
  }
  return decision;
}

/**
 * A preHandler for custom routes: 401 without a caller, 403 (JSON `{error}`) when the roles,
 * permissions, token scope or a disabled feature refuse the action.
 */
export function requirePermission(
  resource: Resource,
  action: RequestedAction,
  options: AuthorizeOptions & { feature?: Feature | null } = {},
): preHandlerAsyncHookHandler {
  return async function checkPermission(request: FastifyRequest, reply: FastifyReply) {
    const pool = authPoolOf(request);
    if (!pool) throw new Error('requirePermission needs the auth plugin registered on the app');
    const decision = await authorizeRequest(pool, request, resource, action, options);
    if (!decision.allow) return reply.status(decision.status).send({ error: decision.message });
  };
}
