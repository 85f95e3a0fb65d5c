import { z } from 'zod';

/** Most lines one `POST /api/logs` answers; the default when `limit` is absent. */
export const LOGS_MAX_LIMIT = 5000;
export const LOGS_DEFAULT_LIMIT = 500;
/** Bars of the histogram `POST /api/logs` answers over the range, unless `buckets` says otherwise. */
export const LOGS_HISTOGRAM_BUCKETS = 30;
export const LOGS_MAX_HISTOGRAM_BUCKETS = 200;

const timeField = (field: string) =>
  z.string({ error: `${field} must be a time` }).refine((value) => !Number.isNaN(Date.parse(value)), {
    error: `${field} must be an ISO time such as 2026-01-01T00:00:00Z`,
  });

/**
 * `POST /api/logs` (core §7 `{name, id, query}`, plus a range and a limit): `id` is a component or
 * config item whose logs to read (its log selectors or a backend's routes say where), `name` a
 * logging backend by name; one of them is needed.
 */
export const logsRequestSchema = z
  .object({
    id: z.guid({ error: 'id must be a component or config item id' }).optional(),
    name: z.string({ error: 'name must be a logging backend name' }).trim().min(1).optional(),
    query: z
      .string({ error: 'query must be text' })
      .max(2000, { error: 'query is longer than 2000 characters' })
      .optional(),
    start: timeField('start').optional(),
    end: timeField('end').optional(),
    limit: z.coerce
      .number({ error: 'limit must be a number' })
      .int({ error: 'limit must be a whole number' })
      .min(1, { error: 'limit must be 1 or more' })
      .max(LOGS_MAX_LIMIT, { error: `limit must be ${LOGS_MAX_LIMIT} or less` })
      .optional(),
    /** Bars of the histogram over the range (default LOGS_HISTOGRAM_BUCKETS). */
    buckets: z.coerce
      .number({ error: 'buckets must be a number' })
      .int({ error: 'buckets must be a whole number' })
      .min(1, { error: 'buckets must be 1 or more' })
      .max(LOGS_MAX_HISTOGRAM_BUCKETS, { error: `buckets must be ${LOGS_MAX_HISTOGRAM_BUCKETS} or less` })
      .optional(),
  })
  .refine((body) => body.id !== undefined || body.name !== undefined, {
    error: 'name or id is required',
    path: ['name'],
  })
  .refine((body) => !body.start || !body.end || Date.parse(body.start) <= Date.parse(body.end), {
    error: 'start must be before end',
    path: ['start'],
  });
export type LogsRequest = z.infer<typeof logsRequestSchema>;

export const logLineSchema = z.object({
  timestamp: z.string(),
  message: z.string(),
  level: z.string().nullable(),
  labels: z.record(z.string(), z.string()),
});
export type LogLine = z.infer<typeof logLineSchema>;

/** One bar of the histogram: the lines (and error or fatal lines) from `start` to the next bar. */
export const logHistogramBucketSchema = z.object({
  start: z.string(),
  count: z.number().int(),
  errors: z.number().int(),
});
export type LogHistogramBucket = z.infer<typeof logHistogramBucketSchema>;

/**
 * The answer: every matching line counted in `total`, the newest `limit` of them in `results`,
 * and `histogram` counting every matching line of the range (not only those returned) in equal
 * buckets from start to end.
 */
export const logsResponseSchema = z.object({
  total: z.number().int(),
  results: z.array(logLineSchema),
  histogram: z.array(logHistogramBucketSchema),
});
export type LogsResponse = z.infer<typeof logsResponseSchema>;

/** The backend kinds a logging backend's spec may name (one key each). */
export const LOG_BACKEND_TYPES = ['file', 'opsdeck', 'postgres', 'loki', 'opensearch'] as const;
export type LogBackendType = (typeof LOG_BACKEND_TYPES)[number];

const stringMap = z.record(z.string(), z.string(), { error: 'must be a mapping of strings' });

/** Which components or config items read their logs from this backend. */
export const logBackendRouteSchema = z.looseObject({
  type: z.string({ error: 'must be a string' }).optional(),
  idPrefix: z.string({ error: 'must be a string' }).optional(),
  labels: stringMap.optional(),
});

export const fileLogBackendSchema = z.looseObject({
  path: z.string({ error: 'path is required' }).min(1, { error: 'path is required' }),
  format: z.enum(['json', 'regex', 'text'], { error: 'format must be json, regex or text' }).optional(),
  /** With format regex: named groups timestamp, level and message; other groups become labels. */
  pattern: z.string().optional(),
  labels: stringMap.optional(),
});

const remoteBackend = {
  url: z.url({ error: 'url must be an http(s) address' }).optional(),
  /** A Connection (`connection://namespace/name`) holding the url and credentials. */
  connection: z.string().optional(),
  labels: stringMap.optional(),
};

export const lokiLogBackendSchema = z.looseObject({ ...remoteBackend });
export const openSearchLogBackendSchema = z.looseObject({
  ...remoteBackend,
  index: z.string({ error: 'index is required' }).min(1, { error: 'index is required' }),
  timestampField: z.string().optional(),
  messageField: z.string().optional(),
  levelField: z.string().optional(),
});

/** A logging backend's spec: exactly one of the backend keys, plus its routes. */
export const loggingBackendSpecSchema = z.looseObject({
  file: fileLogBackendSchema.optional(),
  opsdeck: z.looseObject({}).optional(),
  postgres: z.looseObject({}).optional(),
  loki: lokiLogBackendSchema.optional(),
  opensearch: openSearchLogBackendSchema.optional(),
  routes: z.array(logBackendRouteSchema).optional(),
});
export type LoggingBackendSpec = z.infer<typeof loggingBackendSpecSchema>;

export const loggingBackendRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  labels: z.record(z.string(), z.string()).nullable(),
  spec: z.record(z.string(), z.unknown()),
  source: z.string().nullable(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().nullable(),
});

/** `components_with_logs`: the components the logs page offers. */
export const componentWithLogsRowSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  type: z.string().nullable(),
  icon: z.string().nullable(),
  namespace: z.string().nullable(),
  topology_id: z.string().nullable(),
  log_selectors: z.unknown(),
});

/** `GET /api/logs/sources`: what the logs page offers: backends, and components and config items that have logs. */
export const logSourceSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  type: z.string().nullable(),
  /** The backend the resource's logs come from. */
  backend: z.string(),
});
export const logSourcesResponseSchema = z.object({
  backends: z.array(
    z.object({ id: z.string(), name: z.string(), namespace: z.string(), type: z.string().nullable() }),
  ),
  components: z.array(logSourceSchema),
  configs: z.array(logSourceSchema),
});
export type LogSourcesResponse = z.infer<typeof logSourcesResponseSchema>;
