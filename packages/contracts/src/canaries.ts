import { z } from 'zod';
import { CHECK_STATUSES } from './health.js';
import { latestJobColumnsSchema } from './jobs.js';

const isoTime = z.iso.datetime({ offset: true });
const stringLabels = z.object({}).catchall(z.string());
const specObject = z.record(z.string(), z.unknown());

/**
 * The path parameters of `GET|PUT|DELETE /api/canaries/{id}`. Any UUID the database accepts;
 * anything else is a 400 naming `id`.
 */
export const canaryIdParamsSchema = z.object({
  id: z.guid({ error: 'id must be a canary id (a UUID)' }),
});

/**
 * The body of `POST /api/canaries` and `PUT /api/canaries/{id}` (settings §2.4): the resource's
 * metadata fields and its spec. This is the envelope only: the server then validates the whole
 * document exactly as `opsdeck apply` validates a Canary (a missing name, an invalid check, ...:
 * 400 `{error, field, issues}` with paths such as `metadata.name` or `spec.http[0].url`). A PUT
 * may leave name and namespace out: they cannot change.
 */
export const canaryInputSchema = z.object({
  name: z.string().optional(),
  /** Empty or absent: `default`. */
  namespace: z.string().nullable().optional(),
  labels: z.record(z.string(), z.string(), { error: 'Labels must be a JSON object' }).nullable().optional(),
  spec: z.record(z.string(), z.unknown(), { error: 'Spec must be a YAML object' }).optional(),
});
export type CanaryInput = z.input<typeof canaryInputSchema>;

/** A canary as the editor API answers it (GET, and the stored canary after POST or PUT). */
export const canaryDetailSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  labels: stringLabels,
  /** Secret-shaped fields read as the mask; sent back unchanged, the mask keeps the secret. */
  spec: specObject,
  /** `UI`, a demo source, or the file or `opsdeck apply` that owns the canary. */
  source: z.string(),
  created_at: isoTime,
  updated_at: isoTime,
});
export type CanaryDetail = z.infer<typeof canaryDetailSchema>;

/** A canary's status in `canaries_with_status`: a check's status, or unknown (not all have run). */
export const CANARY_STATUSES = [...CHECK_STATUSES, 'unknown'] as const;
export const canaryStatusSchema = z.enum(CANARY_STATUSES);
export type CanaryStatus = z.infer<typeof canaryStatusSchema>;

/** A row of the `canaries_with_status` view (migration 0060): the canary and how its checks are doing. */
export const canaryWithStatusRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string(),
  icon: z.string().nullable(),
  schedule: z.string().nullable(),
  labels: stringLabels.nullable(),
  spec: specObject,
  source: z.string(),
  agent_id: z.string(),
  created_by: z.string().nullable(),
  created_at: isoTime,
  updated_at: isoTime,
  deleted_at: isoTime.nullable(),
  /** How many of the canary's checks are healthy, unhealthy and not run yet. */
  checks: z.object({ healthy: z.number().int(), unhealthy: z.number().int(), unknown: z.number().int() }),
  status: canaryStatusSchema,
  /** The latest run of any of its checks. */
  last_runtime: isoTime.nullable(),
  /** The deprecated `spec.interval` as written (the ecosystem's column), null when absent. */
  interval: z.string().nullable(),
  ...latestJobColumnsSchema.shape,
});
export type CanaryWithStatusRow = z.infer<typeof canaryWithStatusRowSchema>;
