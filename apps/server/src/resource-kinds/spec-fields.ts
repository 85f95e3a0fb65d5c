import { SCHEDULE_PRESETS } from '@opsdeck/contracts';
import { z } from 'zod';
// The schedule grammar only: the jobs index would load the jobs service and its metrics, which
// `opsdeck apply` (validating a schedule field) does not need (issue 22).
import { parseSchedule } from '../platform/jobs/schedule-expression.js';
import { DURATION_PATTERN } from '../platform/time/index.js';

/**
 * A schedule: cron (5 fields, or 6 with seconds), `@every <duration>` or a preset. It is checked
 * with the same parser the schedulers use, so a spec that validates also runs.
 */
export const scheduleField = z
  .string()
  .superRefine((value, context) => {
    try {
      parseSchedule(value);
    } catch (error) {
      context.addIssue({ code: 'custom', message: (error as Error).message });
    }
  })
  .meta({
    description:
      'Cron expression, @every <duration> (e.g. @every 5m) or a preset such as @hourly, @daily, @weekly',
    examples: [...SCHEDULE_PRESETS, '*/5 * * * *'],
  });

/** Durations as the ecosystem writes them: the one duration grammar (`platform/time`). */
export const durationField = z
  .string()
  .regex(DURATION_PATTERN, { error: 'must be a duration such as 30s, 5m, 1h30m or 7d' })
  .meta({ description: 'A duration such as 30s, 5m, 1h30m or 7d', examples: ['30s', '5m', '1h', '7d'] });

/** Kubernetes-style labels: string keys and string values (quote numbers and booleans). */
export const stringMapField = z.record(z.string(), z.string());

const keyReference = z.looseObject({ name: z.string().min(1), key: z.string().min(1) });

/**
 * A value given inline, or by reference to a secret or config map (`valueFrom`), as the
 * ecosystem's connection and check specs write credentials.
 */
export const valueSourceField = z.union([
  z.string(),
  z.looseObject({
    value: z.string().optional(),
    valueFrom: z
      .looseObject({
        secretKeyRef: keyReference.optional(),
        configMapKeyRef: keyReference.optional(),
      })
      .optional(),
  }),
]);

export type ValueSource = z.infer<typeof valueSourceField>;

/** A selector of checks, components or configs (name, namespace, types, labelSelector, ...). */
export const resourceSelectorField = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  namespace: z.string().optional(),
  types: z.array(z.string()).optional(),
  labelSelector: z.string().optional(),
  fieldSelector: z.string().optional(),
  search: z.string().optional(),
});

/** The string or null a text column receives from an optional spec field. */
export function textOrNull(value: string | undefined): string | null {
  return value === undefined || value === '' ? null : value;
}
