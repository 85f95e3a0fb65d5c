import {
  actionCovers,
  isRole,
  RESOURCE_OBJECTS,
  rolesAllow,
  type MatrixAction,
  type Resource,
} from '@opsdeck/contracts';

/** One row of the identity response's permissions (roles' matrix first, then permission rows). */
export interface GrantedPermission {
  object: string;
  action: string;
  deny: boolean;
}

export interface Access {
  roles: readonly string[];
  permissions: readonly GrantedPermission[];
}

function rowMatches(row: GrantedPermission, resource: Resource): boolean {
  const object = RESOURCE_OBJECTS[resource];
  return row.object === resource || (object !== undefined && row.object === object);
}

/**
 * Whether the user may take an action on a whole resource, decided as the server does: a deny
 * row covering the action refuses even what a role allows; then the merged roles' matrix, then
 * an allow row. The server still decides; this only hides what it would refuse.
 */
export function canAccess(access: Access, resource: Resource, action: MatrixAction): boolean {
  const rows = access.permissions.filter((row) => rowMatches(row, resource));
  if (rows.some((row) => row.deny && actionCovers(row.action, action, 'deny'))) return false;
  if (rolesAllow(access.roles.filter(isRole), resource, action)) return true;
  return rows.some((row) => !row.deny && actionCovers(row.action, action, 'allow'));
}
