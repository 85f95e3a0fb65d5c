import { NIL_AGENT_ID, type JobStatus } from '@opsdeck/contracts';
import type pg from 'pg';
import type { JobsMetrics } from './metrics.js';
import { errorMessage } from './support.js';

export interface StartJobOptions {
  /** The job's name in the history list ("Job Name" filter). */
  name: string;
  /** canary, topology, config_scraper, playbook, config … (settings spec §2.1 links). */
  resourceType?: string;
  resourceId?: string;
  /** Defaults to the nil agent: the job ran here, not on an agent. */
  agentId?: string;
}

/** Free-form content of the "Scrape Summary" and "Reconcile Summary" tabs. */
export type JobDetailKey = 'scrape_summary' | 'summary';

/** One job in progress; it ends with exactly one of success(), failure() or stopped(). */
export interface JobRun {
  readonly id: string;
  readonly name: string;
  readonly successCount: number;
  readonly errorCount: number;
  /** RUNNING until the run is finished. */
  readonly status: JobStatus;
  /** Set once the run is finished and recorded. */
  readonly durationMillis: number | undefined;
  incrementSuccess(count?: number): void;
  /** Counts an error and keeps its message for the "Errors" tab. */
  addError(error: unknown): void;
  setDetail(key: JobDetailKey, value: unknown): void;
  /**
   * Ends the run as SUCCESS when no error was added, WARNING when some items succeeded and
   * some failed, FAILED when errors were added and nothing succeeded.
   */
  success(): Promise<JobStatus>;
  /** Ends the run as FAILED, adding `error` to its errors. */
  failure(error?: unknown): Promise<JobStatus>;
  /** Ends the run as STOPPED (the process shut down before the job finished). */
  stopped(reason?: string): Promise<JobStatus>;
}

/** Error messages kept per run; error_count still counts all of them. */
export const MAX_STORED_ERRORS = 100;

const STALE_JOB_MESSAGE = 'The process running this job stopped before the job finished';

export interface JobHistoryOptions {
  pool: pg.Pool;
  hostname: string;
  /** This process's id in job_workers; RUNNING rows are judged alive by its heartbeat. */
  workerId: string;
  metrics?: JobsMetrics;
}

/**
 * Writes job_history rows: RUNNING at start, the final status with duration, counts and
 * errors at the end. Liveness comes from job_workers heartbeats, so a RUNNING row left by a
 * dead process, on any host, is found by whichever replica sweeps next.
 */
export class JobHistory {
  private readonly pool: pg.Pool;
  private readonly hostname: string;
  private readonly workerId: string;
  private readonly metrics: JobsMetrics | undefined;

  constructor(options: JobHistoryOptions) {
    this.pool = options.pool;
    this.hostname = options.hostname;
    this.workerId = options.workerId;
    this.metrics = options.metrics;
  }

  async startJob(options: StartJobOptions): Promise<JobRun> {
    if (options.name.trim() === '') throw new TypeError('A job needs a name');
    const { rows } = await this.pool.query<{ id: string }>(
      `INSERT INTO job_history (name, agent_id, resource_id, resource_type, status, hostname, worker_id)
       VALUES ($1, $2, $3, $4, 'RUNNING', $5, $6)
       RETURNING id`,
      [
        options.name,
        options.agentId ?? NIL_AGENT_ID,
        options.resourceId ?? null,
        options.resourceType ?? null,
        this.hostname,
        this.workerId,
      ],
    );
    return new JobRunRecord(this.pool, rows[0].id, options.name, this.metrics);
  }

  /** Records that this process is alive (and registers it on first call). */
  async heartbeat(): Promise<void> {
    await this.pool.query(
      `INSERT INTO job_workers (id, hostname, pid) VALUES ($1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()`,
      [this.workerId, this.hostname, process.pid],
    );
  }

  /** Removes this process from job_workers at a clean shutdown. */
  async retire(): Promise<void> {
    await this.pool.query('DELETE FROM job_workers WHERE id = $1', [this.workerId]);
  }

  /**
   * Marks RUNNING rows whose worker has not heartbeated for staleAfterMs as STOPPED, and
   * forgets those workers. Rows without a worker (pushed from agents) are not ours to judge.
   * Returns the number of rows marked.
   */
  async markStaleRunningJobs(staleAfterMs: number): Promise<number> {
    const { rows } = await this.pool.query<{ stopped: number }>(
      `WITH stopped AS (
         UPDATE job_history AS h
         SET status = 'STOPPED',
             time_end = now(),
             details = jsonb_set(h.details, '{errors}',
                                 coalesce(h.details -> 'errors', '[]'::jsonb) || to_jsonb($2::text))
         WHERE h.status = 'RUNNING'
           AND h.worker_id IS NOT NULL
           AND NOT EXISTS (
             SELECT 1 FROM job_workers AS w
             WHERE w.id = h.worker_id AND w.heartbeat_at > now() - $1 * interval '1 millisecond'
           )
         RETURNING h.id
       ),
       retired AS (
         DELETE FROM job_workers WHERE heartbeat_at <= now() - $1 * interval '1 millisecond'
         RETURNING id
       )
       SELECT (SELECT count(*) FROM stopped)::integer AS stopped,
              (SELECT count(*) FROM retired)::integer AS retired`,
      [staleAfterMs, STALE_JOB_MESSAGE],
    );
    return rows[0].stopped;
  }
}

class JobRunRecord implements JobRun {
  private successes = 0;
  private errors: string[] = [];
  private errorTotal = 0;
  private readonly extraDetails = new Map<JobDetailKey, unknown>();
  private finalStatus: JobStatus | undefined;
  private duration: number | undefined;
  private finished: Promise<JobStatus> | undefined;

  constructor(
    private readonly pool: pg.Pool,
    readonly id: string,
    readonly name: string,
    private readonly metrics: JobsMetrics | undefined,
  ) {}

  get successCount(): number {
    return this.successes;
  }

  get errorCount(): number {
    return this.errorTotal;
  }

  get status(): JobStatus {
    return this.finalStatus ?? 'RUNNING';
  }

  get durationMillis(): number | undefined {
    return this.duration;
  }

  incrementSuccess(count = 1): void {
    this.successes += count;
  }

  addError(error: unknown): void {
    this.errorTotal += 1;
    if (this.errors.length < MAX_STORED_ERRORS) this.errors.push(errorMessage(error));
  }

  setDetail(key: JobDetailKey, value: unknown): void {
    this.extraDetails.set(key, value);
  }

  success(): Promise<JobStatus> {
    const status: JobStatus = this.errorTotal === 0 ? 'SUCCESS' : this.successes > 0 ? 'WARNING' : 'FAILED';
    return this.finish(status);
  }

  failure(error?: unknown): Promise<JobStatus> {
    if (!this.finished && error !== undefined) this.addError(error);
    return this.finish('FAILED');
  }

  stopped(reason?: string): Promise<JobStatus> {
    if (!this.finished && reason !== undefined) this.addError(reason);
    return this.finish('STOPPED');
  }

  /** The first ending wins: a handler that ends its own run is not overwritten by its runner. */
  private finish(status: JobStatus): Promise<JobStatus> {
    this.finished ??= this.write(status);
    return this.finished;
  }

  private async write(status: JobStatus): Promise<JobStatus> {
    this.finalStatus = status;
    const details: Record<string, unknown> = {};
    if (this.errors.length > 0) details.errors = this.errors;
    for (const [key, value] of this.extraDetails) {
      if (value !== undefined && value !== null) details[key] = value;
    }
    const { rows } = await this.pool.query<{ duration_millis: number }>(
      `UPDATE job_history
       SET status = $2,
           time_end = now(),
           duration_millis = greatest(0, round(extract(epoch FROM now() - time_start) * 1000))::integer,
           success_count = $3,
           error_count = $4,
           details = $5::jsonb
       WHERE id = $1
       RETURNING duration_millis`,
      [this.id, status, this.successes, this.errorTotal, JSON.stringify(details)],
    );
    this.duration = rows[0]?.duration_millis;
    this.metrics?.recordJobRun(this.name, status);
    return status;
  }
}
