import { z } from 'zod';
import { defineResourceKind, scheduleField, textOrNull } from '../../resource-kinds/index.js';

/** Topology (`canaries.flanksource.com/v1`): a tree of components built on a schedule. */
export const topologySpec = z.looseObject({
  type: z.string().optional(),
  id: z.looseObject({}).optional(),
  icon: z.string().optional(),
  label: z.looseObject({}).optional(),
  owner: z.string().optional(),
  schedule: scheduleField.optional(),
  text: z.string().optional(),
  tooltip: z.string().optional(),
  components: z.array(z.looseObject({ name: z.string().optional() })).optional(),
  properties: z.array(z.looseObject({ name: z.string().optional() })).optional(),
  groupBy: z.looseObject({}).optional(),
});

export const topologyKind = defineResourceKind({
  kind: 'Topology',
  apiVersions: ['canaries.flanksource.com/v1'],
  plural: 'topologies',
  table: 'topologies',
  spec: topologySpec,
  columns: (spec) => ({ icon: textOrNull(spec.icon), schedule: textOrNull(spec.schedule) }),
});
