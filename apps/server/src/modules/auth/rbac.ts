import {
  actionCovers,
  matrixActionFor,
  mergedRoleAccess,
  RESOURCE_OBJECTS,
  rolesAllow,
  TOKEN_SCOPE_OBJECTS,
  type RequestedAction,
  type Resource,
  type Role,
  type TokenScope,
} from '@opsdeck/contracts';
import type { Queryable } from './identity-store.js';
import type { Aal } from './session-store.js';

/** A row of the permissions table that applies to the caller (as subject). */
export interface GrantedPermission {
  id: string;
  subject: string | null;
  subject_type: string | null;
  object: string | null;
  action: string;
  deny: boolean;
  until: string | null;
  config_id: string | null;
  component_id: string | null;
  canary_id: string | null;
  check_id: string | null;
  playbook_id: string | null;
  connection_id: string | null;
  /** Rows limited by a selector, tags or agents apply to matching rows only, never to a whole resource. */
  restricted: boolean;
}

export interface AuthPerson {
  id: string;
  name: string;
  email: string | null;
}

/** Who is calling, decorated on every request as `request.auth` (null when nobody). */
export interface AuthContext {
  person: AuthPerson;
  roles: Role[];
  /** Fine-grained permissions whose subject is this person, one of their teams or roles. */
  permissions: GrantedPermission[];
  /** Set when the call carries an API token: its scopes narrow the person's rights. */
  token?: { id: string; scopes: TokenScope[] };
  /** Set for a browser session. */
  session?: { id: string; aal: Aal; authenticatedAt: Date; expiresAt: Date };
  via: 'session' | 'token' | 'public';
}

export type Decision = { allow: true } | { allow: false; status: 401 | 403; message: string };

/** The single target a check is about (a playbook to run, a config to read). */
export interface PermissionTarget {
  config_id?: string;
  component_id?: string;
  canary_id?: string;
  check_id?: string;
  playbook_id?: string;
  connection_id?: string;
}

export interface AuthorizeOptions {
  /** The permission/scope object the check falls under; defaults to the resource's. */
  object?: string;
  target?: PermissionTarget;
  now?: Date;
}

/** The columns of a permission row that name one target (a config, a check, ...). */
export const TARGET_KEYS = [
  'config_id',
  'component_id',
  'canary_id',
  'check_id',
  'playbook_id',
  'connection_id',
] as const;

/** Loads the permission rows whose subject is this person, their teams or their roles. */
export async function loadGrantedPermissions(
  db: Queryable,
  person: AuthPerson,
  roles: readonly Role[],
): Promise<GrantedPermission[]> {
  const { rows } = await db.query<Omit<GrantedPermission, 'until'> & { until: Date | null }>(
    `WITH my_teams AS (
       SELECT t.id, t.name FROM team_members m JOIN teams t ON t.id = m.team_id
        WHERE m.person_id = $1 AND t.deleted_at IS NULL
     )
     SELECT p.id, p.subject, p.subject_type, p.object, p.action, p.deny, p.until,
            p.config_id, p.component_id, p.canary_id, p.check_id, p.playbook_id, p.connection_id,
            (p.object_selector IS NOT NULL AND p.object_selector <> 'null'::jsonb AND p.object_selector <> '{}'::jsonb)
              OR (p.tags IS NOT NULL AND p.tags <> '{}'::jsonb)
              OR coalesce(cardinality(p.agents), 0) > 0 AS restricted
       FROM permissions p
      WHERE p.deleted_at IS NULL
        AND (p.until IS NULL OR p.until > now())
        AND (
          p.person_id = $1
          OR (p.subject_type = 'person' AND p.person_id IS NULL AND p.subject IN ($1::text, lower($2)))
          OR p.team_id IN (SELECT id FROM my_teams)
          OR (p.subject_type = 'team' AND p.team_id IS NULL
              AND p.subject IN (SELECT id::text FROM my_teams UNION ALL SELECT name FROM my_teams))
          OR (p.subject_type = 'group' AND p.subject = ANY($3::text[]))
        )
      ORDER BY p.created_at`,
    [person.id, person.email ?? '', roles],
  );
  return rows.map((row) => ({ ...row, until: row.until?.toISOString() ?? null }));
}

function appliesTo(
  permission: GrantedPermission,
  object: string | undefined,
  target: PermissionTarget | undefined,
  now: Date,
): boolean {
  if (permission.until && new Date(permission.until) <= now) return false;
  if (permission.restricted) return false;
  const targeted = TARGET_KEYS.filter((key) => permission[key] !== null);
  if (targeted.length > 0) {
    return target !== undefined && targeted.every((key) => target[key] === permission[key]);
  }
  if (!object || !permission.object) return false;
  return permission.object === object || permission.object === '*';
}

const VERB: Record<RequestedAction, string> = {
  read: 'read',
  write: 'change',
  create: 'create',
  update: 'update',
  delete: 'delete',
  'playbook:run': 'run',
  'playbook:approve': 'approve',
};

/**
 * Decides one action on one resource: a deny permission refuses even what a role allows; then
 * the merged roles allow, or else an allow permission; a token's scopes can only narrow that.
 * Feature flags are checked separately (they need the database).
 */
export function authorize(
  auth: AuthContext | null | undefined,
  resource: Resource,
  action: RequestedAction,
  options: AuthorizeOptions = {},
): Decision {
  if (!auth) return { allow: false, status: 401, message: 'Unauthorized' };
  const now = options.now ?? new Date();
  const object = options.object ?? RESOURCE_OBJECTS[resource];
  const applicable = auth.permissions.filter((permission) =>
    appliesTo(permission, object, options.target, now),
  );
  if (applicable.some((permission) => permission.deny && actionCovers(permission.action, action, 'deny'))) {
    return { allow: false, status: 403, message: `A permission denies you to ${VERB[action]} ${resource}` };
  }
  const allowed =
    rolesAllow(auth.roles, resource, matrixActionFor(action)) ||
    applicable.some((permission) => !permission.deny && actionCovers(permission.action, action, 'allow'));
  if (!allowed) {
    return { allow: false, status: 403, message: `You are not allowed to ${VERB[action]} ${resource}` };
  }
  if (auth.token && auth.token.scopes.length > 0) {
    if (!tokenScopesAllow(auth.token.scopes, object, action)) {
      return {
        allow: false,
        status: 403,
        message: `This token's scope does not allow it to ${VERB[action]} ${resource}`,
      };
    }
  }
  return { allow: true };
}

/**
 * Whether a token's scopes cover an action on a scope object ('mcp' takes only '*'). The
 * object's scopes count together: a generic `write` needs create, update and delete, which
 * settings §3 only offers as three scopes.
 */
export function tokenScopesAllow(
  scopes: readonly TokenScope[],
  object: string | undefined,
  action: RequestedAction | '*',
): boolean {
  if (!object || !(TOKEN_SCOPE_OBJECTS as readonly string[]).includes(object)) return false;
  const actions = scopes.filter((scope) => scope.object === object).map((scope) => scope.action);
  if (actions.length === 0) return false;
  if (action === '*') return actions.includes('*');
  return actionCovers(actions.join(','), action, 'allow');
}

/**
 * Whether the caller may use an area that only token scopes gate (the MCP endpoint): a token
 * with scopes needs one for that object; sessions and unscoped tokens may.
 */
export function hasTokenScope(
  auth: AuthContext | null | undefined,
  object: 'mcp' | string,
  action: RequestedAction | '*' = '*',
): boolean {
  if (!auth) return false;
  if (!auth.token || auth.token.scopes.length === 0) return true;
  return tokenScopesAllow(auth.token.scopes, object, action);
}

export interface WhoamiPermission {
  subject: string;
  object: string;
  action: string;
  deny: boolean;
}

/**
 * The caller's permissions as the identity response lists them: what the roles give
 * (subject = role, object = resource, action read or write), then each fine-grained row.
 */
export function listEffectivePermissions(auth: AuthContext): WhoamiPermission[] {
  const fromRoles: WhoamiPermission[] = [];
  for (const role of auth.roles) {
    const access = mergedRoleAccess([role]);
    for (const resource of access.read)
      fromRoles.push({ subject: role, object: resource, action: 'read', deny: false });
    for (const resource of access.write)
      fromRoles.push({ subject: role, object: resource, action: 'write', deny: false });
  }
  const fromRows = auth.permissions.map((permission) => ({
    subject: permission.subject ?? permission.subject_type ?? '',
    object:
      permission.object ??
      TARGET_KEYS.filter((key) => permission[key] !== null)
        .map((key) => `${key}:${permission[key]}`)
        .join(',') ??
      '',
    action: permission.action,
    deny: permission.deny,
  }));
  return [...fromRoles, ...fromRows];
}
