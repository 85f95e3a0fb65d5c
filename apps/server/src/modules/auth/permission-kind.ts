import {
  PERMISSION_ACTIONS,
  PERMISSION_OBJECTS,
  PERMISSION_SUBJECT_TYPES,
  PLAYBOOK_PERMISSION_ACTIONS,
} from '@opsdeck/contracts';
import { z } from 'zod';
import {
  defineResourceKind,
  resourceSelectorField,
  stringMapField,
  textOrNull,
} from '../../resource-kinds/index.js';

/** Subject kinds, global objects and actions come from the one permission model in contracts. */
export const PERMISSION_SUBJECT_KINDS = PERMISSION_SUBJECT_TYPES;
export const PERMISSION_GLOBAL_OBJECTS = PERMISSION_OBJECTS;
export const PERMISSION_ACTION_NAMES = [
  ...PERMISSION_ACTIONS.filter((action) => !action.includes(',')),
  ...PLAYBOOK_PERMISSION_ACTIONS,
] as const;

const subjectSpec = z
  .looseObject({
    team: z.string().min(1).optional(),
    person: z.string().min(1).optional(),
    notification: z.string().min(1).optional(),
    group: z.string().min(1).optional(),
    playbook: z.string().min(1).optional(),
  })
  .superRefine((subject, context) => {
    const named = PERMISSION_SUBJECT_KINDS.filter((key) => subject[key] !== undefined);
    if (named.length !== 1) {
      context.addIssue({
        code: 'custom',
        message: `must name exactly one of ${PERMISSION_SUBJECT_KINDS.join(', ')}${named.length > 1 ? ` (found ${named.join(', ')})` : ''}`,
      });
    }
  });

const objectSelectorSpec = z.looseObject({
  playbooks: z.array(resourceSelectorField).optional(),
  configs: z.array(resourceSelectorField).optional(),
  components: z.array(resourceSelectorField).optional(),
  connections: z.array(resourceSelectorField).optional(),
  notifications: z.array(resourceSelectorField).optional(),
});

/**
 * Permission (`mission-control.flanksource.com/v1`): allows (or with deny, forbids) actions of
 * one subject on a global resource kind or on the resources its selectors match.
 */
export const permissionSpec = z.looseObject({
  description: z.string().optional(),
  subject: subjectSpec,
  actions: z.array(z.enum(PERMISSION_ACTION_NAMES)).min(1),
  deny: z.boolean().optional(),
  object: z.union([z.enum(PERMISSION_GLOBAL_OBJECTS), objectSelectorSpec]).optional(),
  agents: z.array(z.string()).optional(),
  tags: stringMapField.optional(),
});

type PermissionSpec = z.infer<typeof permissionSpec>;

function subjectOf(spec: PermissionSpec): { type: string | null; value: string | null } {
  for (const type of PERMISSION_SUBJECT_KINDS) {
    const value = spec.subject[type];
    if (value !== undefined) return { type, value };
  }
  return { type: null, value: null };
}

export const permissionKind = defineResourceKind({
  kind: 'Permission',
  apiVersions: ['mission-control.flanksource.com/v1'],
  plural: 'permissions',
  table: 'permissions',
  spec: permissionSpec,
  columns: (spec) => {
    const subject = subjectOf(spec);
    return {
      // Subjects are stored by name; the RBAC module resolves team, person and notification ids.
      subject: subject.value,
      subject_type: subject.type,
      // Several actions are one comma-separated grant, as the permissions list shows them.
      action: spec.actions.join(','),
      deny: spec.deny ?? false,
      object: typeof spec.object === 'string' ? spec.object : null,
      object_selector: typeof spec.object === 'object' ? spec.object : null,
      description: textOrNull(spec.description),
      agents: spec.agents ?? null,
      tags: spec.tags ?? null,
    };
  },
});
