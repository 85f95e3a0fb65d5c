import { z } from 'zod';
import { jobStatusSchema, latestJobColumnsSchema } from './jobs.js';

/**
 * Integrations (spec settings §2.6, core §2 `/settings/integrations`): catalog scrapers,
 * topologies and log backends listed together through `integrations_with_status`, and the Add
 * Integration wizard's GitOps charts.
 */

/** `integration_type` values of `integrations_with_status`, one per table the view unions. */
export const INTEGRATION_TYPES = ['scrapers', 'topologies', 'logging_backends'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

const isoTime = z.iso.datetime({ offset: true });

/** Rows of `integrations_with_status` (data API), listed in rows.ts `relationRowSchemas`. */
export const integrationWithStatusRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string().nullable(),
  description: z.string().nullable(),
  /** Kept open: a type added to the view later still lists (its editor link says what it is). */
  integration_type: z.string(),
  source: z.string().nullable(),
  agent_id: z.string().nullable(),
  labels: z.record(z.string(), z.string()).nullable(),
  created_by: z.string().nullable(),
  created_at: isoTime,
  updated_at: isoTime.nullable(),
  deleted_at: isoTime.nullable(),
  job_status: jobStatusSchema.nullable(),
  job_details: z.unknown(),
  job_time_start: isoTime.nullable(),
  job_time_end: isoTime.nullable(),
  job_last_failed: isoTime.nullable(),
  ...latestJobColumnsSchema.omit({
    job_status: true,
    job_details: true,
    job_time_start: true,
    job_time_end: true,
    job_last_failed: true,
  }).shape,
  creator_name: z.string().nullable(),
  creator_avatar: z.string().nullable(),
  creator_title: z.string().nullable(),
  creator_email: z.string().nullable(),
  /** The scraper's or topology's cron or `@every` schedule (migration 0310); null for log backends. */
  schedule: z.string().nullable(),
});
export type IntegrationWithStatusRow = z.infer<typeof integrationWithStatusRowSchema>;

/** The wizard's 'Add via GitOps' options (settings §2.6), in the spec's order. */
export const GITOPS_CHARTS = ['aws', 'azure', 'prometheus', 'flux', 'kubernetes', 'mission-control'] as const;
export type GitopsChart = (typeof GITOPS_CHARTS)[number];

/**
 * `GET /api/integrations/charts/{chart}/values-schema`: the chart's values JSON Schema, from the
 * public registry when it answers (`source: 'registry'`) or the minimal copy shipped with Opsdeck
 * (`source: 'bundled'`, `problem` says why the registry's was not used).
 */
export const chartValuesSchemaResponseSchema = z.object({
  chart: z.enum(GITOPS_CHARTS),
  source: z.enum(['registry', 'bundled']),
  url: z.string(),
  problem: z.string().optional(),
  schema: z.record(z.string(), z.unknown()),
});
export type ChartValuesSchemaResponse = z.infer<typeof chartValuesSchemaResponseSchema>;
