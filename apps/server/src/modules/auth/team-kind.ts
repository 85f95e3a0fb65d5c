import { z } from 'zod';
import { defineResourceKind, resourceSelectorField } from '../../resource-kinds/index.js';

/** The icon of a team that names none (settings spec §3, "Managed resources"). */
export const DEFAULT_TEAM_ICON = 'group';

/** Team (`mission-control.flanksource.com/v1`): owners of components and checks. */
export const teamSpec = z.looseObject({
  icon: z.string().optional(),
  components: z.array(resourceSelectorField).optional(),
  checks: z.array(resourceSelectorField).optional(),
  notifications: z
    .array(
      z.looseObject({
        connection: z.string().optional(),
        url: z.string().optional(),
        properties: z.record(z.string(), z.string()).optional(),
      }),
    )
    .optional(),
});

export const teamKind = defineResourceKind({
  kind: 'Team',
  apiVersions: ['mission-control.flanksource.com/v1'],
  plural: 'teams',
  table: 'teams',
  spec: teamSpec,
  columns: (spec) => ({ icon: spec.icon || DEFAULT_TEAM_ICON }),
});
