import { z } from 'zod';
import { parsedTimeParameterSchema } from './time.js';

/**
 * Health of a config item, component or connection, as the catalog stores it (`health`) and the
 * resource selector filters it (`health=healthy,unhealthy`, core §5). Anything else shows grey.
 */
export const HEALTH_STATES = ['healthy', 'unhealthy', 'warning', 'unknown'] as const;
export const healthStateSchema = z.enum(HEALTH_STATES);
export type HealthState = z.infer<typeof healthStateSchema>;

/** A check's status (core §3 "status (healthy or unhealthy)"; `checks.status`, migration 0006). */
export const CHECK_STATUSES = ['healthy', 'unhealthy'] as const;
export const checkStatusSchema = z.enum(CHECK_STATUSES);
export type CheckStatus = z.infer<typeof checkStatusSchema>;

const isoTime = z.iso.datetime({ offset: true });

/**
 * A check of the health page (core §3 "Check summary"), as `GET /api/canary/api/summary` sends it
 * in `checks_summary`. The server writes this JSON as text without building the objects; its
 * route test parses the text with this schema.
 */
export const checkSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  endpoint: z.string().nullable(),
  canary_name: z.string(),
  type: z.string(),
  icon: z.string().nullable(),
  namespace: z.string().nullable(),
  // A catch-all object rather than z.record: it parses in less than half the time.
  labels: z.object({}).catchall(z.string()),
  agent_id: z.string(),
  canary_id: z.string(),
  canary_namespace: z.string(),
  owner: z.string().nullable(),
  severity: z.string().nullable(),
  created_at: isoTime,
  /** null before the check's first result. */
  status: checkStatusSchema.nullable(),
  uptime: z.object({ passed: z.number(), failed: z.number() }),
  /** Milliseconds; a percentile is absent when no result in the range was timed. */
  latency: z.object({
    rolling1h: z.number().optional(),
    p95: z.number().optional(),
    p97: z.number().optional(),
    p99: z.number().optional(),
  }),
  last_runtime: isoTime.nullable(),
  last_transition_time: isoTime.nullable(),
  deleted_at: isoTime.nullable(),
  updated_at: isoTime.nullable(),
});
export type CheckSummary = z.infer<typeof checkSummarySchema>;

/** The body of `GET|POST /api/canary/api/summary`. */
export const checkSummaryResponseSchema = z.object({
  /** Milliseconds the server took. */
  duration: z.number(),
  runnerName: z.string(),
  checks_summary: z.array(checkSummarySchema),
});
export type CheckSummaryResponse = z.infer<typeof checkSummaryResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Requests of the health API (API.md §2). Fastify validates them before the handler runs.

/** `''` and a missing parameter are the same: the default applies. */
const emptyAsMissing = (value: unknown) => (value === '' ? undefined : value);

/** A check id in a parameter: any UUID the database accepts. */
function checkIdSchema(field: string) {
  return z.guid({
    error: (issue) =>
      issue.input === undefined ? `${field} is required` : `${field} must be a check id (a UUID)`,
  });
}

/**
 * The query of `GET /api/canary/api/summary` (and the body of its POST, which may carry the same
 * fields). `labels` is a JSON object text, `key=value,key2=value2` or, in a body, an object: an
 * invalid one is logged and ignored (core §5), so any value passes here. `sortBy` is accepted
 * and has no effect (the page sorts).
 */
export const checkSummaryQuerySchema = z.object({
  start: parsedTimeParameterSchema('start'),
  end: parsedTimeParameterSchema('end'),
  /** Also list checks deleted since this time (default: the range's start). */
  deleteFrom: parsedTimeParameterSchema('deleteFrom'),
  labels: z.unknown().optional(),
  sortBy: z.string().optional(),
});
export type CheckSummaryQuery = z.input<typeof checkSummaryQuerySchema>;

/** The query of `GET /api/canary/api`: the summary's, one check, and the runs' messages or not. */
export const checkStatusesQuerySchema = checkSummaryQuerySchema.extend({
  check: z.preprocess(emptyAsMissing, checkIdSchema('check').optional()),
  includeMessages: z.preprocess(emptyAsMissing, z.stringbool().optional()),
});
export type CheckStatusesQuery = z.input<typeof checkStatusesQuerySchema>;

/** Check graph count (core §9 'Check graph count 300') and its upper bound. */
export const CHECK_GRAPH_DEFAULT_COUNT = 300;
export const CHECK_GRAPH_MAX_COUNT = 10_000;
const graphCountMessage = `count must be a whole number from 1 to ${CHECK_GRAPH_MAX_COUNT}`;

/** The query of `GET /api/canary/api/graph`. */
export const checkGraphQuerySchema = z.object({
  start: parsedTimeParameterSchema('start'),
  end: parsedTimeParameterSchema('end'),
  check: checkIdSchema('check'),
  /** At most this many buckets, the latest ones. */
  count: z.preprocess(
    emptyAsMissing,
    z.coerce
      .number({ error: graphCountMessage })
      .int({ error: graphCountMessage })
      .min(1, { error: graphCountMessage })
      .max(CHECK_GRAPH_MAX_COUNT, { error: graphCountMessage })
      .default(CHECK_GRAPH_DEFAULT_COUNT),
  ),
});
export type CheckGraphQuery = z.input<typeof checkGraphQuerySchema>;

/** The path parameters of `POST /api/canary/run/check/{id}`. */
export const runCheckParamsSchema = z.object({ id: checkIdSchema('id') });

// ---------------------------------------------------------------------------------------------
// Responses of the health API.

/** One run of a check in `GET /api/canary/api` (newest first); message and error with `includeMessages`. */
export const checkStatusRecordSchema = z.object({
  time: isoTime,
  /** Milliseconds; null when the run was not timed. */
  duration: z.number().nullable(),
  status: z.boolean(),
  message: z.string().nullable().optional(),
  error: z.string().nullable().optional(),
});
export type CheckStatusRecord = z.infer<typeof checkStatusRecordSchema>;

export const checkWithStatusesSchema = checkSummarySchema.extend({
  checkStatuses: z.array(checkStatusRecordSchema),
});
export type CheckWithStatuses = z.infer<typeof checkWithStatusesSchema>;

/** The body of `GET /api/canary/api`. */
export const checkStatusesResponseSchema = z.object({ checks: z.array(checkWithStatusesSchema) });
export type CheckStatusesResponse = z.infer<typeof checkStatusesResponseSchema>;

/** A bucket of `GET /api/canary/api/graph`. */
export const checkGraphPointSchema = z.object({
  /** Start of the bucket. */
  time: isoTime,
  /** True when every run in the bucket passed. */
  status: z.boolean(),
  /** Mean duration of the bucket's timed runs, ms. */
  duration: z.number().nullable(),
  passed: z.number().int(),
  failed: z.number().int(),
});
export type CheckGraphPoint = z.infer<typeof checkGraphPointSchema>;

/** The body of `GET /api/canary/api/graph`: buckets oldest first, the summary's latency and uptime. */
export const checkGraphResponseSchema = z.object({
  /** Bucket width in seconds: 60 up to 2 h, 900 up to 24 h, 3600 up to 7 d, 14400 beyond. */
  bucketSeconds: z.number().int(),
  status: z.array(checkGraphPointSchema),
  latency: checkSummarySchema.shape.latency,
  uptime: checkSummarySchema.shape.uptime,
});
export type CheckGraphResponse = z.infer<typeof checkGraphResponseSchema>;

/** The body of `POST /api/canary/run/check/{id}` (Run Now). */
export const runCheckResponseSchema = z.object({
  total: z.number().int(),
  failed: z.number().int(),
  success: z.number().int(),
  /** One text per failed check, `name: reason`. */
  errors: z.array(z.string()),
});
export type RunCheckResponse = z.infer<typeof runCheckResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Rows of the data API (`/api/db/<relation>`), listed in `relationRowSchemas` (rows.ts).

/** A data-API timestamp (PostgreSQL's JSON text of a timestamptz). */
const rowTime = isoTime;
const stringLabels = z.object({}).catchall(z.string());

/** A row of `checks` (migration 0006). */
export const checkRowSchema = z.object({
  id: z.string(),
  canary_id: z.string(),
  agent_id: z.string(),
  type: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  icon: z.string().nullable(),
  namespace: z.string().nullable(),
  endpoint: z.string().nullable(),
  owner: z.string().nullable(),
  severity: z.string().nullable(),
  labels: stringLabels.nullable(),
  /** This check's own entry of the canary spec. */
  spec: z.record(z.string(), z.unknown()).nullable(),
  /** null until the first run. */
  status: checkStatusSchema.nullable(),
  transformed: z.boolean(),
  last_runtime: rowTime.nullable(),
  last_transition_time: rowTime.nullable(),
  next_runtime: rowTime.nullable(),
  silenced_at: rowTime.nullable(),
  created_at: rowTime,
  updated_at: rowTime,
  deleted_at: rowTime.nullable(),
});
export type CheckRow = z.infer<typeof checkRowSchema>;

/** What the check panel lists of a related component or config item (an embed of the relationship rows). */
export const checkRelatedItemSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  type: z.string().nullable(),
});

const checkRelationshipColumns = {
  check_id: z.string(),
  canary_id: z.string(),
  selector_id: z.string().nullable(),
  created_at: rowTime,
  updated_at: rowTime,
  deleted_at: rowTime.nullable(),
};

/** A row of `check_component_relationships` (a page embeds `component:components(...)` on a pick). */
export const checkComponentRelationshipRowSchema = z.object({
  component_id: z.string(),
  ...checkRelationshipColumns,
});

/** A row of `check_config_relationships` (a page embeds `config:config_items(...)` on a pick). */
export const checkConfigRelationshipRowSchema = z.object({
  config_id: z.string(),
  ...checkRelationshipColumns,
});

// ---------------------------------------------------------------------------------------------
// Webhook pushes (`POST /webhook/{id}`): other tools push a result to a webhook check. The body is
// the result itself, of any content type, so it has no schema: JSON bodies are parsed by the route.

/** The path parameters of `POST /webhook/{id}`: the check's id, or its name in the canary spec. */
export const webhookPushParamsSchema = z.object({ id: z.string().min(1) });

/** The query of `POST /webhook/{id}`: the check's token, when not sent as a `Webhook-Token` header. */
export const webhookPushQuerySchema = z.object({ token: z.string().optional() });

/** The body of a push's answer. */
export const webhookPushResponseSchema = z.object({
  message: z.literal('ok'),
  /** The webhook check's id. */
  id: z.string(),
  /** The recorded outcome. */
  pass: z.boolean(),
  /** Why it failed, when it did. */
  error: z.string().optional(),
  /** How many results the check's transform made from the push (recorded as checks of their own). */
  derived: z.number().int(),
});
export type WebhookPushResponse = z.infer<typeof webhookPushResponseSchema>;
