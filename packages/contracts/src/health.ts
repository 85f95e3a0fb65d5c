import { z } from 'zod';

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
