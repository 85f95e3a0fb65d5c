/**
 * A caller's row-limited permission rows (object selectors, tags, agents, single targets) as row
 * filters over a relation (row-scopes.ts) that the data API compiles into its SQL.
 */
import { actionCovers, type RequestedAction } from '@opsdeck/contracts';
import type { FastifyRequest } from 'fastify';
import type { RowFilter } from '../../data-api/row-filters.js';
import type { Pool } from '../../platform/db/pool.js';
import { TARGET_KEYS, tokenScopesAllow, type AuthContext, type GrantedPermission } from './rbac.js';
import type { RowScope, ScopeBase } from './row-scopes.js';
import { agentFilter, ALWAYS, NEVER, selectorFilter, UUID } from './selector-filters.js';

function isTargeted(permission: GrantedPermission): boolean {
  return TARGET_KEYS.some((key) => permission[key] !== null);
}

export function hasScopedPermissions(auth: AuthContext): boolean {
  return auth.permissions.some((permission) => permission.restricted || isTargeted(permission));
}

interface ScopedPermission {
  readonly permission: GrantedPermission;
  readonly objectSelector: Record<string, unknown> | null;
  readonly tags: Record<string, unknown> | null;
  readonly agents: readonly string[];
}

const scopedByRequest = new WeakMap<FastifyRequest, Promise<ScopedPermission[]>>();

/** The caller's restricted and targeted permission rows with their selectors (read once per request). */
export function scopedPermissionsOf(
  pool: Pool,
  request: FastifyRequest,
  auth: AuthContext,
): Promise<ScopedPermission[]> {
  let found = scopedByRequest.get(request);
  if (!found) {
    const wanted = auth.permissions.filter((permission) => permission.restricted || isTargeted(permission));
    found = pool
      .query<{ id: string; object_selector: unknown; tags: unknown; agents: string[] | null }>(
        'SELECT id, object_selector, tags, agents FROM permissions WHERE id = ANY($1::uuid[])',
        [wanted.map((permission) => permission.id)],
      )
      .then(({ rows }) => {
        const byId = new Map(rows.map((row) => [row.id, row]));
        return wanted.flatMap((permission) => {
          const row = byId.get(permission.id);
          if (!row) return [];
          return [
            {
              permission,
              objectSelector: isObject(row.object_selector) ? row.object_selector : null,
              tags: isObject(row.tags) && Object.keys(row.tags).length > 0 ? row.tags : null,
              agents: (row.agents ?? []).filter((agent) => agent !== ''),
            },
          ];
        });
      });
    found.catch(() => scopedByRequest.delete(request));
    scopedByRequest.set(request, found);
  }
  return found;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether row-limited allow rows may grant what the roles refuse: not when an unlimited deny row
 * refuses the action, nor when the token's scopes do not cover it.
 */
export function mayUseRowGrants(
  auth: AuthContext,
  object: string | undefined,
  action: RequestedAction,
): boolean {
  const now = Date.now();
  const deniedOutright = auth.permissions.some(
    (permission) =>
      permission.deny &&
      !permission.restricted &&
      !isTargeted(permission) &&
      (permission.until === null || new Date(permission.until).getTime() > now) &&
      permission.object !== null &&
      (permission.object === object || permission.object === '*') &&
      actionCovers(permission.action, action, 'deny'),
  );
  if (deniedOutright) return false;
  if (auth.token && auth.token.scopes.length > 0) return tokenScopesAllow(auth.token.scopes, object, action);
  return true;
}

/**
 * The rows of the relation the allow rows match, and those the deny rows that apply to the
 * action match (each link's matches OR-ed, then carried to the relation along the link's path).
 */
export function rowRestriction(
  permissions: readonly ScopedPermission[],
  scope: RowScope,
  object: string | undefined,
  action: RequestedAction,
): { allow: RowFilter | null; deny: RowFilter | null } {
  const allows: RowFilter[][] = scope.links.map(() => []);
  const denies: RowFilter[][] = scope.links.map(() => []);
  const now = Date.now();
  for (const scopedPermission of permissions) {
    const { permission } = scopedPermission;
    if (permission.until && new Date(permission.until).getTime() <= now) continue;
    if (!actionCovers(permission.action, action, permission.deny ? 'deny' : 'allow')) continue;
    if (scope.object && permission.object !== scope.object && permission.object !== '*') continue;
    const names =
      isTargeted(permission) ||
      (scopedPermission.objectSelector !== null && Object.keys(scopedPermission.objectSelector).length > 0);
    scope.links.forEach((link, i) => {
      if (link.namedOnly && !names) return;
      const match = matchingRows(scopedPermission, link.base, object, permission.deny);
      if (match) (permission.deny ? denies : allows)[i].push(match);
    });
  }
  const onLinks = (perLink: RowFilter[][]): Array<RowFilter | null> =>
    perLink.map((filters, i) => {
      if (filters.length === 0) return null;
      let filter: RowFilter = filters.length === 1 ? filters[0] : { kind: 'or', filters };
      for (const [relation, column, from] of [...scope.links[i].path].reverse()) {
        filter = { kind: 'exists', relation, on: [[column, from]], where: [filter] };
      }
      return filter;
    });
  const any = (filters: Array<RowFilter | null>): RowFilter | null => {
    const present = filters.filter((filter): filter is RowFilter => filter !== null);
    if (present.length === 0) return null;
    return present.length === 1 ? present[0] : { kind: 'or', filters: present };
  };
  const allowLinks = onLinks(allows);
  let allow: RowFilter | null;
  if (scope.combine === 'all') {
    allow = allowLinks.some((filter) => filter === null)
      ? null
      : allowLinks.length === 1
        ? allowLinks[0]
        : { kind: 'and', filters: allowLinks as RowFilter[] };
  } else {
    allow = any(allowLinks);
  }
  return { allow, deny: any(onLinks(denies)) };
}

/**
 * The base rows one permission row covers, or null when the row is about other resources. A
 * criterion this gate cannot evaluate fails closed: an allow matches nothing, a deny everything.
 */
function matchingRows(
  scopedPermission: ScopedPermission,
  base: ScopeBase,
  object: string | undefined,
  deny: boolean,
): RowFilter | null {
  const { permission, objectSelector, tags, agents } = scopedPermission;
  const unsupported = deny ? ALWAYS : NEVER;
  // A row about another kind of object (an incident rule naming a config item) does not reach
  // this relation's rows.
  if (permission.object && permission.object !== '*' && permission.object !== object) return null;
  const conditions: RowFilter[] = [];
  const targets = TARGET_KEYS.filter((key) => permission[key] !== null);
  if (targets.length > 0) {
    const target = base.target;
    if (!target || targets.some((key) => key !== target)) return null;
    const id = permission[target]!;
    conditions.push(UUID.test(id) ? { kind: 'compare', column: 'id', op: 'eq', value: id } : NEVER);
  } else if (objectSelector && Object.keys(objectSelector).length > 0) {
    const selectors = objectSelector[base.selectorKey];
    if (!Array.isArray(selectors) || selectors.length === 0) return null;
    const alternatives = selectors.map((selector) =>
      isObject(selector) ? (selectorFilter(selector, base) ?? unsupported) : unsupported,
    );
    conditions.push(alternatives.length === 1 ? alternatives[0] : { kind: 'or', filters: alternatives });
  } else if (!permission.object || (permission.object !== object && permission.object !== '*')) {
    return null;
  }
  if (tags) {
    const values = Object.entries(tags);
    conditions.push(
      values.every(([, value]) => typeof value === 'string')
        ? { kind: 'contains', column: base.tagsColumn, value: tags as Record<string, string> }
        : unsupported,
    );
  }
  if (agents.length > 0) conditions.push(agentFilter(agents));
  if (conditions.length === 0) return null;
  return conditions.length === 1 ? conditions[0] : { kind: 'and', filters: conditions };
}
