import { resourceSeveritySchema } from '@opsdeck/contracts';
import { z } from 'zod';
// Known exception, left for issue 19 §2: this kind moves into its module, which registers it.
import { CHECK_TYPES } from './checks/registry.js';
import { defineResourceKind, scheduleField, stringMapField, textOrNull } from '../../resource-kinds/index.js';

/** Check types whose entries are validated on apply (those that publish their schema). */
const VALIDATED_CHECK_TYPES = CHECK_TYPES.filter((checkType) => checkType.schema !== undefined);

/**
 * A check list field as the JSON Schema shows it (a list of entries, or one entry as the
 * ecosystem writes `webhook`). It accepts anything itself: the canary's refinement validates the
 * entries, so that every issue keeps its path (`spec.prometheus[0].query`).
 */
function checkListField(schema: z.ZodType) {
  const { $schema: _draft, ...described } = z.toJSONSchema(z.union([z.array(schema), schema]), {
    io: 'input',
    unrepresentable: 'any',
  });
  return z.unknown().meta(described).optional();
}

/** Validates every entry of the check types that publish a schema, with field paths. */
function validateCheckEntries(spec: Record<string, unknown>, ctx: z.RefinementCtx): void {
  for (const checkType of VALIDATED_CHECK_TYPES) {
    const value = spec[checkType.specKey];
    if (value === undefined || value === null || !checkType.schema) continue;
    const isEntry = typeof value === 'object' && !Array.isArray(value);
    if (!isEntry && !Array.isArray(value)) {
      ctx.addIssue({ code: 'custom', path: [checkType.specKey], message: 'must be a list of checks' });
      continue;
    }
    const entries: Array<[unknown, PropertyKey[]]> = Array.isArray(value)
      ? value.map((entry, index): [unknown, PropertyKey[]] => [entry, [checkType.specKey, index]])
      : [[value, [checkType.specKey]]];
    for (const [entry, path] of entries) {
      const parsed = checkType.schema.safeParse(entry);
      if (parsed.success) continue;
      for (const issue of parsed.error.issues) {
        ctx.addIssue({ code: 'custom', path: [...path, ...issue.path], message: issue.message });
      }
    }
  }
}

/**
 * Canary (`canaries.flanksource.com/v1`): a group of health checks run on one schedule. The
 * check lists (`http`, `tcp`, `dns`, ...) are kept as written; entries of the check types that
 * publish a schema (checks/types.ts) are validated here, the rest when they run.
 */
export const canarySpec = z
  .looseObject({
    schedule: scheduleField.optional(),
    interval: z
      .number()
      .int()
      .min(0)
      .optional()
      .meta({ description: 'Deprecated: seconds between runs; use schedule', deprecated: true }),
    replicas: z.number().int().min(0).optional(),
    severity: resourceSeveritySchema.optional(),
    owner: z.string().optional(),
    icon: z.string().optional(),
    labels: stringMapField.optional(),
    ...Object.fromEntries(
      VALIDATED_CHECK_TYPES.map((checkType) => [
        checkType.specKey,
        checkListField(checkType.schema as z.ZodType),
      ]),
    ),
  })
  .superRefine(validateCheckEntries);

function recordOf(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/**
 * The schedule a canary's spec names: `schedule` trimmed, else the deprecated `interval`
 * (seconds, a number or a numeric string) as `@every {n}s`, rounded and at least 1; null when it
 * names neither. Migration 0062 (`canary_schedule_from_spec`) keeps the `schedule` column to
 * the same rule, and the canary runner schedules by it.
 */
export function canaryScheduleFromSpec(spec: unknown): string | null {
  const { schedule, interval } = recordOf(spec);
  if (typeof schedule === 'string' && schedule.trim() !== '') return schedule.trim();
  const seconds =
    typeof interval === 'number'
      ? interval
      : typeof interval === 'string' && /^\s*[0-9]+(\.[0-9]+)?\s*$/.test(interval)
        ? Number(interval)
        : Number.NaN;
  if (Number.isFinite(seconds) && seconds > 0) return `@every ${Math.max(1, Math.round(seconds))}s`;
  return null;
}

export const canaryKind = defineResourceKind({
  kind: 'Canary',
  apiVersions: ['canaries.flanksource.com/v1'],
  plural: 'canaries',
  table: 'canaries',
  spec: canarySpec,
  // Migration 0062 derives the same columns in the database, whichever way the spec arrives.
  columns: (spec) => ({
    icon: textOrNull(spec.icon),
    // The deprecated interval still schedules the canary when no schedule is given.
    schedule: canaryScheduleFromSpec(spec),
  }),
  derivedColumns: ['icon', 'schedule'],
});
