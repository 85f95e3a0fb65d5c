import { z } from 'zod';
import { defineResourceKind } from '../resource-kind.js';
import { scheduleField, stringMapField, textOrNull } from '../spec-fields.js';

/** Check severities of the health-check ecosystem, lowest first. */
export const CANARY_SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;

/**
 * Canary (`canaries.flanksource.com/v1`): a group of health checks run on one schedule. The
 * check lists (`http`, `tcp`, `dns`, ...) are kept as written; the health area validates them.
 */
export const canarySpec = z.looseObject({
  schedule: scheduleField.optional(),
  interval: z
    .number()
    .int()
    .min(0)
    .optional()
    .meta({ description: 'Deprecated: seconds between runs; use schedule', deprecated: true }),
  replicas: z.number().int().min(0).optional(),
  severity: z.enum(CANARY_SEVERITIES).optional(),
  owner: z.string().optional(),
  icon: z.string().optional(),
  labels: stringMapField.optional(),
});

export const canaryKind = defineResourceKind({
  kind: 'Canary',
  apiVersions: ['canaries.flanksource.com/v1'],
  plural: 'canaries',
  table: 'canaries',
  spec: canarySpec,
  columns: (spec) => ({
    icon: textOrNull(spec.icon),
    // The deprecated interval still schedules the canary when no schedule is given.
    schedule: spec.schedule ?? (spec.interval ? `@every ${spec.interval}s` : null),
  }),
});
