import { z } from 'zod';
import { defineResourceKind, textOrNull } from '../../resource-kinds/index.js';

/** View (`mission-control.flanksource.com/v1`): a table and panels built from queries. */
export const viewSpec = z.looseObject({
  display: z
    .looseObject({
      title: z.string().optional(),
      icon: z.string().optional(),
      sidebar: z.boolean().optional(),
      ordinal: z.number().int().optional(),
    })
    .optional(),
  columns: z.array(z.looseObject({ name: z.string().min(1), type: z.string().optional() })).optional(),
  queries: z.record(z.string(), z.looseObject({})).optional(),
  panels: z.array(z.looseObject({ name: z.string().optional(), type: z.string().optional() })).optional(),
});

export const viewKind = defineResourceKind({
  kind: 'View',
  apiVersions: ['mission-control.flanksource.com/v1'],
  plural: 'views',
  table: 'views',
  spec: viewSpec,
  columns: (spec) => ({
    title: textOrNull(spec.display?.title),
    icon: textOrNull(spec.display?.icon),
    sidebar: spec.display?.sidebar ?? false,
    ordinal: spec.display?.ordinal ?? null,
  }),
});
