import {
  expandPermissionAction,
  PERMISSION_ACTION_WORDS,
  PERMISSION_OBJECT_RESOURCES,
  PERMISSION_OBJECTS,
  PLAYBOOK_PERMISSION_ACTIONS,
  RESOURCES,
  ROLE_MATRIX,
  type PermissionObject,
  type RequestedAction,
  type Resource,
  type Role,
} from '@opsdeck/contracts';
import { authorize, type AuthContext, type PermissionTarget } from './rbac.js';
import { labelSelectorFilter } from './selector-filters.js';

/**
 * Rules for writing access itself (issue: no escalation). Whoever may write rbac still may not
 * hand out more than they hold: a permission row granting an action on an object needs the
 * author to have that action there, and a role can only be given by someone who has everything
 * the role gives. Deny rows take nothing away from anyone but their subject, so any rbac writer
 * may write them.
 */

export interface GuardIssue {
  path: string;
  message: string;
  status?: 403;
}

const ACTION_WORDS: readonly string[] = [...PERMISSION_ACTION_WORDS, ...PLAYBOOK_PERMISSION_ACTIONS];
const PLAYBOOK_WORDS: readonly string[] = PLAYBOOK_PERMISSION_ACTIONS;

/** The permission object each single-target column falls under. */
const TARGET_OBJECTS: Readonly<Record<keyof PermissionTarget, PermissionObject>> = {
  config_id: 'catalog',
  component_id: 'topology',
  canary_id: 'canaries',
  check_id: 'canaries',
  playbook_id: 'playbooks',
  connection_id: 'connection',
};
/** The permission object each `object_selector` list falls under. */
const SELECTOR_OBJECTS: Readonly<Record<string, PermissionObject>> = {
  configs: 'catalog',
  components: 'topology',
  connections: 'connection',
  playbooks: 'playbooks',
  notifications: 'notification',
};
const TARGET_KEYS = Object.keys(TARGET_OBJECTS) as (keyof PermissionTarget)[];

/** Columns whose change alters what a permission row grants. */
const GRANT_COLUMNS = ['action', 'deny', 'object', 'object_selector', ...TARGET_KEYS];

function isAdmin(auth: AuthContext): boolean {
  return auth.roles.includes('admin');
}

function actionWords(action: string): string[] {
  return action
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

function selectorNames(selector: unknown): string[] {
  return isRecord(selector) ? Object.keys(selector) : [];
}

/** The `object_selector` kinds permission selectors can match (the row scopes' bases). */
const SELECTOR_KINDS = [
  'configs',
  'checks',
  'canaries',
  'playbooks',
  'components',
  'connections',
  'topologies',
  'notifications',
];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An `object_selector` the row scopes can read: kinds they know, each a list of selectors whose
 * label and tag selectors parse. Anything else would silently match nothing (or, for a Deny,
 * everything), so it is refused naming the place.
 */
function selectorIssue(selector: unknown): GuardIssue | null {
  if (selector === null || selector === undefined) return null;
  if (!isRecord(selector))
    return { path: 'object_selector', message: `must be an object of ${SELECTOR_KINDS.join(', ')}` };
  for (const [kind, list] of Object.entries(selector)) {
    const path = `object_selector.${kind}`;
    if (!SELECTOR_KINDS.includes(kind))
      return { path, message: `is not a selector kind: use ${SELECTOR_KINDS.join(', ')}` };
    if (!Array.isArray(list) || list.length === 0 || !list.every(isRecord))
      return { path, message: 'must be a non-empty list of selectors' };
    for (const [index, entry] of list.entries()) {
      for (const key of ['labelSelector', 'tagSelector'] as const) {
        const value = entry[key];
        if (value === undefined || value === null || value === '') continue;
        if (typeof value !== 'string' || labelSelectorFilter(value, 'labels') === null) {
          return {
            path: `${path}[${index}].${key}`,
            message: `"${String(value)}" is not a label selector: use key=value, key!=value, key or !key, separated by commas`,
          };
        }
      }
    }
  }
  return null;
}

/** Values the database would accept but the permission model cannot mean. */
function shapeIssues(row: Readonly<Record<string, unknown>>): GuardIssue[] {
  const issues: GuardIssue[] = [];
  const selector = 'object_selector' in row ? selectorIssue(row.object_selector) : null;
  if (selector) issues.push(selector);
  if ('action' in row) {
    const action = row.action;
    if (typeof action !== 'string' || actionWords(action).length === 0) {
      issues.push({ path: 'action', message: 'is required: one or more of ' + ACTION_WORDS.join(', ') });
    } else {
      const unknown = actionWords(action).filter((word) => !ACTION_WORDS.includes(word));
      if (unknown.length > 0) {
        issues.push({
          path: 'action',
          message: `${unknown.map((word) => `"${word}"`).join(', ')} is not an action: use ${ACTION_WORDS.join(', ')}`,
        });
      } else if (actionWords(action).some((word) => PLAYBOOK_WORDS.includes(word))) {
        const object = row.object;
        const onPlaybooks =
          object === 'playbooks' ||
          (row.playbook_id !== undefined && row.playbook_id !== null) ||
          selectorNames(row.object_selector).includes('playbooks');
        const objectKnown = 'object' in row || 'playbook_id' in row || 'object_selector' in row;
        if (objectKnown && !onPlaybooks) {
          issues.push({ path: 'action', message: 'playbook actions apply only to playbooks' });
        }
      }
    }
  }
  if ('object' in row && row.object !== null && row.object !== undefined) {
    const object = row.object;
    if (
      typeof object !== 'string' ||
      (object !== '*' && !(PERMISSION_OBJECTS as readonly string[]).includes(object))
    ) {
      issues.push({
        path: 'object',
        message: `must be one of ${PERMISSION_OBJECTS.join(', ')} or *`,
      });
    }
  }
  return issues;
}

/**
 * The grant a (whole) permission row makes, checked against the author: every action it allows
 * on its object or target must be one the author may do there.
 */
function grantIssues(row: Readonly<Record<string, unknown>>, auth: AuthContext): GuardIssue[] {
  if (row.deny === true) return [];
  if (isAdmin(auth)) return [];
  const action = typeof row.action === 'string' ? row.action : '';
  const verbs = [...expandPermissionAction(action)].filter((verb) => verb !== '');
  const target = Object.fromEntries(
    TARGET_KEYS.filter((key) => typeof row[key] === 'string').map((key) => [key, row[key] as string]),
  ) as PermissionTarget;
  const targetKeys = Object.keys(target) as (keyof PermissionTarget)[];
  const places: { resource: Resource; object: string; target?: PermissionTarget }[] = [];
  if (typeof row.object === 'string') {
    if (row.object === '*') {
      return [{ path: 'object', message: 'Only an admin may grant actions on every object', status: 403 }];
    }
    const object = row.object as PermissionObject;
    places.push({ resource: PERMISSION_OBJECT_RESOURCES[object], object });
  }
  for (const key of targetKeys) {
    const object = TARGET_OBJECTS[key];
    places.push({ resource: PERMISSION_OBJECT_RESOURCES[object], object, target });
  }
  for (const name of selectorNames(row.object_selector)) {
    const object = Object.hasOwn(SELECTOR_OBJECTS, name) ? SELECTOR_OBJECTS[name] : undefined;
    if (!object) {
      return [
        { path: 'object_selector', message: `Only an admin may grant by a "${name}" selector`, status: 403 },
      ];
    }
    places.push({ resource: PERMISSION_OBJECT_RESOURCES[object], object });
  }
  if (places.length === 0) {
    return [{ path: 'object', message: 'A permission needs an object, a target or a selector', status: 403 }];
  }
  for (const place of places) {
    for (const verb of verbs) {
      const decision = authorize(auth, place.resource, verb as RequestedAction, {
        object: place.object,
        target: place.target,
      });
      if (!decision.allow) {
        return [
          {
            path: 'action',
            message: `You cannot grant ${verb} on ${place.object}: you do not hold it yourself`,
            status: 403,
          },
        ];
      }
    }
  }
  return [];
}

/**
 * Issues of one permission row written through the data API: shape first (400), then whether
 * the author may grant it (403). A PATCH that changes part of a grant is judged as a whole
 * only for admins; others send the grant's action with its object or target.
 */
export function permissionRowIssues(
  row: Readonly<Record<string, unknown>>,
  auth: AuthContext | null | undefined,
  method: 'POST' | 'PATCH' | 'PUT',
): GuardIssue[] {
  const shape = shapeIssues(row);
  if (shape.length > 0) return shape;
  if (!auth) return [{ path: 'action', message: 'Unauthorized', status: 403 }];
  if (isAdmin(auth)) return [];
  const changesGrant = GRANT_COLUMNS.some((column) => column in row);
  if (!changesGrant) return [];
  const whole =
    'action' in row && ('object' in row || TARGET_KEYS.some((key) => key in row) || 'object_selector' in row);
  if (method === 'PATCH' && !whole && row.deny !== true) {
    return [
      {
        path: 'action',
        message: 'Send the whole grant (action with its object or target) to change a permission',
        status: 403,
      },
    ];
  }
  return grantIssues(row, auth);
}

/**
 * Whether the caller may give (or take away) these roles: every read and write a role gives
 * must be one the caller has. Only someone with everything can make an admin.
 */
export function roleChangeIssue(auth: AuthContext, roles: readonly Role[]): string | null {
  if (isAdmin(auth)) return null;
  for (const role of new Set(roles)) {
    const access = ROLE_MATRIX[role];
    if (!access) continue;
    const missing = RESOURCES.find(
      (resource) =>
        (access.read.includes(resource) && !authorize(auth, resource, 'read').allow) ||
        (access.write.includes(resource) && !authorize(auth, resource, 'write').allow),
    );
    if (missing)
      return `You cannot give or take the role ${role}: it can do more with ${missing} than you can`;
  }
  return null;
}

/**
 * The data API's row check for the relations that hold access (app.ts combines it with the
 * resource kinds' checks): permission rows are judged by `permissionRowIssues`.
 */
export function accessRowIssues(
  relation: string,
  row: Readonly<Record<string, unknown>>,
  context: { method: 'POST' | 'PATCH' | 'PUT'; caller: unknown },
): GuardIssue[] {
  if (relation !== 'permissions') return [];
  const request = context.caller as { auth?: AuthContext | null } | undefined;
  return permissionRowIssues(row, request?.auth, context.method);
}
