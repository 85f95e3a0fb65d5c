import type pg from 'pg';
import type { JobsService } from './jobs-service.js';

/** Hourly clean-up of the background-work tables, so a long-running deployment does not grow forever. */
export const MAINTENANCE_SCHEDULE = { name: 'jobs_maintenance', schedule: '@every 1h' } as const;

/** Rows deleted per statement: keeps each delete's locks and WAL small on a big backlog. */
const BATCH = 5000;

export interface RetentionOptions {
  /** Job history rows that finished (or started) longer ago than this are deleted. */
  jobHistoryDays: number;
  /** Events still queued (pending or dead-lettered) after this are deleted: nobody handled them. */
  eventDays: number;
}

async function deleteInBatches(pool: pg.Pool, sql: string, days: number): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await pool.query(sql, [days, BATCH]);
    total += result.rowCount ?? 0;
    if ((result.rowCount ?? 0) < BATCH) return total;
  }
}

/** Applies the retention once; returns how many rows went from each table. */
export async function applyJobsRetention(
  pool: pg.Pool,
  options: RetentionOptions,
): Promise<{ jobHistory: number; events: number }> {
  const jobHistory = await deleteInBatches(
    pool,
    `DELETE FROM job_history WHERE id IN (
       SELECT id FROM job_history
       WHERE time_start < now() - $1::double precision * interval '1 day' AND status <> 'RUNNING'
       LIMIT $2)`,
    options.jobHistoryDays,
  );
  const events = await deleteInBatches(
    pool,
    `DELETE FROM event_queue WHERE id IN (
       SELECT id FROM event_queue
       WHERE locked_by IS NULL AND created_at < now() - $1::double precision * interval '1 day'
       LIMIT $2)`,
    options.eventDays,
  );
  return { jobHistory, events };
}

/** Registers the hourly retention schedule (one run per tick across processes). */
export async function registerJobsMaintenance(
  pool: pg.Pool,
  jobs: Pick<JobsService, 'schedules'>,
  options: RetentionOptions,
): Promise<void> {
  await jobs.schedules.register({
    ...MAINTENANCE_SCHEDULE,
    handler: async ({ job }) => {
      const removed = await applyJobsRetention(pool, options);
      job.incrementSuccess(removed.jobHistory + removed.events);
      job.setDetail('summary', { removed });
    },
  });
}
