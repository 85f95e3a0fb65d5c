import { z } from 'zod';

/** Job history statuses (settings spec §4); migration 0010 holds the same CHECK. */
export const JOB_STATUSES = ['RUNNING', 'SUCCESS', 'WARNING', 'FAILED', 'STOPPED'] as const;
export const jobStatusSchema = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof jobStatusSchema>;

const isoTime = z.iso.datetime({ offset: true });

/**
 * What a job's `details` hold (settings §3 "Job history item"): the detail modal's tabs. Each is
 * free-form (a text, a list or a map of errors; a scraper's or a reconcile's summary).
 */
export const jobDetailsSchema = z.object({
  errors: z.unknown().optional(),
  scrape_summary: z.unknown().optional(),
  summary: z.unknown().optional(),
});
export type JobDetails = z.infer<typeof jobDetailsSchema>;

/** A row of the `job_histories` view (migrations 0020, 0042): a job run with its agent and resource name. */
export const jobHistoryRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  agent_id: z.string(),
  agent: z.object({ id: z.string(), name: z.string().nullable() }),
  resource_id: z.string().nullable(),
  resource_type: z.string().nullable(),
  /** The name of the canary, scraper, topology, config, playbook or incident rule the job ran for. */
  resource_name: z.string().nullable(),
  status: jobStatusSchema,
  time_start: isoTime,
  time_end: isoTime.nullable(),
  duration_millis: z.number().int().nullable(),
  success_count: z.number().int(),
  error_count: z.number().int(),
  details: jobDetailsSchema,
  hostname: z.string().nullable(),
  created_at: isoTime,
});
export type JobHistoryRow = z.infer<typeof jobHistoryRowSchema>;

/**
 * The newest job of a resource as the ecosystem's `*_with_status` views carry it (issue 21,
 * migrations 0260/0261): every job_* column of that job_history row, the time of the newest
 * failed one (`job_last_failed`) and the resource's agent. All null before the first job.
 */
export const latestJobColumnsSchema = z.object({
  job_name: z.string().nullable(),
  job_success_count: z.number().int().nullable(),
  job_error_count: z.number().int().nullable(),
  job_details: jobDetailsSchema.loose().nullable(),
  job_hostname: z.string().nullable(),
  job_duration_millis: z.number().int().nullable(),
  job_resource_type: z.string().nullable(),
  job_status: jobStatusSchema.nullable(),
  job_time_start: isoTime.nullable(),
  job_time_end: isoTime.nullable(),
  job_created_at: isoTime.nullable(),
  job_last_failed: isoTime.nullable(),
  agent: z.object({ id: z.string().nullable(), name: z.string().nullable() }),
});
export type LatestJobColumns = z.infer<typeof latestJobColumnsSchema>;

/** A row of `job_history_names`: each job name once, for the Job Name filter. */
export const jobHistoryNameRowSchema = z.object({ name: z.string() });
