/** The data API's gate (/api/db): the caller's access to a relation, and the rows it may touch. */
import { relationAccess, type RequestedAction } from '@opsdeck/contracts';
import type { FastifyRequest } from 'fastify';
import type { RowFilter } from '../../data-api/row-filters.js';
import type { Pool } from '../../platform/db/pool.js';
import { featureDisabledMessage } from './feature-flags.js';
import { authorize, type Decision } from './rbac.js';
import { featureEnabledForRequest } from './request-features.js';
import {
  hasScopedPermissions,
  mayUseRowGrants,
  rowRestriction,
  scopedPermissionsOf,
} from './row-restrictions.js';
import { rowScopeOf } from './row-scopes.js';

export type DataApiAction = 'read' | 'insert' | 'update' | 'delete' | 'execute';

export interface DataApiTarget {
  relation: string;
  kind: 'table' | 'view' | 'function';
}

export type DataApiAuthorizer = (
  request: FastifyRequest,
  target: DataApiTarget,
  action: DataApiAction,
) => Promise<
  { allow: true; rowFilters?: readonly RowFilter[] } | { allow: false; status: 401 | 403; message: string }
>;

const DATA_API_ACTIONS: Record<DataApiAction, RequestedAction> = {
  read: 'read',
  insert: 'create',
  update: 'update',
  delete: 'delete',
  // Every function clients call through rpc/ only reads.
  execute: 'read',
};

/**
 * The data API's gate: maps the relation to its resource (contracts' DATA_API_RELATIONS) and
 * decides the action for the caller before any SQL runs. Permission rows limited by object
 * selectors, tags, agents or a single target become row restrictions the data API compiles into
 * its SQL: an allow row grants the matching rows of a resource the roles do not give, a deny row
 * hides (and protects) the matching rows even where the roles allow the resource.
 */
export function createDataApiAuthorizer(options: { pool: Pool }): DataApiAuthorizer {
  return async (request, target, action) => {
    const access = relationAccess(target.relation);
    const requested = DATA_API_ACTIONS[action];
    const resource = requested === 'read' ? access.resource : (access.writeResource ?? access.resource);
    const auth = request.auth;
    let decision: Decision & { rowFilters?: readonly RowFilter[] } = authorize(
      auth,
      resource,
      requested,
      access.object ? { object: access.object } : {},
    );
    const scope = rowScopeOf(target.relation);
    if (auth && scope && hasScopedPermissions(auth)) {
      const scoped = await scopedPermissionsOf(options.pool, request, auth);
      const restriction = rowRestriction(scoped, scope, access.object, requested);
      if (decision.allow) {
        if (restriction.deny)
          decision = { allow: true, rowFilters: [{ kind: 'not', filter: restriction.deny }] };
      } else if (restriction.allow && mayUseRowGrants(auth, access.object, requested)) {
        const rowFilters: RowFilter[] = [restriction.allow];
        if (restriction.deny) rowFilters.push({ kind: 'not', filter: restriction.deny });
        decision = { allow: true, rowFilters };
      }
    }
    if (!decision.allow) return decision;
    const feature = access.feature ?? null;
    if (feature && !(await featureEnabledForRequest(options.pool, request, feature))) {
      return { allow: false, status: 403, message: featureDisabledMessage(feature) };
    }
    return decision;
  };
}
