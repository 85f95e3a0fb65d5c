import { z } from 'zod';

/** Run statuses, as the ecosystem names them (issue 24). */
export const PLAYBOOK_RUN_STATUSES = [
  'scheduled',
  'running',
  'pending_approval',
  'sleeping',
  'retrying',
  'completed',
  'failed',
  'cancelled',
  'timed_out',
] as const;
export const playbookRunStatusSchema = z.enum(PLAYBOOK_RUN_STATUSES);
export type PlaybookRunStatus = z.infer<typeof playbookRunStatusSchema>;

/** A run in one of these statuses is over: nothing more happens to it. */
export const PLAYBOOK_RUN_FINAL_STATUSES: readonly PlaybookRunStatus[] = [
  'completed',
  'failed',
  'cancelled',
  'timed_out',
];

/** Action statuses, as the ecosystem names them. */
export const PLAYBOOK_ACTION_STATUSES = [
  'scheduled',
  'running',
  'sleeping',
  'completed',
  'failed',
  'skipped',
] as const;
export const playbookActionStatusSchema = z.enum(PLAYBOOK_ACTION_STATUSES);
export type PlaybookActionStatus = z.infer<typeof playbookActionStatusSchema>;

/**
 * Parameter types (absent means text): settings §3's, and the ecosystem's duration, bytes,
 * millicores and secret (issue 24).
 */
export const PLAYBOOK_PARAMETER_TYPE_NAMES = [
  'code',
  'checkbox',
  'list',
  'team',
  'people',
  'component',
  'config',
  'check',
  'text',
  'duration',
  'bytes',
  'millicores',
  'secret',
] as const;

/** Settings §3: a parameter's properties (all optional). */
export const playbookParameterPropertiesSchema = z.looseObject({
  size: z.string().optional(),
  language: z.string().optional(),
  jsonSchemaUrl: z.string().optional(),
  options: z.array(z.looseObject({ label: z.string().optional(), value: z.unknown() })).optional(),
  filter: z.unknown().optional(),
  multiline: z.union([z.boolean(), z.string()]).optional(),
  maxLength: z.union([z.number(), z.string()]).optional(),
  minLength: z.union([z.number(), z.string()]).optional(),
  regex: z.string().optional(),
  format: z.string().optional(),
  min: z.union([z.number(), z.string()]).optional(),
  max: z.union([z.number(), z.string()]).optional(),
});

/** A parameter as `POST /api/playbook/{id}/params` answers it: its default already rendered. */
export const playbookParameterSchema = z.object({
  name: z.string(),
  label: z.string().optional(),
  type: z.enum(PLAYBOOK_PARAMETER_TYPE_NAMES).optional(),
  default: z.unknown().optional(),
  required: z.boolean().optional(),
  description: z.string().optional(),
  properties: playbookParameterPropertiesSchema.optional(),
});
export type PlaybookParameter = z.infer<typeof playbookParameterSchema>;

/** The resource a run is about: at most one of these. */
const resourceIds = {
  config_id: z.uuid().optional(),
  component_id: z.uuid().optional(),
  check_id: z.uuid().optional(),
};

/** Settings §3: `POST /api/playbook/run`. */
export const playbookRunRequestSchema = z.object({
  id: z.uuid(),
  ...resourceIds,
  params: z.record(z.string(), z.unknown()).optional(),
});
export type PlaybookRunRequest = z.infer<typeof playbookRunRequestSchema>;

export const playbookRunResponseSchema = z.object({
  run_id: z.uuid(),
  starts_at: z.string(),
});
export type PlaybookRunResponse = z.infer<typeof playbookRunResponseSchema>;

/** `POST /api/playbook/{id}/params`: the body (the resource) and the answer. */
export const playbookParamsRequestSchema = z.object(resourceIds);
export const playbookParamsResponseSchema = z.object({ params: z.array(playbookParameterSchema) });
export type PlaybookParamsResponse = z.infer<typeof playbookParamsResponseSchema>;

export const playbookIdParamsSchema = z.object({ id: z.uuid() });

/** `GET /api/playbook/list`: playbooks runnable on one resource. */
export const playbookListQuerySchema = z.object(resourceIds);
export const playbookSummarySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  namespace: z.string(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  icon: z.string().nullable(),
  category: z.string().nullable(),
  parameters: z.array(playbookParameterSchema),
});
export type PlaybookSummary = z.infer<typeof playbookSummarySchema>;
export const playbookListResponseSchema = z.array(playbookSummarySchema);

/** A row of `playbook_runs`. */
export const playbookRunRowSchema = z.object({
  id: z.string(),
  playbook_id: z.string(),
  parent_id: z.string().nullable(),
  status: playbookRunStatusSchema,
  spec: z.unknown().nullable(),
  parameters: z.record(z.string(), z.unknown()).nullable(),
  request: z.unknown().nullable(),
  config_id: z.string().nullable(),
  component_id: z.string().nullable(),
  check_id: z.string().nullable(),
  agent_id: z.string(),
  error: z.string().nullable(),
  scheduled_time: z.string(),
  start_time: z.string().nullable(),
  end_time: z.string().nullable(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PlaybookRunRow = z.infer<typeof playbookRunRowSchema>;

/** A row of `playbook_run_actions`. */
export const playbookRunActionRowSchema = z.object({
  id: z.string(),
  playbook_run_id: z.string(),
  name: z.string(),
  status: playbookActionStatusSchema,
  result: z.unknown().nullable(),
  error: z.string().nullable(),
  retry_count: z.number(),
  agent_id: z.string(),
  scheduled_time: z.string(),
  start_time: z.string().nullable(),
  end_time: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PlaybookRunActionRow = z.infer<typeof playbookRunActionRowSchema>;

/** A row of `playbook_approvals`. */
export const playbookApprovalRowSchema = z.object({
  id: z.string(),
  run_id: z.string(),
  person_id: z.string().nullable(),
  team_id: z.string().nullable(),
  created_at: z.string(),
});

/** An artifact of a run's action (its bytes at `GET /api/artifacts/download/{id}`). */
export const playbookArtifactSchema = z.object({
  id: z.string(),
  playbook_run_action_id: z.string().nullable(),
  path: z.string(),
  filename: z.string(),
  content_type: z.string().nullable(),
  size: z.number(),
  created_at: z.string(),
});

/** `GET /api/playbook/runs`: server-side paging and filters. */
export const playbookRunsQuerySchema = z.object({
  playbook: z.uuid().optional(),
  status: playbookRunStatusSchema.optional(),
  config_id: z.uuid().optional(),
  component_id: z.uuid().optional(),
  check_id: z.uuid().optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  pageIndex: z.coerce.number().int().min(0).default(0),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export type PlaybookRunsQuery = z.input<typeof playbookRunsQuerySchema>;

export const playbookRunListItemSchema = playbookRunRowSchema
  .omit({ spec: true, request: true, agent_id: true })
  .extend({
    playbook: z.object({
      id: z.string(),
      name: z.string(),
      title: z.string().nullable(),
      icon: z.string().nullable(),
    }),
    resource_name: z.string().nullable(),
    /**
     * What started the run: `person` (with their name), `event` (the event name), `webhook` (its
     * path), `schedule` (its expression). Absent for runs recorded before it was kept.
     */
    started_by: z.object({ type: z.string(), detail: z.string().nullable() }).nullable().optional(),
  });
export type PlaybookRunListItem = z.infer<typeof playbookRunListItemSchema>;
export const playbookRunsResponseSchema = z.object({
  data: z.array(playbookRunListItemSchema),
  totalEntries: z.number(),
});

/** `GET /api/playbook/run/{id}`: the run, its actions, artifacts, approvals and what the caller may do. */
export const playbookRunDetailSchema = z.object({
  run: playbookRunListItemSchema,
  actions: z.array(playbookRunActionRowSchema.omit({ agent_id: true })),
  artifacts: z.array(playbookArtifactSchema),
  approvals: z.array(
    playbookApprovalRowSchema.extend({
      person_name: z.string().nullable(),
      team_name: z.string().nullable(),
    }),
  ),
  can: z.object({ approve: z.boolean(), cancel: z.boolean() }),
});
export type PlaybookRunDetail = z.infer<typeof playbookRunDetailSchema>;

/** Approve and cancel answer the run's new status. */
export const playbookRunStatusResponseSchema = z.object({ status: playbookRunStatusSchema });

/** A row of `playbooks` (soft-deleted; the spec is the YAML's `spec`). */
export const playbookRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  labels: z.record(z.string(), z.unknown()).nullable(),
  spec: z.record(z.string(), z.unknown()),
  source: z.string(),
  agent_id: z.string(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().nullable(),
  /** `spec.icon`, null when none (migration 0260: follows the spec). */
  icon: z.string().nullable(),
  /** `spec.category`, '' when none (migration 0260: follows the spec). */
  category: z.string(),
});
export type PlaybookRow = z.infer<typeof playbookRowSchema>;

/**
 * Results of the actions the run page shows in their own shape (issue 24); other actions'
 * results are shown as they are. The server builds them, the run page parses them.
 */
export const playbookLogsActionResultSchema = z.object({
  name: z.string().nullable(),
  id: z.string().nullable(),
  query: z.string(),
  start: z.string().nullable(),
  end: z.string().nullable(),
  direction: z.enum(['backward', 'forward']),
  total: z.number().int(),
  count: z.number().int(),
  logs: z.array(
    z.object({
      timestamp: z.string(),
      message: z.string(),
      level: z.string().nullable(),
      labels: z.record(z.string(), z.string()),
    }),
  ),
});
export type PlaybookLogsActionResult = z.infer<typeof playbookLogsActionResultSchema>;

export const playbookGitopsActionResultSchema = z.object({
  url: z.string(),
  base: z.string(),
  branch: z.string(),
  pushed: z.boolean(),
  commit: z.string().nullable().optional(),
  changed: z.array(z.string()).optional(),
  skipped: z.string().optional(),
  pullRequest: z
    .union([
      z.object({ created: z.literal(true), number: z.number().int(), url: z.string() }),
      z.object({ created: z.literal(false), reason: z.string() }),
    ])
    .optional(),
});
export type PlaybookGitopsActionResult = z.infer<typeof playbookGitopsActionResultSchema>;

/** `exec` with `checkout`: what was cloned before the script ran. */
export const playbookExecCheckoutResultSchema = z.object({
  url: z.string(),
  branch: z.string().nullable(),
  commit: z.string(),
  destination: z.string(),
});
export type PlaybookExecCheckoutResult = z.infer<typeof playbookExecCheckoutResultSchema>;
