import type { JobStatus } from '@opsdeck/contracts';
import type pg from 'pg';
import { withTransaction } from '../db/pool.js';
import type { JobHistory, JobRun } from './job-history.js';
import { parseSchedule, type ScheduleExpression } from './schedule-expression.js';
import {
  Batcher,
  claimTiming,
  errorMessage,
  RepeatingTask,
  runWithTimeout,
  settleWithin,
  TimeoutError,
  validatePositive,
  WakeSignal,
  type JobsLogger,
} from './support.js';

export interface ScheduleContext {
  /** Aborted when the run times out or the process stops. */
  signal: AbortSignal;
  /** This run's job history row: count successes and add errors here. */
  job: JobRun;
  /** The tick being run (not when it started). */
  scheduledAt: Date;
  logger: JobsLogger;
}

export interface ScheduleDefinition {
  /** Unique across the deployment: the claim key (e.g. `canary:<id>`). */
  name: string;
  /** The name in job history; defaults to `name`. */
  jobName?: string;
  /** Cron (5 or 6 fields), `@every 30s|1m|1h30m`, or `@hourly|@daily|@weekly|@monthly`. */
  schedule: string;
  handler: (context: ScheduleContext) => Promise<void>;
  /**
   * A run still going after this is recorded FAILED and the next tick may start. Default 5 min.
   * It does not delay other processes when this one dies: the claim's lease does (SchedulerOptions).
   */
  timeoutMs?: number;
  /** The resource the job history row links to. */
  resource?: { type: string; id: string };
  agentId?: string;
  /** Time zone of cron expressions without CRON_TZ=. Default UTC. */
  timezone?: string;
  /**
   * Write each run's RUNNING job history row only once it has lasted this long; a shorter run is
   * written once, finished (StartJobOptions.recordRunningAfterMs). Default: before the run.
   */
  recordRunningAfterMs?: number;
}

export interface SchedulerOptions {
  pool: pg.Pool;
  logger: JobsLogger;
  jobHistory: JobHistory;
  /** Written to locked_by; unique per process. */
  workerId: string;
  /** Longest sleep between looks at the schedules table. Default 5000 ms. */
  pollIntervalMs?: number;
  /**
   * How long a claimed tick stays locked without renewal. Default 30 s. While a run lasts, this
   * process renews the lease of all its running schedules every renewIntervalMs (one UPDATE), so a
   * live run is never taken over however long it takes, and a dead process's schedules are free
   * again at most leaseMs after it died.
   */
  leaseMs?: number;
  /** How often running claims are renewed. Default a third of leaseMs; must be shorter. */
  renewIntervalMs?: number;
  /** Runs at once in this process. Default 200: runs mostly wait on I/O, and their writes are batched. */
  concurrency?: number;
  /**
   * Shortest gap between two claims. Ticks falling due within it are claimed, run and recorded
   * together (one claim, one job history insert, one unlock), at the cost of starting up to this
   * late. Default 250 ms (500 ms was measured in issue 22: batches twice as large, but lag p99
   * over 1 s on a loaded machine, and no CPU saving that stood out of the noise).
   */
  claimIntervalMs?: number;
}

export interface RegisterOptions {
  /**
   * Makes the schedule due now unless it ran since this time (or its next tick is sooner): a new
   * or edited resource runs at once, once across processes however many of them register it.
   */
  dueNowUnlessRunSince?: Date;
}

interface Unlock {
  name: string;
  tick: Date;
  status: JobStatus;
  durationMillis: number | undefined;
}

interface Registered {
  definition: ScheduleDefinition;
  expression: ScheduleExpression;
  jobName: string;
  timeoutMs: number;
}

interface ClaimedTick {
  registered: Registered;
  tick: Date;
  /** The schedule's next tick, as the claim set it. */
  next: Date;
}

interface Run {
  controller: AbortController;
  job: JobRun | undefined;
  done: Promise<void>;
  abandoned: boolean;
  /** The handler ended; the row is being (or was) unlocked: no longer renewed. */
  finishing: boolean;
  /** A renewal found the row no longer ours: the run was aborted. */
  lost: boolean;
  tick: Date;
}

export const DEFAULT_SCHEDULE_TIMEOUT_MS = 5 * 60_000;

/**
 * Runs registered schedules so that each tick runs once across every process sharing the
 * database: a process runs a tick only after moving the row's next_run_at past now() inside a
 * transaction holding its row lock (FOR UPDATE SKIP LOCKED). The row then stays locked by
 * locked_by/locked_until until the run ends, so runs of one schedule never overlap: locked_until
 * is a short lease (leaseMs) that this process renews while the run lasts, so a dead process's
 * lock lapses on its own within leaseMs. A renewal that finds the row taken by another process
 * (this one was cut off from the database for longer than the lease) aborts the run here.
 * Handlers run detached from the loop: a hung one holds only its own schedule, and only until
 * its timeout.
 */
export class Scheduler {
  private readonly pool: pg.Pool;
  private readonly logger: JobsLogger;
  private readonly jobHistory: JobHistory;
  private readonly workerId: string;
  private readonly pollIntervalMs: number;
  private readonly leaseMs: number;
  private readonly concurrency: number;
  private readonly claimIntervalMs: number;
  private readonly renewal: RepeatingTask;
  private readonly unlocks: Batcher<Unlock, void>;
  private readonly registry = new Map<string, Registered>();
  private readonly runs = new Map<string, Run>();
  private wakeSignal = new WakeSignal();
  /** The registered names as one array, rebuilt after a change to the registry. */
  private registryNamesCache: string[] | undefined;
  private started = false;
  private stopping = false;
  private loopDone: Promise<void> | undefined;

  constructor(options: SchedulerOptions) {
    this.pool = options.pool;
    this.logger = options.logger;
    this.jobHistory = options.jobHistory;
    this.workerId = options.workerId;
    this.pollIntervalMs = options.pollIntervalMs ?? 5000;
    const timing = claimTiming(options.leaseMs, options.renewIntervalMs);
    this.leaseMs = timing.leaseMs;
    this.concurrency = options.concurrency ?? 200;
    this.claimIntervalMs = options.claimIntervalMs ?? 250;
    this.unlocks = new Batcher((items) => this.unlockMany(items));
    this.renewal = new RepeatingTask(() => this.renewClaims(), timing.renewIntervalMs);
  }

  names(): string[] {
    return [...this.registry.keys()];
  }

  /**
   * Adds or replaces a schedule. Throws InvalidScheduleError for a bad expression. Once the
   * scheduler runs, the row is written before this resolves; a changed expression restarts the
   * schedule from its next occurrence.
   */
  async register(definition: ScheduleDefinition, options: RegisterOptions = {}): Promise<void> {
    const [error] = await this.registerMany([{ definition, options }]);
    if (error) throw error;
  }

  /**
   * register() for many schedules in two statements whatever their number (a process starting
   * with thousands of canaries paid a round trip or three per schedule, issue 22). Answers, per
   * entry in order, the error that kept it from being registered (a bad expression), or undefined.
   */
  async registerMany(
    entries: ReadonlyArray<{ definition: ScheduleDefinition; options?: RegisterOptions }>,
  ): Promise<Array<Error | undefined>> {
    const errors: Array<Error | undefined> = [];
    const added: Array<{ registered: Registered; options?: RegisterOptions }> = [];
    for (const { definition, options } of entries) {
      try {
        added.push({ registered: this.prepare(definition), options });
        errors.push(undefined);
      } catch (error) {
        errors.push(error instanceof Error ? error : new Error(String(error)));
      }
    }
    for (const { registered } of added) this.registry.set(registered.definition.name, registered);
    if (added.length > 0) this.registryNamesCache = undefined;
    if (this.started && added.length > 0) {
      await this.upsert(added.map((entry) => entry.registered));
      const dueNow = added.filter((entry) => entry.options?.dueNowUnlessRunSince);
      if (dueNow.length > 0) {
        await this.pool.query(
          `UPDATE job_schedules SET next_run_at = now()
           FROM unnest($1::text[], $2::timestamptz[]) AS d(name, since)
           WHERE job_schedules.name = d.name AND next_run_at > now()
             AND (last_run_at IS NULL OR last_run_at < d.since)`,
          [
            dueNow.map((entry) => entry.registered.definition.name),
            dueNow.map((entry) => entry.options!.dueNowUnlessRunSince),
          ],
        );
      }
      this.wakeSignal.wake();
    }
    return errors;
  }

  /** A definition checked and parsed for the registry; throws for a bad one. */
  private prepare(definition: ScheduleDefinition): Registered {
    if (definition.name.trim() === '') throw new TypeError('A schedule needs a name');
    const timeoutMs = definition.timeoutMs ?? DEFAULT_SCHEDULE_TIMEOUT_MS;
    validatePositive(`timeoutMs of schedule "${definition.name}"`, timeoutMs);
    validatePositive(
      `recordRunningAfterMs of schedule "${definition.name}"`,
      definition.recordRunningAfterMs,
    );
    return {
      definition,
      expression: parseSchedule(definition.schedule, { timezone: definition.timezone }),
      jobName: definition.jobName ?? definition.name,
      timeoutMs,
    };
  }

  /** Removes a schedule here and from the database (a run in progress finishes). */
  async unregister(name: string): Promise<void> {
    this.registry.delete(name);
    this.registryNamesCache = undefined;
    if (this.started) await this.pool.query('DELETE FROM job_schedules WHERE name = $1', [name]);
  }

  /** Makes a registered schedule due now; false when no such schedule exists. */
  async triggerNow(name: string): Promise<boolean> {
    const result = await this.pool.query('UPDATE job_schedules SET next_run_at = now() WHERE name = $1', [
      name,
    ]);
    this.wakeSignal.wake();
    return result.rowCount === 1;
  }

  async start(): Promise<void> {
    if (this.started) return;
    await this.upsert([...this.registry.values()]);
    this.started = true;
    this.stopping = false;
    // A closed signal stays closed; a restarted loop needs a fresh one.
    this.wakeSignal = new WakeSignal();
    this.loopDone = this.loop();
    this.renewal.start();
  }

  /**
   * Stops claiming ticks, waits up to graceMs for running handlers, then marks the rest
   * STOPPED and unlocks their schedules so another process takes the next tick.
   */
  async stop(graceMs: number): Promise<void> {
    if (!this.started) return;
    this.stopping = true;
    this.wakeSignal.close();
    await this.loopDone;
    const finished = await settleWithin(
      [...this.runs.values()].map((run) => run.done),
      graceMs,
    );
    if (!finished) await this.abandonRemaining();
    await this.renewal.stop();
    this.started = false;
    this.loopDone = undefined;
  }

  private async upsert(entries: Registered[]): Promise<void> {
    if (entries.length === 0) return;
    const { rows } = await this.pool.query<{ now: Date }>('SELECT now() AS now');
    const now = rows[0].now;
    await this.pool.query(
      `INSERT INTO job_schedules (name, schedule, next_run_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[])
       ON CONFLICT (name) DO UPDATE
       SET schedule = EXCLUDED.schedule, next_run_at = EXCLUDED.next_run_at, updated_at = now()
       WHERE job_schedules.schedule IS DISTINCT FROM EXCLUDED.schedule`,
      [
        entries.map((entry) => entry.definition.name),
        entries.map((entry) => entry.definition.schedule),
        entries.map((entry) => entry.expression.nextAfter(now, entry.definition.name)),
      ],
    );
  }

  private async loop(): Promise<void> {
    let consecutiveErrors = 0;
    while (!this.stopping) {
      let delayMs = this.pollIntervalMs;
      const claimStarted = Date.now();
      try {
        const capacity = this.concurrency - this.runs.size;
        let untilNext = Number.POSITIVE_INFINITY;
        if (this.registry.size > 0) {
          const { claimed, nextInMs } = await this.claimDue(Math.max(0, capacity));
          for (const tick of claimed) this.launch(tick);
          untilNext = nextInMs;
        }
        delayMs = Math.min(untilNext, this.pollIntervalMs);
        // Ticks due within claimIntervalMs of the last claim wait for the next one: they are then
        // claimed, run and recorded as one batch.
        delayMs = Math.max(delayMs, this.claimIntervalMs - (Date.now() - claimStarted));
        consecutiveErrors = 0;
      } catch (error) {
        consecutiveErrors += 1;
        delayMs = Math.min(this.pollIntervalMs * 2 ** consecutiveErrors, 60_000);
        this.logger.error({ err: errorMessage(error) }, 'scheduler: claiming due schedules failed');
      }
      await this.wakeSignal.wait(delayMs);
    }
  }

  /**
   * Claims up to `limit` due ticks in one transaction, and answers how long until the earliest
   * tick of our schedules that no other run holds (a few ms late on purpose so the timer does not
   * wake just before the database clock reaches the tick).
   */
  private async claimDue(limit: number): Promise<{ claimed: ClaimedTick[]; nextInMs: number }> {
    const names = this.registryNames();
    const claimed = limit === 0 ? [] : await this.claimTicks(names, limit);
    // When the claim took all it could, more may be due: look again at once.
    if (limit > 0 && claimed.length === limit) return { claimed, nextInMs: 0 };
    const { rows } = await this.pool.query<{ delay_ms: number | null }>(
      `SELECT extract(epoch FROM min(greatest(next_run_at, coalesce(locked_until, next_run_at))) - now())
                * 1000 AS delay_ms
       FROM job_schedules WHERE name = ANY($1::text[])`,
      [names],
    );
    const delay = rows[0]?.delay_ms;
    return {
      claimed,
      nextInMs:
        delay === null || delay === undefined ? Number.POSITIVE_INFINITY : Math.max(0, Number(delay)) + 5,
    };
  }

  /** The registered names, as one array reused until the registry changes. */
  private registryNames(): string[] {
    this.registryNamesCache ??= [...this.registry.keys()];
    return this.registryNamesCache;
  }

  private async claimTicks(names: string[], limit: number): Promise<ClaimedTick[]> {
    return withTransaction(this.pool, async (client) => {
      const due = await client.query<{ name: string; next_run_at: Date; now: Date }>(
        `SELECT name, next_run_at, now() AS now FROM job_schedules
         WHERE name = ANY($1::text[])
           AND next_run_at <= now()
           AND (locked_until IS NULL OR locked_until <= now())
         ORDER BY next_run_at
         LIMIT $2
         FOR UPDATE SKIP LOCKED`,
        [names, limit],
      );
      const claimed: ClaimedTick[] = [];
      for (const row of due.rows) {
        const registered = this.registry.get(row.name);
        if (!registered) continue;
        claimed.push({
          registered,
          tick: row.next_run_at,
          next: registered.expression.nextAfter(row.now, row.name),
        });
      }
      if (claimed.length === 0) return [];
      await client.query(
        `UPDATE job_schedules AS s
         SET next_run_at = u.next_run_at,
             last_run_at = u.tick,
             locked_by = $4,
             locked_until = now() + $5 * interval '1 millisecond'
         FROM unnest($1::text[], $2::timestamptz[], $3::timestamptz[]) AS u(name, tick, next_run_at)
         WHERE s.name = u.name`,
        [
          claimed.map((entry) => entry.registered.definition.name),
          claimed.map((entry) => entry.tick),
          claimed.map((entry) => entry.next),
          this.workerId,
          this.leaseMs,
        ],
      );
      return claimed;
    });
  }

  /**
   * Extends the lease of every schedule this process is running, in one statement. A row that is
   * no longer ours (its lease lapsed and another process claimed it) aborts its run here, so
   * runs of one schedule do not overlap even then; an unregistered schedule's run just finishes.
   */
  private async renewClaims(): Promise<void> {
    const held = [...this.runs.entries()].filter(([, run]) => !run.finishing && !run.abandoned && !run.lost);
    if (held.length === 0) return;
    let renewed: Set<string>;
    try {
      const { rows } = await this.pool.query<{ name: string }>(
        `UPDATE job_schedules AS s
         SET locked_until = now() + $2 * interval '1 millisecond'
         FROM unnest($3::text[], $4::timestamptz[]) AS h(name, tick)
         WHERE s.locked_by = $1 AND s.name = h.name AND s.last_run_at = h.tick
         RETURNING s.name`,
        [this.workerId, this.leaseMs, held.map(([name]) => name), held.map(([, run]) => run.tick)],
      );
      renewed = new Set(rows.map((row) => row.name));
    } catch (error) {
      this.logger.error({ err: errorMessage(error) }, 'scheduler: renewing claims failed');
      return;
    }
    for (const [name, run] of held) {
      if (renewed.has(name) || run.finishing || !this.registry.has(name)) continue;
      run.lost = true;
      this.logger.warn(
        { schedule: name, tick: run.tick },
        'scheduler: the claim of a running schedule lapsed; stopping the run here',
      );
      run.controller.abort(new Error('the claim on this schedule lapsed before the run finished'));
    }
  }

  private launch({ registered, tick, next }: ClaimedTick): void {
    const name = registered.definition.name;
    const run: Run = {
      controller: new AbortController(),
      job: undefined,
      done: Promise.resolve(),
      abandoned: false,
      finishing: false,
      lost: false,
      tick,
    };
    this.runs.set(name, run);
    run.done = this.execute(registered, run)
      .catch((error: unknown) =>
        this.logger.error({ schedule: name, err: errorMessage(error) }, 'scheduler: recording a run failed'),
      )
      .finally(() => {
        const wasFull = this.runs.size >= this.concurrency;
        this.runs.delete(name);
        // The loop already sleeps until the next tick; a finished run matters to it only when it
        // frees the last slot or its schedule's next tick came while it ran (it was locked then).
        if (wasFull || next.getTime() <= Date.now() + this.claimIntervalMs) this.wakeSignal.wake();
      });
  }

  private async execute(registered: Registered, run: Run): Promise<void> {
    const { definition, jobName, timeoutMs } = registered;
    let status: JobStatus = 'FAILED';
    try {
      const job = await this.jobHistory.startJob({
        name: jobName,
        resourceType: definition.resource?.type,
        resourceId: definition.resource?.id,
        agentId: definition.agentId,
        recordRunningAfterMs: definition.recordRunningAfterMs,
      });
      run.job = job;
      try {
        await runWithTimeout(
          (signal) => definition.handler({ signal, job, scheduledAt: run.tick, logger: this.logger }),
          timeoutMs,
          run.controller,
        );
        if (run.abandoned) return;
        status = await job.success();
      } catch (error) {
        if (run.abandoned) return;
        const message = error instanceof TimeoutError ? `${jobName} ${error.message}` : errorMessage(error);
        this.logger.warn({ schedule: definition.name, job: job.id, err: message }, 'scheduled job failed');
        status = await job.failure(message);
      }
    } finally {
      run.finishing = true;
      // Unlock even when job history could not be written, or the schedule would wait out its lease.
      if (!run.abandoned) await this.unlock(definition.name, run.tick, status, run.job?.durationMillis);
    }
  }

  private unlock(
    name: string,
    tick: Date,
    status: JobStatus,
    durationMillis: number | undefined,
  ): Promise<void> {
    return this.unlocks.add({ name, tick, status, durationMillis });
  }

  /** Unlocks the schedules of runs that ended at about the same time, in one statement. */
  private async unlockMany(items: Unlock[]): Promise<void[]> {
    await this.pool.query(
      `UPDATE job_schedules AS s
       SET locked_by = NULL, locked_until = NULL, last_finished_at = now(),
           last_status = u.status, last_duration_millis = u.duration
       FROM unnest($2::text[], $3::timestamptz[], $4::text[], $5::integer[]) AS u(name, tick, status, duration)
       WHERE s.name = u.name AND s.locked_by = $1 AND s.last_run_at = u.tick`,
      [
        this.workerId,
        items.map((item) => item.name),
        items.map((item) => item.tick),
        items.map((item) => item.status),
        items.map((item) => item.durationMillis ?? null),
      ],
    );
    return items.map(() => undefined);
  }

  private async abandonRemaining(): Promise<void> {
    const remaining = [...this.runs.entries()];
    this.logger.warn(
      { schedules: remaining.map(([name]) => name) },
      'scheduler: stopping runs that did not finish before shutdown',
    );
    await Promise.all(
      remaining.map(async ([name, run]) => {
        run.abandoned = true;
        run.controller.abort(new Error('the process is stopping'));
        try {
          await run.job?.stopped('The process stopped before the job finished');
          await this.unlock(name, run.tick, 'STOPPED', run.job?.durationMillis);
        } catch (error) {
          this.logger.error(
            { schedule: name, err: errorMessage(error) },
            'scheduler: releasing a run failed',
          );
        }
      }),
    );
  }
}
