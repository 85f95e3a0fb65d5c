import { randomUUID } from 'node:crypto';
import { NIL_AGENT_ID, type JobStatus } from '@opsdeck/contracts';
import type pg from 'pg';
import type { JobsMetrics } from './metrics.js';
import { Batcher, errorMessage } from './support.js';

interface JobStart {
  name: string;
  agentId: string;
  resourceId: string | null;
  resourceType: string | null;
  /** Set when the row is written after the run started (recordRunningAfterMs). */
  id?: string;
  /** How long ago the run started; the row's time_start is that much before now(). */
  elapsedMs?: number;
}

/** A run that ended before its RUNNING row was written: one row, finished. */
interface JobFinished extends JobEnd {
  start: JobStart;
  durationMillis: number;
}

interface JobEnd {
  id: string;
  status: JobStatus;
  successes: number;
  errors: number;
  details: string;
}

export interface StartJobOptions {
  /** The job's name in the history list ("Job Name" filter). */
  name: string;
  /** canary, topology, config_scraper, playbook, config … (settings spec §2.1 links). */
  resourceType?: string;
  resourceId?: string;
  /** Defaults to the nil agent: the job ran here, not on an agent. */
  agentId?: string;
  /**
   * Write the RUNNING row only once the run has lasted this long: a run that ends sooner is
   * written once, finished (one row write instead of an insert and an update; issue 22). Such a
   * run is not listed while it runs, and a process killed before the delay leaves no row for it
   * (its schedule's claim still lapses). Default: the RUNNING row is written before the run.
   */
  recordRunningAfterMs?: number;
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
  /** Jobs started (or ended) at about the same time are written in one statement. */
  private readonly starts: Batcher<JobStart, string>;
  private readonly ends: Batcher<JobEnd, number | undefined>;
  private readonly finishedRuns: Batcher<JobFinished, number | undefined>;

  constructor(options: JobHistoryOptions) {
    this.pool = options.pool;
    this.hostname = options.hostname;
    this.workerId = options.workerId;
    this.metrics = options.metrics;
    this.starts = new Batcher((items) => this.insertStarts(items));
    this.ends = new Batcher((items) => this.writeEnds(items));
    this.finishedRuns = new Batcher((items) => this.insertFinished(items));
  }

  async startJob(options: StartJobOptions): Promise<JobRun> {
    if (options.name.trim() === '') throw new TypeError('A job needs a name');
    const start: JobStart = {
      name: options.name,
      agentId: options.agentId ?? NIL_AGENT_ID,
      resourceId: options.resourceId ?? null,
      resourceType: options.resourceType ?? null,
    };
    if (options.recordRunningAfterMs === undefined) {
      const id = await this.starts.add(start);
      return new JobRunRecord(id, options.name, this.metrics, (end) => this.ends.add(end));
    }
    const id = randomUUID();
    const startedAt = performance.now();
    // Resolves true once the RUNNING row is written (false when that failed).
    let running: Promise<boolean> | undefined;
    const timer = setTimeout(() => {
      running = this.starts.add({ ...start, id, elapsedMs: performance.now() - startedAt }).then(
        () => true,
        () => false,
      );
    }, options.recordRunningAfterMs);
    timer.unref();
    const writeEnd = async (end: JobEnd): Promise<number | undefined> => {
      clearTimeout(timer);
      if (running && (await running)) return this.ends.add(end);
      const durationMillis = Math.max(0, Math.round(performance.now() - startedAt));
      return this.finishedRuns.add({ ...end, start, durationMillis });
    };
    return new JobRunRecord(id, options.name, this.metrics, writeEnd);
  }

  private async insertStarts(items: JobStart[]): Promise<string[]> {
    const ids = items.map((item) => item.id ?? randomUUID());
    const { rowCount } = await this.pool.query(
      `INSERT INTO job_history (id, name, agent_id, resource_id, resource_type, status, hostname, worker_id,
                                time_start)
       SELECT u.id, u.name, u.agent_id, u.resource_id, u.resource_type, 'RUNNING', $6, $7,
              now() - u.elapsed * interval '1 millisecond'
       FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::text[], $5::text[], $8::double precision[])
            AS u(id, name, agent_id, resource_id, resource_type, elapsed)`,
      [
        ids,
        items.map((item) => item.name),
        items.map((item) => item.agentId),
        items.map((item) => item.resourceId),
        items.map((item) => item.resourceType),
        this.hostname,
        this.workerId,
        items.map((item) => item.elapsedMs ?? 0),
      ],
    );
    if (rowCount !== items.length) throw new Error('job history rows were not all written');
    return ids;
  }

  /** Runs that ended before their RUNNING row was due: each written once, finished. */
  private async insertFinished(items: JobFinished[]): Promise<Array<number | undefined>> {
    const { rows } = await this.pool.query<{ id: string; duration_millis: number }>(
      `INSERT INTO job_history (id, name, agent_id, resource_id, resource_type, status, hostname, worker_id,
                                time_start, time_end, duration_millis, success_count, error_count, details)
       SELECT u.id, u.name, u.agent_id, u.resource_id, u.resource_type, u.status, $11, $12,
              now() - u.duration * interval '1 millisecond', now(), u.duration, u.successes, u.errors,
              u.details
       FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::integer[],
                   $8::integer[], $9::integer[], $10::jsonb[])
            AS u(id, name, agent_id, resource_id, resource_type, status, duration, successes, errors, details)
       RETURNING id, duration_millis`,
      [
        items.map((item) => item.id),
        items.map((item) => item.start.name),
        items.map((item) => item.start.agentId),
        items.map((item) => item.start.resourceId),
        items.map((item) => item.start.resourceType),
        items.map((item) => item.status),
        items.map((item) => item.durationMillis),
        items.map((item) => item.successes),
        items.map((item) => item.errors),
        items.map((item) => item.details),
        this.hostname,
        this.workerId,
      ],
    );
    const durations = new Map(rows.map((row) => [row.id, row.duration_millis]));
    return items.map((item) => durations.get(item.id));
  }

  private async writeEnds(items: JobEnd[]): Promise<Array<number | undefined>> {
    const { rows } = await this.pool.query<{ id: string; duration_millis: number }>(
      `UPDATE job_history AS h
       SET status = u.status,
           time_end = now(),
           duration_millis = greatest(0, round(extract(epoch FROM now() - h.time_start) * 1000))::integer,
           success_count = u.successes,
           error_count = u.errors,
           details = u.details
       FROM unnest($1::uuid[], $2::text[], $3::integer[], $4::integer[], $5::jsonb[])
            AS u(id, status, successes, errors, details)
       WHERE h.id = u.id
       RETURNING h.id, h.duration_millis`,
      [
        items.map((item) => item.id),
        items.map((item) => item.status),
        items.map((item) => item.successes),
        items.map((item) => item.errors),
        items.map((item) => item.details),
      ],
    );
    const durations = new Map(rows.map((row) => [row.id, row.duration_millis]));
    return items.map((item) => durations.get(item.id));
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
    readonly id: string,
    readonly name: string,
    private readonly metrics: JobsMetrics | undefined,
    private readonly writeEnd: (end: JobEnd) => Promise<number | undefined>,
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
    this.duration = await this.writeEnd({
      id: this.id,
      status,
      successes: this.successes,
      errors: this.errorTotal,
      details: JSON.stringify(details),
    });
    this.metrics?.recordJobRun(this.name, status);
    return status;
  }
}
