import { z } from 'zod';

const isoTime = z.iso.datetime({ offset: true });

/**
 * The users page (spec core §2 `/settings/users`, §7 `GET /identities` then `GET /people_roles`):
 * the identity rows of the data API.
 */

/** `identities`: the self-service identity of a person (migration 0002), same id as the person. */
export const identityRowSchema = z.object({
  id: z.string(),
  schema_id: z.string(),
  traits: z.object({
    email: z.string().optional(),
    name: z.object({ first: z.string().optional(), last: z.string().optional() }).optional(),
  }),
  /** 'inactive' once the person was deleted: sign-in is refused. */
  state: z.enum(['active', 'inactive']),
  created_at: isoTime,
  updated_at: isoTime,
});
export type IdentityRow = z.infer<typeof identityRowSchema>;

/** How the users page shows a person: invited (never signed in), active, or deactivated. */
export const USER_STATUSES = ['Invited', 'Active', 'Deactivated'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

// ---------------------------------------------------------------------------------------------
// The permissions manager (settings spec §2.2, §3 Permission): rows of `permissions` and the
// `permissions_summary` view (migration 0090) it lists.

const nullableId = z.string().nullable();

/** The columns `permissions` and `permissions_summary` share. */
const permissionColumns = z.object({
  id: z.string(),
  name: z.string().nullable(),
  namespace: z.string(),
  labels: z.record(z.string(), z.string()).nullable(),
  source: z.string(),
  agent_id: z.string(),
  subject: z.string().nullable(),
  subject_type: z.enum(['team', 'person', 'notification', 'group', 'playbook']).nullable(),
  team_id: nullableId,
  person_id: nullableId,
  notification_id: nullableId,
  action: z.string(),
  deny: z.boolean(),
  object: z.string().nullable(),
  config_id: nullableId,
  component_id: nullableId,
  canary_id: nullableId,
  check_id: nullableId,
  playbook_id: nullableId,
  connection_id: nullableId,
  object_selector: z.unknown(),
  tags: z.record(z.string(), z.string()).nullable(),
  agents: z.array(z.string()).nullable(),
  description: z.string().nullable(),
  until: isoTime.nullable(),
  created_by: nullableId,
  updated_by: nullableId,
  created_at: isoTime,
  updated_at: isoTime,
  deleted_at: isoTime.nullable(),
});

/** `permissions`: one allow or deny rule of a subject on an object or a single target. */
export const permissionRowSchema = permissionColumns.extend({ spec: z.unknown() });
export type PermissionRow = z.infer<typeof permissionRowSchema>;

const named = z.object({ id: z.string(), name: z.string() }).loose();

/** `permissions_summary`: a permission with the names of its subject, target and author. */
export const permissionSummaryRowSchema = permissionColumns.extend({
  person: named.nullable(),
  team: named.nullable(),
  notification: named.nullable(),
  playbook: named.nullable(),
  config: named.nullable(),
  component: named.nullable(),
  canary: named.nullable(),
  check: named.nullable(),
  connection: named.nullable(),
  created_by_person: named.nullable(),
  subject_name: z.string().nullable(),
});
export type PermissionSummaryRow = z.infer<typeof permissionSummaryRowSchema>;

/** The Subject tabs of the permission form and the subject_type each sets (settings §4). */
export const PERMISSION_SUBJECT_TABS = [
  { label: 'Team', type: 'team' },
  { label: 'Person', type: 'person' },
  { label: 'Notification', type: 'notification' },
  { label: 'Role', type: 'group' },
  { label: 'Playbook', type: 'playbook' },
] as const;

/** The Resource tabs of the permission form: Catalog, Component, Connection, Playbook, Global. */
export const PERMISSION_RESOURCE_TABS = ['Catalog', 'Component', 'Connection', 'Playbook', 'Global'] as const;
export type PermissionResourceTab = (typeof PERMISSION_RESOURCE_TABS)[number];
