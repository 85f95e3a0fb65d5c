import { z } from 'zod';
import type { Role } from './roles.js';

/**
 * The role × resource matrix of spec core §6 and settings §6, the feature flags that switch
 * areas off, and the one mapping from data-API relation to resource. The server decides with
 * these; the web app uses the same tables only to hide what the server would refuse.
 */

/** Resources of spec core §6, in the spec's order. `feature_flags` is the properties table. */
export const RESOURCES = [
  'database',
  'rbac',
  'auth',
  'responder',
  'incident',
  'evidences',
  'comments',
  'canaries',
  'topologies',
  'config_scrapers',
  'identities',
  'connections',
  'kratos',
  'agents',
  'feature_flags',
  'logging_backends',
  'integrations',
  'notifications',
  'playbooks',
  'playbook_runs',
  'permissions',
  'views',
] as const;
export type Resource = (typeof RESOURCES)[number];

export function isResource(value: unknown): value is Resource {
  return typeof value === 'string' && (RESOURCES as readonly string[]).includes(value);
}

/** The two actions of the role matrix. */
export const MATRIX_ACTIONS = ['read', 'write'] as const;
export type MatrixAction = (typeof MATRIX_ACTIONS)[number];

function allExcept(...excluded: Resource[]): readonly Resource[] {
  return RESOURCES.filter((resource) => !excluded.includes(resource));
}

const RESPONDER_READS = allExcept('rbac', 'identities', 'connections');
const RESPONDER_WRITES: readonly Resource[] = ['responder', 'incident', 'evidences', 'comments'];

/** What each role may read and write (spec core §6 table). */
export const ROLE_MATRIX: Readonly<Record<Role, { read: readonly Resource[]; write: readonly Resource[] }>> =
  {
    admin: { read: RESOURCES, write: RESOURCES },
    editor: { read: RESOURCES, write: allExcept('connections', 'identities', 'rbac') },
    commander: { read: RESPONDER_READS, write: RESPONDER_WRITES },
    responder: { read: RESPONDER_READS, write: RESPONDER_WRITES },
    viewer: { read: RESPONDER_READS, write: [] },
    guest: { read: RESPONDER_READS, write: [] },
  };

/** Permissions of several roles are merged: any role granting the action is enough. */
export function rolesAllow(roles: readonly Role[], resource: Resource, action: MatrixAction): boolean {
  return roles.some((role) => ROLE_MATRIX[role]?.[action].includes(resource) ?? false);
}

/** The merged matrix of several roles, for the identity response and the web app. */
export function mergedRoleAccess(roles: readonly Role[]): { read: Resource[]; write: Resource[] } {
  return {
    read: RESOURCES.filter((resource) => rolesAllow(roles, resource, 'read')),
    write: RESOURCES.filter((resource) => rolesAllow(roles, resource, 'write')),
  };
}

/** The viewer flag of spec core §6: true for viewer or guest. */
export function isViewer(roles: readonly Role[]): boolean {
  return roles.includes('viewer') || roles.includes('guest');
}

/** Roles that see Run Now on a check (spec core §6). */
export const RUN_NOW_ROLES: readonly Role[] = ['admin', 'editor', 'responder', 'commander'];

// ---------------------------------------------------------------------------------------------
// Fine-grained permissions (settings spec §3, Permission)

export const PERMISSION_SUBJECT_TYPES = ['team', 'person', 'notification', 'group', 'playbook'] as const;
export type PermissionSubjectType = (typeof PERMISSION_SUBJECT_TYPES)[number];

/** Role subjects a permission can target (subject_type 'group'). */
export const PERMISSION_ROLE_SUBJECTS: readonly Role[] = [
  'admin',
  'editor',
  'guest',
  'viewer',
  'responder',
  'commander',
];

/** Global resource kinds a permission's `object` can name. */
export const PERMISSION_OBJECTS = [
  'canaries',
  'catalog',
  'incident',
  'people',
  'topology',
  'playbooks',
  'connection',
  'connection-detail',
  'agent-push',
  'kubernetes-proxy',
  'notification',
  'rbac',
  'logs',
  'agent',
  'artifact',
] as const;
export type PermissionObject = (typeof PERMISSION_OBJECTS)[number];

/**
 * The resource of the role matrix a permission object falls under: granting an action on the
 * object needs that action on this resource (a permission never grants more than its author
 * holds).
 */
export const PERMISSION_OBJECT_RESOURCES: Readonly<Record<PermissionObject, Resource>> = {
  canaries: 'canaries',
  catalog: 'database',
  incident: 'incident',
  people: 'identities',
  topology: 'topologies',
  playbooks: 'playbooks',
  connection: 'connections',
  'connection-detail': 'connections',
  'agent-push': 'agents',
  'kubernetes-proxy': 'connections',
  notification: 'notifications',
  rbac: 'rbac',
  logs: 'logging_backends',
  agent: 'agents',
  artifact: 'playbook_runs',
};

/** Elementary actions a permission row may name (alone or comma-separated). */
export const PERMISSION_ACTION_WORDS = ['read', 'update', 'create', 'delete', '*'] as const;

export const PERMISSION_ACTIONS = [
  'read',
  'update',
  'create',
  'delete',
  '*',
  'create,read,update,delete',
] as const;
export const PLAYBOOK_PERMISSION_ACTIONS = ['playbook:run', 'playbook:approve', 'playbook:*'] as const;

/** An action a caller asks for: a matrix action, a CRUD verb or a playbook verb. */
export type RequestedAction =
  MatrixAction | 'create' | 'update' | 'delete' | 'playbook:run' | 'playbook:approve';

const CRUD = ['create', 'read', 'update', 'delete'] as const;
const PLAYBOOK_VERBS = ['playbook:run', 'playbook:approve'] as const;

/**
 * The elementary actions a stored action string grants or denies. '*' covers everything;
 * 'playbook:*' both playbook verbs; a comma list each of its members.
 */
export function expandPermissionAction(action: string): Set<string> {
  const result = new Set<string>();
  for (const part of action.split(',').map((piece) => piece.trim())) {
    if (part === '*') {
      for (const verb of [...CRUD, ...PLAYBOOK_VERBS]) result.add(verb);
    } else if (part === 'playbook:*') {
      for (const verb of PLAYBOOK_VERBS) result.add(verb);
    } else if (part) {
      result.add(part);
    }
  }
  return result;
}

/**
 * Whether a stored action string covers a requested action. A generic 'write' is granted only
 * by a grant of create, update and delete together, and refused by a deny of any one of them:
 * both choices err on the side of refusing.
 */
export function actionCovers(stored: string, requested: RequestedAction, mode: 'allow' | 'deny'): boolean {
  const granted = expandPermissionAction(stored);
  if (requested === 'write') {
    const writes = ['create', 'update', 'delete'];
    return mode === 'allow'
      ? writes.every((verb) => granted.has(verb))
      : writes.some((verb) => granted.has(verb));
  }
  return granted.has(requested);
}

/** The matrix action a requested action needs from the roles. */
export function matrixActionFor(action: RequestedAction): MatrixAction {
  return action === 'read' ? 'read' : 'write';
}

// ---------------------------------------------------------------------------------------------
// API tokens (settings spec §3, API token creation payload)

export const TOKEN_SCOPE_OBJECTS = [
  'mcp',
  'canaries',
  'catalog',
  'application',
  'playbooks',
  'notification',
] as const;
export type TokenScopeObject = (typeof TOKEN_SCOPE_OBJECTS)[number];

export const TOKEN_SCOPE_ACTIONS: Readonly<Record<TokenScopeObject, readonly string[]>> = {
  mcp: ['*'],
  canaries: ['read', 'create', 'update', 'delete'],
  catalog: ['read', 'create', 'update', 'delete'],
  application: ['read', 'create', 'update', 'delete'],
  playbooks: ['read', 'create', 'update', 'delete', 'playbook:approve', 'playbook:run'],
  notification: ['read', 'create', 'update', 'delete'],
};

export const tokenScopeSchema = z
  .object({
    subject: z.string().default(''),
    object: z.enum(TOKEN_SCOPE_OBJECTS, { error: 'Unknown scope object' }),
    action: z.string().min(1, 'Action is required'),
  })
  .refine((scope) => TOKEN_SCOPE_ACTIONS[scope.object].includes(scope.action), {
    message: 'This action is not allowed for this scope object',
    path: ['action'],
  });
export type TokenScope = z.infer<typeof tokenScopeSchema>;

/** The 'Create new token' payload (settings spec §3 and §5). */
export const createTokenRequestSchema = z.object({
  name: z
    .string({ error: 'Name is required' })
    .transform((name) => name.trim())
    .pipe(z.string().min(1, 'Name is required')),
  expiry: z.string().default('never'),
  scope: z.array(tokenScopeSchema).default([]),
});
export type CreateTokenRequest = z.infer<typeof createTokenRequestSchema>;

// ---------------------------------------------------------------------------------------------
// Feature flags (spec core §6): '{feature}.disable' = 'true' switches an area off.

export const FEATURES = [
  'topology',
  'health',
  'incidents',
  'config',
  'logs',
  'playbooks',
  'applications',
  'views',
  'agents',
  'settings.connections',
  'settings.users',
  'settings.teams',
  'settings.rules',
  'settings.config_scraper',
  'settings.topology',
  'settings.health',
  'settings.job_history',
  'settings.feature_flags',
  'settings.logging_backends',
  'settings.event_queue_status',
  'settings.organization_profile',
  'settings.notifications',
  'settings.playbooks',
  'settings.integrations',
  'settings.permissions',
] as const;
export type Feature = (typeof FEATURES)[number];

/** A settings area is also off when the area it depends on is off. */
export const FEATURE_DEPENDENCIES: Readonly<Partial<Record<Feature, Feature>>> = {
  'settings.config_scraper': 'config',
  'settings.topology': 'topology',
  'settings.health': 'health',
  'settings.job_history': 'health',
};

/** The property names whose value 'true' disables a feature, the feature's own first. */
export function featureDisableProperties(feature: Feature): string[] {
  const names = [`${feature}.disable`];
  const parent = FEATURE_DEPENDENCIES[feature];
  if (parent) names.push(`${parent}.disable`);
  return names;
}

/** The area each resource belongs to; refused while that area is disabled. */
export const RESOURCE_FEATURES: Readonly<Partial<Record<Resource, Feature>>> = {
  canaries: 'health',
  topologies: 'topology',
  incident: 'incidents',
  evidences: 'incidents',
  comments: 'incidents',
  responder: 'incidents',
  config_scrapers: 'config',
  playbooks: 'playbooks',
  playbook_runs: 'playbooks',
  views: 'views',
  agents: 'agents',
  connections: 'settings.connections',
  permissions: 'settings.permissions',
  integrations: 'settings.integrations',
  logging_backends: 'settings.logging_backends',
  notifications: 'settings.notifications',
  identities: 'settings.users',
};

/** The permission object (and token scope object) a whole resource corresponds to. */
export const RESOURCE_OBJECTS: Readonly<Partial<Record<Resource, string>>> = {
  canaries: 'canaries',
  topologies: 'topology',
  incident: 'incident',
  evidences: 'incident',
  comments: 'incident',
  responder: 'incident',
  connections: 'connection',
  playbooks: 'playbooks',
  playbook_runs: 'playbooks',
  notifications: 'notification',
  permissions: 'rbac',
  rbac: 'rbac',
  agents: 'agent',
  identities: 'people',
  logging_backends: 'logs',
};

// ---------------------------------------------------------------------------------------------
// Data-API relations (API.md §1) → resource

export interface RelationAccess {
  /** The resource whose read (and, without writeResource, write) the relation needs. */
  resource: Resource;
  /** A different resource for writes (people are read by everyone, edited by identity admins). */
  writeResource?: Resource;
  /** The permission object and token scope object rows of this relation fall under. */
  object?: string;
  /** The area that refuses this relation while it is disabled. */
  feature?: Feature;
}

function relations(names: string[], access: RelationAccess): Record<string, RelationAccess> {
  return Object.fromEntries(names.map((name) => [name, access]));
}

/** Every relation of API.md §1 (and the real names behind its aliases). */
export const DATA_API_RELATIONS: Readonly<Record<string, RelationAccess>> = {
  ...relations(
    [
      'checks',
      'check_statuses',
      'check_names',
      'canaries',
      'canary_names',
      'checks_labels_keys',
      'checks_by_component',
      'check_summary_for_config',
      'check_component_relationships',
      'check_config_relationships',
      'canaries_with_status',
    ],
    { resource: 'canaries', object: 'canaries', feature: 'health' },
  ),
  ...relations(
    [
      'configs',
      'config_items',
      'config_detail',
      'config_names',
      'config_types',
      'config_statuses',
      'config_tags',
      'config_labels',
      'config_tags_labels_keys',
      'config_changes',
      'config_analysis',
      'config_analysis_items',
      'config_analysis_analyzers',
      'analysis_types',
      'change_types',
      'config_relationships',
      'config_component_relationships',
      'related_configs_recursive',
      'get_parents_by_location',
    ],
    { resource: 'database', object: 'catalog', feature: 'config' },
  ),
  ...relations(['config_scrapers', 'config_scrapers_with_status'], {
    resource: 'config_scrapers',
    object: 'catalog',
    feature: 'config',
  }),
  ...relations(
    [
      'topologies',
      'topologies_with_status',
      'components',
      'component_names',
      'component_labels',
      'component_labels_keys',
      'components_with_logs',
      'team_components',
      'analysis_by_component',
      'changes_by_component',
      'lookup_analysis_by_component',
    ],
    { resource: 'topologies', object: 'topology', feature: 'topology' },
  ),
  ...relations(
    [
      'incidents',
      'incident_summary',
      'incidents_by_component',
      'incidents_by_config',
      'incident_histories',
      'hypotheses',
    ],
    { resource: 'incident', object: 'incident', feature: 'incidents' },
  ),
  evidences: { resource: 'evidences', object: 'incident', feature: 'incidents' },
  comments: { resource: 'comments', object: 'incident', feature: 'incidents' },
  responders: { resource: 'responder', object: 'incident', feature: 'incidents' },
  incident_rules: { resource: 'database', object: 'incident', feature: 'incidents' },
  people: { resource: 'database', writeResource: 'identities', object: 'people' },
  ...relations(['people_roles', 'identities'], {
    resource: 'identities',
    object: 'people',
    feature: 'settings.users',
  }),
  ...relations(['teams', 'teams_with_status', 'team_members'], { resource: 'database' }),
  // Permission rows are rbac (spec core §6): only a role with write on rbac may change who may
  // do what, and roles that cannot read rbac do not read them.
  ...relations(['permissions', 'permissions_summary'], {
    resource: 'rbac',
    object: 'rbac',
    feature: 'settings.permissions',
  }),
  // Never behind a feature: turning flags back on goes through this table.
  properties: { resource: 'feature_flags' },
  access_tokens: { resource: 'identities', object: 'people' },
  ...relations(['playbooks', 'playbook_names'], {
    resource: 'playbooks',
    object: 'playbooks',
    feature: 'playbooks',
  }),
  ...relations(['playbook_runs', 'playbook_run_actions', 'playbook_approvals', 'get_playbook_run_actions'], {
    resource: 'playbook_runs',
    object: 'playbooks',
    feature: 'playbooks',
  }),
  artifacts: { resource: 'playbook_runs', object: 'artifact', feature: 'playbooks' },
  ...relations(
    [
      'notifications',
      'notifications_summary',
      'notification_send_history',
      'notification_send_history_summary',
      'notification_silences',
    ],
    { resource: 'notifications', object: 'notification', feature: 'settings.notifications' },
  ),
  connections: { resource: 'connections', object: 'connection', feature: 'settings.connections' },
  ...relations(['agents', 'agents_summary'], { resource: 'agents', object: 'agent', feature: 'agents' }),
  ...relations(['job_histories', 'job_history', 'job_history_names'], {
    resource: 'database',
    feature: 'settings.job_history',
  }),
  event_queue_summary: { resource: 'database', feature: 'settings.event_queue_status' },
  logging_backends: { resource: 'logging_backends', object: 'logs', feature: 'settings.logging_backends' },
  integrations_with_status: { resource: 'integrations', feature: 'settings.integrations' },
  applications: { resource: 'database', object: 'application', feature: 'applications' },
  ...relations(['views', 'views_summary'], { resource: 'views', feature: 'views' }),
};

/** The table that holds a view's rows: `view_<namespace>_<name>`. */
const VIEW_TABLE = /^view_[a-z0-9_]+$/;

/**
 * The access rule of a data-API relation. A `view_<namespace>_<name>` table belongs to views;
 * a relation not listed falls back to `database` (spec core §6: "otherwise database").
 */
export function relationAccess(relation: string): RelationAccess {
  const name = relation.startsWith('rpc/') ? relation.slice(4) : relation;
  const known = Object.hasOwn(DATA_API_RELATIONS, name) ? DATA_API_RELATIONS[name] : undefined;
  if (known) return known;
  if (VIEW_TABLE.test(name)) return { resource: 'views', feature: 'views' };
  return { resource: 'database' };
}

/** The resource a relation needs for an action. */
export function resourceForRelation(relation: string, action: MatrixAction): Resource {
  const access = relationAccess(relation);
  return action === 'write' ? (access.writeResource ?? access.resource) : access.resource;
}
