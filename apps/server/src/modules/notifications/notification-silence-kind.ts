import { z } from 'zod';
import { defineResourceKind, resourceSelectorField, textOrNull } from '../../resource-kinds/index.js';

const instant = z.iso
  .datetime({ offset: true, error: 'must be a date and time with a zone, such as 2025-01-31T18:00:00Z' })
  .meta({ description: 'RFC 3339 date and time, e.g. 2025-01-31T18:00:00Z' });

/**
 * NotificationSilence (`mission-control.flanksource.com/v1`): mutes notifications for the
 * resources its filter or selectors match, from `from` (default: when applied) until `until`
 * (absent: indefinitely).
 */
export const notificationSilenceSpec = z
  .looseObject({
    description: z.string().optional(),
    from: instant.optional(),
    until: instant.optional(),
    recursive: z.boolean().optional(),
    filter: z.string().optional(),
    selectors: z.array(resourceSelectorField).optional(),
  })
  .superRefine((spec, context) => {
    if (spec.from && spec.until && Date.parse(spec.until) <= Date.parse(spec.from)) {
      context.addIssue({ code: 'custom', path: ['until'], message: 'must be later than from' });
    }
  });

export const notificationSilenceKind = defineResourceKind({
  kind: 'NotificationSilence',
  apiVersions: ['mission-control.flanksource.com/v1'],
  plural: 'notificationsilences',
  table: 'notification_silences',
  spec: notificationSilenceSpec,
  columns: (spec) => ({
    description: textOrNull(spec.description),
    // Without `from` the row keeps its default (the time it was first applied).
    from: spec.from,
    until: spec.until ?? null,
    recursive: spec.recursive ?? false,
    filter: textOrNull(spec.filter),
    selectors: spec.selectors ?? null,
  }),
});
