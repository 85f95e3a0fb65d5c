import { z } from 'zod';

// ---------------------------------------------------------------------------------------------
// Notifications (spec core §3, §5, §7; issue 25): rules, silences and the send history.
// ---------------------------------------------------------------------------------------------

/**
 * What became of one notification for one event and recipient. `repeat-interval`: skipped, the
 * same was sent within the rule's repeatInterval; `grouped`: joined an earlier message of its
 * groupBy group; `waited`/`skipped`: a waitFor re-check found the resource still in (or out of)
 * the event's state.
 */
export const NOTIFICATION_SEND_STATUSES = [
  'sent',
  'failed',
  'retrying',
  'pending',
  'silenced',
  'inhibited',
  'repeat-interval',
  'grouped',
  'waited',
  'skipped',
] as const;
export const notificationSendStatusSchema = z.enum(NOTIFICATION_SEND_STATUSES);
export type NotificationSendStatus = z.infer<typeof notificationSendStatusSchema>;

export const NOTIFICATION_RESOURCE_TYPES = [
  'check',
  'config',
  'component',
  'incident',
  'playbook_run',
] as const;

const nullableText = z.string().nullable();
const embedded = z.object({ id: z.string(), name: z.string() }).loose().nullable();

/** One attempt of a delivery, as recorded in `attempts`. */
export const notificationAttemptSchema = z.object({
  at: z.string(),
  status: z.string(),
  error: z.string().nullable(),
});

/** A row of `notification_send_history_summary` (no body). */
export const notificationSendHistorySummaryRowSchema = z.object({
  id: z.string(),
  notification_id: z.string(),
  parent_id: nullableText,
  status: nullableText,
  source_event: nullableText,
  resource_id: nullableText,
  resource_type: nullableText,
  count: z.number(),
  first_observed: z.string(),
  error: nullableText,
  duration_millis: z.number().nullable(),
  person_id: nullableText,
  team_id: nullableText,
  connection_id: nullableText,
  playbook_run_id: nullableText,
  silenced_by: nullableText,
  created_at: z.string(),
  notification: z.object({ id: z.string(), name: z.string(), namespace: z.string() }).nullable(),
  resource: z.object({ id: z.string(), name: z.string() }).loose().nullable(),
  recipient: nullableText,
  title: nullableText,
});
export type NotificationSendHistorySummaryRow = z.infer<typeof notificationSendHistorySummaryRowSchema>;

/** A row of `notification_send_history` (with the rendered body and the attempts). */
export const notificationSendHistoryRowSchema = z.object({
  id: z.string(),
  notification_id: z.string(),
  parent_id: nullableText,
  status: nullableText,
  source_event: nullableText,
  resource_id: nullableText,
  resource_type: nullableText,
  body: nullableText,
  title: nullableText,
  recipient: nullableText,
  count: z.number(),
  error: nullableText,
  duration_millis: z.number().nullable(),
  attempts: z.array(notificationAttemptSchema),
  silenced_by: nullableText,
  /** The run a playbook recipient started for this event. */
  playbook_run_id: nullableText,
  created_at: z.string(),
});

/** A row of `notifications_summary`: a rule with its recipients and delivery counts. */
export const notificationsSummaryRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  title: nullableText,
  events: z.array(z.string()),
  filter: nullableText,
  person_id: nullableText,
  team_id: nullableText,
  playbook_id: nullableText,
  custom_services: z.unknown(),
  repeat_interval: nullableText,
  group_by: z.array(z.string()).nullable(),
  wait_for: nullableText,
  source: z.string(),
  error: nullableText,
  error_at: nullableText,
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: nullableText,
  person: embedded,
  team: embedded,
  playbook: embedded,
  sent: z.number(),
  failed: z.number(),
  pending: z.number(),
  silenced: z.number(),
  total: z.number(),
  last_sent_at: nullableText,
  last_failed_at: nullableText,
  /** The error text the rule's failed sends carried most often (upstream's column). */
  most_common_error: nullableText,
});

/** A row of `notifications` (the rule as stored, with its YAML spec). */
export const notificationRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  labels: z.record(z.string(), z.string()).nullable(),
  spec: z.record(z.string(), z.unknown()).nullable(),
  source: z.string(),
  events: z.array(z.string()),
  person_id: nullableText,
  team_id: nullableText,
  custom_services: z.unknown(),
  error: nullableText,
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: nullableText,
});

/** A row of `notification_silences`. */
export const notificationSilenceRowSchema = z.object({
  id: z.string(),
  name: nullableText,
  namespace: z.string(),
  description: nullableText,
  from: z.string(),
  until: nullableText,
  recursive: z.boolean(),
  filter: nullableText,
  selectors: z.array(z.record(z.string(), z.unknown())).nullable().optional(),
  config_id: nullableText,
  check_id: nullableText,
  canary_id: nullableText,
  component_id: nullableText,
  source: z.string(),
  created_by: nullableText,
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: nullableText,
});
export type NotificationSilenceRow = z.infer<typeof notificationSilenceRowSchema>;

const PAGE_SIZE_MESSAGE = 'pageSize must be a whole number from 1 to 1000';

/** POST /api/notification/summary (spec core §7): one page of the send history. */
export const notificationSummaryRequestSchema = z.object({
  search: z.string().max(200, 'search must be at most 200 characters').optional(),
  includeDeletedResources: z.boolean({ error: 'includeDeletedResources must be true or false' }).optional(),
  pageIndex: z
    .number({ error: 'pageIndex must be a whole number' })
    .int('pageIndex must be a whole number')
    .min(0, 'pageIndex must be 0 or more')
    .optional(),
  pageSize: z
    .number({ error: PAGE_SIZE_MESSAGE })
    .int(PAGE_SIZE_MESSAGE)
    .min(1, PAGE_SIZE_MESSAGE)
    .max(1000, PAGE_SIZE_MESSAGE)
    .optional(),
  status: z
    .union([notificationSendStatusSchema, z.array(notificationSendStatusSchema)], {
      error: `status must be one of ${NOTIFICATION_SEND_STATUSES.join(', ')}`,
    })
    .optional(),
  resourceType: z
    .enum(NOTIFICATION_RESOURCE_TYPES, {
      error: `resourceType must be one of ${NOTIFICATION_RESOURCE_TYPES.join(', ')}`,
    })
    .optional(),
  notificationId: z.uuid({ error: 'notificationId must be a uuid' }).optional(),
  resourceId: z.uuid({ error: 'resourceId must be a uuid' }).optional(),
  from: z.iso.datetime({ offset: true, error: 'from must be a date and time with a zone' }).optional(),
  to: z.iso.datetime({ offset: true, error: 'to must be a date and time with a zone' }).optional(),
});
export type NotificationSummaryRequest = z.infer<typeof notificationSummaryRequestSchema>;

/** The default page size of the notification list (spec core §8). */
export const NOTIFICATION_LIST_PAGE_SIZE = 1000;

export const notificationSummaryResponseSchema = z.object({
  results: z.array(notificationSendHistorySummaryRowSchema),
  total: z.number(),
});
export type NotificationSummaryResponse = z.infer<typeof notificationSummaryResponseSchema>;

const optionalUuid = (field: string) => z.uuid({ error: `${field} must be a uuid` }).nullish();

/**
 * A resource selector of a silence (the ecosystem's `selectors[]`): every field it sets must match
 * the event's resource. `name`, `namespace` and `types` take globs and `!exclusions`, comma
 * separated; `labelSelector` and `fieldSelector` are Kubernetes selectors (`env=prod,tier!=db`).
 */
export const notificationSilenceSelectorSchema = z
  .strictObject(
    {
      id: z.uuid({ error: 'selectors: id must be a uuid' }).optional(),
      name: z.string().max(253, 'selectors: name must be at most 253 characters').optional(),
      namespace: z.string().max(253, 'selectors: namespace must be at most 253 characters').optional(),
      types: z
        .array(z.string().max(253, 'selectors: each type must be at most 253 characters'), {
          error: 'selectors: types must be a list of text',
        })
        .max(50, 'selectors: at most 50 types')
        .optional(),
      labelSelector: z
        .string()
        .max(1000, 'selectors: labelSelector must be at most 1000 characters')
        .optional(),
      fieldSelector: z
        .string()
        .max(1000, 'selectors: fieldSelector must be at most 1000 characters')
        .optional(),
      search: z.string().max(253, 'selectors: search must be at most 253 characters').optional(),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? 'selectors: a selector sets only id, name, namespace, types, labelSelector, fieldSelector and search'
          : 'selectors: each selector must be an object',
    },
  )
  .refine(
    (selector) =>
      Object.values(selector).some((value) => (Array.isArray(value) ? value.length > 0 : !!value)),
    {
      message: 'selectors: a selector must set at least one field',
    },
  );
export type NotificationSilenceSelector = z.infer<typeof notificationSilenceSelectorSchema>;

/** The fields a silence matches with (shared by saving a silence and previewing one). */
const silenceMatchFields = {
  check_id: optionalUuid('check_id'),
  config_id: optionalUuid('config_id'),
  component_id: optionalUuid('component_id'),
  canary_id: optionalUuid('canary_id'),
  filter: z.string().max(2000, 'filter must be at most 2000 characters').nullish(),
  selectors: z
    .array(notificationSilenceSelectorSchema, { error: 'selectors must be a list of selectors' })
    .max(20, 'selectors: at most 20 selectors')
    .nullish(),
  recursive: z.boolean({ error: 'recursive must be true or false' }).optional(),
};

function checkMatchFields(
  body: {
    check_id?: string | null;
    config_id?: string | null;
    component_id?: string | null;
    canary_id?: string | null;
    filter?: string | null;
    selectors?: unknown[] | null;
  },
  context: z.core.$RefinementCtx,
): void {
  const resources = [body.check_id, body.config_id, body.component_id, body.canary_id].filter(Boolean);
  if (resources.length === 0 && !body.filter?.trim() && !(body.selectors && body.selectors.length > 0)) {
    context.addIssue({
      code: 'custom',
      path: ['filter'],
      message: 'a silence needs a resource, a selector or a filter',
    });
  }
  if (resources.length > 1) {
    context.addIssue({
      code: 'custom',
      path: ['check_id'],
      message: 'a silence names at most one resource',
    });
  }
}

/**
 * POST /api/notification/silence: one silence about a resource (check, catalog item, component
 * or canary), resource selectors and/or a CEL filter. `until` null means indefinitely.
 */
export const notificationSilenceRequestSchema = z
  .object({
    /**
     * Where the silence lives (default `default`), its optional name (unique in its namespace) and
     * labels: what permission selectors on notifications match it by (ADR 0041).
     */
    name: z.string().trim().max(253, 'name must be at most 253 characters').nullish(),
    namespace: z.string().trim().max(253, 'namespace must be at most 253 characters').nullish(),
    labels: z.record(z.string(), z.string(), { error: 'labels must be a map of text' }).nullish(),
    description: z.string().max(1000, 'description must be at most 1000 characters').nullish(),
    ...silenceMatchFields,
    from: z.iso.datetime({ offset: true, error: 'from must be a date and time with a zone' }).nullish(),
    until: z.iso
      .datetime({
        offset: true,
        error: 'until must be a date and time with a zone, or null for indefinitely',
      })
      .nullable(),
  })
  .superRefine((body, context) => {
    checkMatchFields(body, context);
    if (body.until && Date.parse(body.until) <= Date.parse(body.from ?? new Date().toISOString())) {
      context.addIssue({ code: 'custom', path: ['until'], message: 'until must be later than from' });
    }
  });
export type NotificationSilenceRequest = z.infer<typeof notificationSilenceRequestSchema>;

/** How many days back a silence preview looks by default, and at most. */
export const SILENCE_PREVIEW_DEFAULT_DAYS = 7;
export const SILENCE_PREVIEW_MAX_DAYS = 30;
/** At most this many matched notifications are returned by a preview (the total counts all). */
export const SILENCE_PREVIEW_LIMIT = 100;

/**
 * POST /api/notification/silence/preview: what a silence with these resource, selectors, filter
 * and recursive settings would have matched among the notifications of the last `days` days.
 */
export const notificationSilencePreviewRequestSchema = z
  .object({
    ...silenceMatchFields,
    days: z
      .number({ error: `days must be a whole number from 1 to ${SILENCE_PREVIEW_MAX_DAYS}` })
      .int(`days must be a whole number from 1 to ${SILENCE_PREVIEW_MAX_DAYS}`)
      .min(1, `days must be a whole number from 1 to ${SILENCE_PREVIEW_MAX_DAYS}`)
      .max(SILENCE_PREVIEW_MAX_DAYS, `days must be a whole number from 1 to ${SILENCE_PREVIEW_MAX_DAYS}`)
      .optional(),
  })
  .superRefine((body, context) => checkMatchFields(body, context));
export type NotificationSilencePreviewRequest = z.infer<typeof notificationSilencePreviewRequestSchema>;

export const notificationSilencePreviewResponseSchema = z.object({
  days: z.number(),
  /** How many notifications of those days the silence matches. */
  total: z.number(),
  /** The newest matched notifications (at most SILENCE_PREVIEW_LIMIT). */
  notifications: z.array(notificationSendHistorySummaryRowSchema),
  /** The distinct resources of the matched notifications, most notified first. */
  resources: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      resource_type: z.string(),
      type: z.string().nullable(),
      count: z.number(),
    }),
  ),
});
export type NotificationSilencePreviewResponse = z.infer<typeof notificationSilencePreviewResponseSchema>;

/**
 * POST /api/notification/rules and PUT /api/notification/rules/:id: a Notification saved from the
 * YAML editor. The server validates the spec as `opsdeck apply` does and fills the rule's columns
 * from it; person_id, team_id and custom_services the spec does not set become null (spec core §5).
 */
export const notificationRuleSaveRequestSchema = z.object({
  name: z
    .string({ error: 'name is required' })
    .trim()
    .min(1, 'name is required')
    .max(253, 'name must be at most 253 characters')
    .optional(),
  namespace: z.string().trim().max(253, 'namespace must be at most 253 characters').optional(),
  labels: z.record(z.string(), z.string(), { error: 'labels must be a map of text' }).nullish(),
  spec: z.record(z.string(), z.unknown(), { error: 'spec must be an object' }),
});
export type NotificationRuleSaveRequest = z.infer<typeof notificationRuleSaveRequestSchema>;

export const notificationRuleIdParamsSchema = z.object({ id: z.uuid({ error: 'id must be a uuid' }) });
export const notificationSilenceIdParamsSchema = notificationRuleIdParamsSchema;

/** DELETE /api/notification/silence/:id answers the soft-deleted silence. */
export const notificationSilenceDeletedSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  namespace: z.string(),
});

export const notificationRuleSavedSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
});
