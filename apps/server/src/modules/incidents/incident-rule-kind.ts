import { z } from 'zod';
import { defineResourceKind, resourceSelectorField } from '../../resource-kinds/index.js';

/** IncidentRule (`mission-control.flanksource.com/v1`): opens incidents for matching health. */
export const incidentRuleSpec = z.looseObject({
  name: z.string().optional(),
  priority: z.number().int().min(0).optional(),
  breakOnMatch: z.boolean().optional(),
  autoClose: z.looseObject({}).optional(),
  autoResolve: z.looseObject({}).optional(),
  filter: z.looseObject({}).optional(),
  components: z.array(resourceSelectorField).optional(),
  template: z.looseObject({}).optional(),
});

export const incidentRuleKind = defineResourceKind({
  kind: 'IncidentRule',
  apiVersions: ['mission-control.flanksource.com/v1'],
  plural: 'incidentrules',
  table: 'incident_rules',
  spec: incidentRuleSpec,
  columns: () => ({}),
});
