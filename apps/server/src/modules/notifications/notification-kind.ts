import { z } from 'zod';
import { defineResourceKind, textOrNull } from '../../resource-kinds/index.js';

/** Notification (`mission-control.flanksource.com/v1`): which events are sent where. */
export const notificationSpec = z.looseObject({
  events: z.array(z.string().min(1)).min(1),
  title: z.string().optional(),
  template: z.string().optional(),
  filter: z.string().optional(),
  to: z
    .looseObject({
      person: z.string().optional(),
      team: z.string().optional(),
      email: z.string().optional(),
      connection: z.string().optional(),
      url: z.string().optional(),
      playbook: z.string().optional(),
      properties: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
  repeatInterval: z.string().optional(),
  waitFor: z.string().optional(),
  groupBy: z.array(z.string()).optional(),
  groupByInterval: z.string().optional(),
  fallback: z
    .looseObject({
      person: z.string().optional(),
      team: z.string().optional(),
      email: z.string().optional(),
      connection: z.string().optional(),
      url: z.string().optional(),
      delay: z.string().optional(),
    })
    .optional(),
  inhibitions: z
    .array(
      z.looseObject({
        direction: z.enum(['outgoing', 'incoming', 'all']).optional(),
        from: z.array(z.string()).optional(),
        to: z.array(z.string()).optional(),
      }),
    )
    .optional(),
});

export const notificationKind = defineResourceKind({
  kind: 'Notification',
  apiVersions: ['mission-control.flanksource.com/v1'],
  plural: 'notifications',
  table: 'notifications',
  spec: notificationSpec,
  columns: (spec) => ({
    events: spec.events,
    title: textOrNull(spec.title),
    template: textOrNull(spec.template),
    filter: textOrNull(spec.filter),
    properties: spec.to?.properties ?? null,
    repeat_interval: textOrNull(spec.repeatInterval),
    wait_for: textOrNull(spec.waitFor),
    group_by: spec.groupBy ?? null,
  }),
});
