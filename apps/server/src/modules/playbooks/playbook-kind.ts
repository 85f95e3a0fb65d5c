import { z } from 'zod';
import { defineResourceKind, resourceSelectorField, textOrNull } from '../../resource-kinds/index.js';
import { actionTypeProblem } from './actions/action-keys.js';

/** Parameter types of the playbook run form (settings spec §3, plus the ecosystem's duration, bytes, millicores, secret); absent means text. */
export const PLAYBOOK_PARAMETER_TYPES = [
  'code',
  'checkbox',
  'list',
  'team',
  'people',
  'component',
  'config',
  'check',
  'text',
  'duration',
  'bytes',
  'millicores',
  'secret',
] as const;

export const playbookParameterSpec = z.looseObject({
  name: z.string().min(1),
  label: z.string().optional(),
  type: z.enum(PLAYBOOK_PARAMETER_TYPES).optional(),
  default: z.unknown().optional(),
  required: z.boolean().optional(),
  properties: z.looseObject({}).optional(),
});

function eventTrigger<const T extends readonly [string, ...string[]]>(events: T) {
  return z.looseObject({
    event: z.enum(events),
    filter: z.string().optional(),
    labels: z.record(z.string(), z.string()).optional(),
  });
}

/** `on`: event triggers (canary, config, component), webhook and schedule (validated by their own code). */
export const playbookTriggersSpec = z.looseObject({
  canary: z.array(eventTrigger(['passed', 'failed'])).optional(),
  config: z
    .array(
      eventTrigger([
        'created',
        'updated',
        'deleted',
        'changed',
        'healthy',
        'unhealthy',
        'warning',
        'unknown',
      ]),
    )
    .optional(),
  component: z.array(eventTrigger(['healthy', 'unhealthy', 'warning', 'unknown'])).optional(),
});

/** Playbook (`mission-control.flanksource.com/v1`): parameters and actions run on a resource. */
export const playbookSpec = z.looseObject({
  title: z.string().optional(),
  description: z.string().optional(),
  icon: z.string().optional(),
  category: z.string().optional(),
  configs: z.array(resourceSelectorField).optional(),
  components: z.array(resourceSelectorField).optional(),
  checks: z.array(resourceSelectorField).optional(),
  parameters: z.array(playbookParameterSpec).optional(),
  actions: z.array(z.looseObject({ name: z.string().min(1) })).optional(),
  on: playbookTriggersSpec.optional(),
});

export const playbookKind = defineResourceKind({
  kind: 'Playbook',
  apiVersions: ['mission-control.flanksource.com/v1'],
  plural: 'playbooks',
  table: 'playbooks',
  spec: playbookSpec,
  columns: (spec) => ({ title: textOrNull(spec.title), description: textOrNull(spec.description) }),
  // Each action names exactly one known type: a typo or a missing type is refused on save, not
  // found at run time.
  specIssues: (spec) => {
    const actions = Array.isArray(spec.actions) ? spec.actions : [];
    return actions.flatMap((action, index) => {
      if (!action || typeof action !== 'object' || Array.isArray(action)) return [];
      const problem = actionTypeProblem(action as Record<string, unknown>);
      return problem ? [{ path: `spec.actions[${index}]`, message: problem }] : [];
    });
  },
});
