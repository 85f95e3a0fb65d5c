import { relationAccess, type Feature, type RequestedAction, type Resource } from '@opsdeck/contracts';
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Pool } from '../../platform/db/pool.js';
import { authPoolOf } from './auth-plugin.js';
import { featureDisabledMessage, featureOfResource, isFeatureEnabled } from './feature-flags.js';
import { authorize, type AuthorizeOptions, type Decision } from './rbac.js';

export type DataApiAction = 'read' | 'insert' | 'update' | 'delete' | 'execute';

export interface DataApiTarget {
  relation: string;
  kind: 'table' | 'view' | 'function';
}

export type DataApiAuthorizer = (
  request: FastifyRequest,
  target: DataApiTarget,
  action: DataApiAction,
) => Promise<{ allow: true } | { allow: false; status: 401 | 403; message: string }>;

const DATA_API_ACTIONS: Record<DataApiAction, RequestedAction> = {
  read: 'read',
  insert: 'create',
  update: 'update',
  delete: 'delete',
  // Every function clients call through rpc/ only reads.
  execute: 'read',
};

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
 * The data API's gate: maps the relation to its resource (contracts' DATA_API_RELATIONS) and
 * decides the action for the caller before any SQL runs.
 */
export function createDataApiAuthorizer(options: { pool: Pool }): DataApiAuthorizer {
  return async (request, target, action) => {
    const access = relationAccess(target.relation);
    const requested = DATA_API_ACTIONS[action];
    const resource = requested === 'read' ? access.resource : (access.writeResource ?? access.resource);
    return authorizeRequest(options.pool, request, resource, requested, {
      ...(access.object ? { object: access.object } : {}),
      feature: access.feature ?? null,
    });
  };
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
