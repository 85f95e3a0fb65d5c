import pg from 'pg';
import {
  EVENT_QUEUE_CHANNEL,
  type EventConsumers,
  type EventProperties,
  type QueuedEvent,
} from './event-queue.js';
import type { JobsMetrics } from './metrics.js';
import { listenForNotifications, type NotificationListener } from './notification-listener.js';
import {
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

export interface EventQueueWorkerOptions {
  pool: pg.Pool;
  logger: JobsLogger;
  consumers: EventConsumers;
  /** Written to locked_by; unique per process. */
  workerId: string;
  metrics?: JobsMetrics;
  /** Handlers running at once in this process. Default 10. */
  concurrency?: number;
  /** How often to look for work without a notification. Default 1000 ms. */
  pollIntervalMs?: number;
  /** Default 60 s. */
  handlerTimeoutMs?: number;
  /**
   * How long a claimed event stays invisible to other workers without renewal. Default 30 s.
   * While handlers run, this process renews the claims of all of them every renewIntervalMs (one
   * UPDATE), so a slow handler keeps its event and a dead process's events return within leaseMs.
   */
  leaseMs?: number;
  /** How often running claims are renewed. Default a third of leaseMs; must be shorter. */
  renewIntervalMs?: number;
  /** Attempts before an event is left failed. Default 5. */
  maxAttempts?: number;
  /** Retry delay: baseMs × 2^(attempt − 1), at most maxMs. Defaults 1 s and 5 min. */
  backoff?: { baseMs?: number; maxMs?: number };
  /** LISTEN for inserts to wake early. Default true. */
  listen?: boolean;
}

interface Claim {
  event: QueuedEvent;
  controller: AbortController;
  done: Promise<void>;
  abandoned: boolean;
  /** The handler ended; its outcome is being written: no longer renewed. */
  finishing: boolean;
  /** A renewal found the row no longer ours: the handler was aborted. */
  lost: boolean;
}

type ClaimedRow = {
  id: string;
  name: string;
  properties: EventProperties | null;
  attempts: number;
  priority: number;
  created_at: Date;
  error: string | null;
};

/**
 * Claims batches of events with FOR UPDATE SKIP LOCKED and runs their consumers. A claim is a
 * lease: the row's available_at moves leaseMs ahead, and this process moves it again every
 * renewIntervalMs while the handler runs, so no other worker sees it while it runs, and it
 * reappears by itself within leaseMs if this process dies. Completion deletes the row;
 * failure stores the error and retries with exponential backoff until maxAttempts, after which
 * the row stays 'failed'. Writes after a claim are fenced by (locked_by, attempts) so a worker
 * whose lease lapsed cannot touch a row another worker has claimed since.
 */
export class EventQueueWorker {
  private readonly pool: pg.Pool;
  private readonly logger: JobsLogger;
  private readonly consumers: EventConsumers;
  private readonly workerId: string;
  private readonly metrics: JobsMetrics | undefined;
  private readonly concurrency: number;
  private readonly pollIntervalMs: number;
  private readonly handlerTimeoutMs: number;
  private readonly leaseMs: number;
  private readonly renewal: RepeatingTask;
  private readonly maxAttempts: number;
  private readonly backoffBaseMs: number;
  private readonly backoffMaxMs: number;
  private readonly listen: boolean;
  private readonly claims = new Map<string, Claim>();
  private wakeSignal = new WakeSignal();
  private stopping = false;
  private loopDone: Promise<void> | undefined;
  private listener: NotificationListener | undefined;
  /** Claims' own connection, when a consumer asked for one (ConsumerOptions.claimConnection). */
  private claimPool: pg.Pool | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(options: EventQueueWorkerOptions) {
    this.pool = options.pool;
    this.logger = options.logger;
    this.consumers = options.consumers;
    this.workerId = options.workerId;
    this.metrics = options.metrics;
    this.concurrency = options.concurrency ?? 10;
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.handlerTimeoutMs = options.handlerTimeoutMs ?? 60_000;
    const timing = claimTiming(options.leaseMs, options.renewIntervalMs);
    this.leaseMs = timing.leaseMs;
    this.renewal = new RepeatingTask(() => this.renewClaims(), timing.renewIntervalMs);
    this.maxAttempts = options.maxAttempts ?? 5;
    this.backoffBaseMs = options.backoff?.baseMs ?? 1000;
    this.backoffMaxMs = options.backoff?.maxMs ?? 300_000;
    this.listen = options.listen ?? true;
    validatePositive('concurrency', this.concurrency);
    validatePositive('pollIntervalMs', this.pollIntervalMs);
    validatePositive('handlerTimeoutMs', this.handlerTimeoutMs);
    validatePositive('maxAttempts', this.maxAttempts);
  }

  start(): void {
    if (this.loopDone) return;
    this.stopping = false;
    // A closed signal stays closed; a restarted loop needs a fresh one.
    this.wakeSignal = new WakeSignal();
    if (this.listen) {
      this.listener = listenForNotifications({
        pool: this.pool,
        channel: EVENT_QUEUE_CHANNEL,
        logger: this.logger,
        onWake: (name) => {
          if (name === undefined || this.consumers.resolve(name)) this.wakeSignal.wake();
        },
      });
    }
    this.unsubscribe = this.consumers.onChange(() => this.wakeSignal.wake());
    if (this.consumers.wantsClaimConnection) {
      this.claimPool = new pg.Pool({ ...this.pool.options, max: 1, idleTimeoutMillis: 30_000 });
      this.claimPool.on('error', (error) =>
        this.logger.warn({ err: errorMessage(error) }, 'event queue: the claim connection failed'),
      );
    }
    this.loopDone = this.loop();
    this.renewal.start();
  }

  /**
   * Stops claiming, waits up to graceMs for running handlers, then aborts the rest and
   * releases their claims (the attempt is not counted) so another worker takes them at once.
   */
  async stop(graceMs: number): Promise<void> {
    if (!this.loopDone) return;
    this.stopping = true;
    this.wakeSignal.close();
    this.unsubscribe?.();
    await Promise.all([this.loopDone, this.listener?.close()]);
    this.listener = undefined;
    await this.claimPool?.end();
    this.claimPool = undefined;
    const finished = await settleWithin(
      [...this.claims.values()].map((claim) => claim.done),
      graceMs,
    );
    if (!finished) await this.releaseRemaining();
    await this.renewal.stop();
    this.loopDone = undefined;
  }

  private async loop(): Promise<void> {
    let consecutiveErrors = 0;
    while (!this.stopping) {
      let claimedFullBatch = false;
      try {
        const capacity = this.concurrency - this.claims.size;
        if (capacity > 0 && this.consumers.size > 0) {
          const events = await this.claim(capacity);
          for (const event of events) this.handle(event);
          claimedFullBatch = events.length === capacity;
        }
        consecutiveErrors = 0;
      } catch (error) {
        consecutiveErrors += 1;
        this.logger.error({ err: errorMessage(error) }, 'event queue: claiming events failed');
      }
      if (claimedFullBatch && !this.stopping) continue;
      const delay =
        consecutiveErrors === 0
          ? this.pollIntervalMs
          : Math.min(this.pollIntervalMs * 2 ** consecutiveErrors, 30_000);
      await this.wakeSignal.wait(delay);
    }
  }

  private async claim(limit: number): Promise<QueuedEvent[]> {
    const { names, likePatterns } = this.consumers.claimFilter();
    const result = await (this.claimPool ?? this.pool).query<ClaimedRow>(
      `WITH next AS (
         SELECT id FROM event_queue
         WHERE status = 'pending' AND available_at <= now()
           AND (name = ANY($1::text[]) OR name LIKE ANY($2::text[]))
         ORDER BY priority DESC, available_at, created_at
         LIMIT $3
         FOR UPDATE SKIP LOCKED
       )
       UPDATE event_queue AS e
       SET attempts = e.attempts + 1,
           last_attempt = now(),
           available_at = now() + $4 * interval '1 millisecond',
           locked_by = $5,
           error = CASE WHEN e.locked_by IS NULL THEN e.error
                        ELSE 'the claim of ' || e.locked_by || ' expired before it finished' END
       FROM next
       WHERE e.id = next.id
       RETURNING e.id, e.name, e.properties, e.attempts, e.priority, e.created_at, e.error`,
      [names, likePatterns, limit, this.leaseMs, this.workerId],
    );
    return result.rows
      .map((row) => ({
        id: row.id,
        name: row.name,
        properties: row.properties ?? {},
        attempts: row.attempts,
        priority: row.priority,
        createdAt: row.created_at,
        lastError: row.error,
      }))
      .sort((a, b) => b.priority - a.priority || a.createdAt.getTime() - b.createdAt.getTime());
  }

  private handle(event: QueuedEvent): void {
    const controller = new AbortController();
    const claim: Claim = {
      event,
      controller,
      abandoned: false,
      finishing: false,
      lost: false,
      done: Promise.resolve(),
    };
    this.claims.set(event.id, claim);
    claim.done = this.process(claim).finally(() => {
      this.claims.delete(event.id);
      this.wakeSignal.wake();
    });
  }

  private async process(claim: Claim): Promise<void> {
    const { event, controller } = claim;
    const consumer = this.consumers.resolve(event.name);
    const maxAttempts = consumer?.maxAttempts ?? this.maxAttempts;
    if (!consumer) {
      claim.finishing = true;
      // Its consumer was removed after the claim: give the event back untouched.
      await this.release([event.id]).catch((error: unknown) => this.logWriteFailure(event, error));
      return;
    }
    if (event.attempts > maxAttempts) {
      claim.finishing = true;
      // The budget was spent by workers that died mid-attempt; do not run it again.
      await this.fail(claim, event.lastError ?? 'attempts exhausted', true);
      return;
    }
    const timeoutMs = consumer.timeoutMs ?? this.handlerTimeoutMs;
    const started = performance.now();
    let failure: { error: unknown } | undefined;
    try {
      await runWithTimeout(
        (signal) => consumer.handler(event, { signal, logger: this.logger, pool: this.pool }),
        timeoutMs,
        controller,
      );
    } catch (error) {
      failure = { error };
    }
    claim.finishing = true;
    const seconds = (performance.now() - started) / 1000;
    if (claim.abandoned) {
      this.metrics?.observeEvent(event.name, 'released', seconds);
      return;
    }
    if (!failure) {
      this.metrics?.observeEvent(event.name, 'success', seconds);
      await this.pool
        .query('DELETE FROM event_queue WHERE id = $1 AND locked_by = $2 AND attempts = $3', [
          event.id,
          this.workerId,
          event.attempts,
        ])
        .catch((error: unknown) => this.logWriteFailure(event, error));
      return;
    }
    const final = event.attempts >= maxAttempts;
    this.metrics?.observeEvent(event.name, final ? 'failed' : 'retry', seconds);
    const message =
      failure.error instanceof TimeoutError
        ? `handler ${failure.error.message}`
        : errorMessage(failure.error);
    this.logger.warn(
      { eventId: event.id, event: event.name, attempts: event.attempts, err: message },
      final ? 'event failed; no attempts left' : 'event failed; will retry',
    );
    await this.fail(claim, message, final);
  }

  private async fail(claim: Claim, message: string, final: boolean): Promise<void> {
    const { event } = claim;
    const backoffMs = Math.min(this.backoffBaseMs * 2 ** (event.attempts - 1), this.backoffMaxMs);
    await this.pool
      .query(
        `UPDATE event_queue
         SET error = $4,
             locked_by = NULL,
             status = CASE WHEN $5 THEN 'failed' ELSE 'pending' END,
             available_at = CASE WHEN $5 THEN available_at ELSE now() + $6 * interval '1 millisecond' END
         WHERE id = $1 AND locked_by = $2 AND attempts = $3`,
        [event.id, this.workerId, event.attempts, message, final, backoffMs],
      )
      .catch((error: unknown) => this.logWriteFailure(event, error));
  }

  /**
   * Extends the lease of every event this process is handling, in one statement. An event that
   * is no longer ours (its lease lapsed and another worker claimed it) has its handler aborted
   * here; its outcome would not be written anyway (writes are fenced by locked_by and attempts).
   */
  private async renewClaims(): Promise<void> {
    const held = [...this.claims.values()].filter(
      (claim) => !claim.finishing && !claim.abandoned && !claim.lost,
    );
    if (held.length === 0) return;
    let renewed: Set<string>;
    try {
      const { rows } = await this.pool.query<{ id: string }>(
        `UPDATE event_queue AS e
         SET available_at = now() + $2 * interval '1 millisecond'
         FROM unnest($3::uuid[], $4::integer[]) AS h(id, attempts)
         WHERE e.locked_by = $1 AND e.id = h.id AND e.attempts = h.attempts AND e.status = 'pending'
         RETURNING e.id`,
        [
          this.workerId,
          this.leaseMs,
          held.map((claim) => claim.event.id),
          held.map((claim) => claim.event.attempts),
        ],
      );
      renewed = new Set(rows.map((row) => row.id));
    } catch (error) {
      this.logger.error({ err: errorMessage(error) }, 'event queue: renewing claims failed');
      return;
    }
    for (const claim of held) {
      if (renewed.has(claim.event.id) || claim.finishing) continue;
      claim.lost = true;
      this.logger.warn(
        { eventId: claim.event.id, event: claim.event.name, attempts: claim.event.attempts },
        'event queue: the claim of a running event lapsed; stopping its handler here',
      );
      claim.controller.abort(new Error('the claim on this event lapsed before its handler finished'));
    }
  }

  private async release(ids: string[]): Promise<void> {
    await this.pool.query(
      `UPDATE event_queue
       SET locked_by = NULL, available_at = now(), attempts = greatest(attempts - 1, 0)
       WHERE id = ANY($1::uuid[]) AND locked_by = $2`,
      [ids, this.workerId],
    );
  }

  private async releaseRemaining(): Promise<void> {
    const remaining = [...this.claims.values()];
    for (const claim of remaining) {
      claim.abandoned = true;
      claim.controller.abort(new Error('the worker is stopping'));
    }
    this.logger.warn(
      { events: remaining.map((claim) => ({ id: claim.event.id, name: claim.event.name })) },
      'event queue: releasing events whose handlers did not finish before shutdown',
    );
    await this.release(remaining.map((claim) => claim.event.id)).catch((error: unknown) =>
      this.logger.error({ err: errorMessage(error) }, 'event queue: releasing claims failed'),
    );
  }

  private logWriteFailure(event: QueuedEvent, error: unknown): void {
    // The lease runs out and the event is handled again: at-least-once, never lost.
    this.logger.error(
      { eventId: event.id, event: event.name, err: errorMessage(error) },
      'event queue: recording the outcome of an event failed',
    );
  }
}
