import type pg from 'pg';
import {
  EVENT_QUEUE_CHANNEL,
  type EventConsumers,
  type EventProperties,
  type QueuedEvent,
} from './event-queue.js';
import type { JobsMetrics } from './metrics.js';
import { listenForNotifications, type NotificationListener } from './notification-listener.js';
import {
  errorMessage,
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
  /** Added to the longest handler timeout to form the claim lease. Default 30 s. */
  leaseMarginMs?: number;
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
 * lease: the row's available_at moves past the handler timeout, so no other worker sees it
 * while it runs, and it reappears by itself if this process dies. Completion deletes the row;
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
  private readonly leaseMarginMs: number;
  private readonly maxAttempts: number;
  private readonly backoffBaseMs: number;
  private readonly backoffMaxMs: number;
  private readonly listen: boolean;
  private readonly claims = new Map<string, Claim>();
  private wakeSignal = new WakeSignal();
  private stopping = false;
  private loopDone: Promise<void> | undefined;
  private listener: NotificationListener | undefined;
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
    this.leaseMarginMs = options.leaseMarginMs ?? 30_000;
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
    this.loopDone = this.loop();
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
    const finished = await settleWithin(
      [...this.claims.values()].map((claim) => claim.done),
      graceMs,
    );
    if (!finished) await this.releaseRemaining();
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

  private leaseMs(): number {
    return Math.max(this.handlerTimeoutMs, ...this.consumers.timeouts()) + this.leaseMarginMs;
  }

  private async claim(limit: number): Promise<QueuedEvent[]> {
    const { names, likePatterns } = this.consumers.claimFilter();
    const result = await this.pool.query<ClaimedRow>(
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
      [names, likePatterns, limit, this.leaseMs(), this.workerId],
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
    const claim: Claim = { event, controller, abandoned: false, done: Promise.resolve() };
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
      // Its consumer was removed after the claim: give the event back untouched.
      await this.release([event.id]).catch((error: unknown) => this.logWriteFailure(event, error));
      return;
    }
    if (event.attempts > maxAttempts) {
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
