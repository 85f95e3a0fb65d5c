import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type pg from 'pg';

type LogMethod = (objectOrMessage: object | string, message?: string) => void;

/** The logging the jobs platform needs; a pino logger satisfies it. */
export interface JobsLogger {
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
}

/** A pool, or a client inside a transaction the caller owns. */
export type Queryable = pg.Pool | pg.ClientBase;

/** Identifies one running process in lock columns and job history (`host:pid:random`). */
export function createWorkerId(hostname: string = os.hostname()): string {
  return `${hostname}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/** Throws a RangeError naming the option unless `value` is absent or a positive finite number. */
export function validatePositive(name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
    throw new RangeError(`${name} must be a positive number, got ${value}`);
  }
}

/** How long a claim (a schedule's tick, a queued event) holds without renewal. */
export const DEFAULT_CLAIM_LEASE_MS = 30_000;

/**
 * The lease and renewal period of a worker's claims: the owner renews every renewIntervalMs
 * (default a third of the lease), so a live owner keeps its claims however long the work takes
 * and a dead one's lapse at most leaseMs after it died. Throws a RangeError naming the option.
 */
export function claimTiming(
  leaseMs: number | undefined,
  renewIntervalMs: number | undefined,
): { leaseMs: number; renewIntervalMs: number } {
  validatePositive('leaseMs', leaseMs);
  validatePositive('renewIntervalMs', renewIntervalMs);
  const lease = leaseMs ?? DEFAULT_CLAIM_LEASE_MS;
  const renew = renewIntervalMs ?? lease / 3;
  if (renew >= lease) {
    throw new RangeError(`renewIntervalMs (${renew}) must be shorter than leaseMs (${lease})`);
  }
  return { leaseMs: lease, renewIntervalMs: renew };
}

/**
 * Runs `task` every intervalMs between start() and stop(); a run still going when the next is
 * due is not doubled. The task logs its own errors. stop() waits for a run in progress.
 */
export class RepeatingTask {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly task: () => Promise<void>,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.task()
        .catch(() => undefined)
        .finally(() => {
          this.running = undefined;
        });
    }, this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}

/** Longest error text stored in a row: enough for a stack-less message, bounded for the UI. */
const MAX_ERROR_LENGTH = 4000;

export function errorMessage(error: unknown): string {
  const text =
    error instanceof Error
      ? error.message || error.name
      : typeof error === 'string'
        ? error
        : serialize(error);
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}

function serialize(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    // Circular or BigInt-holding values.
    return String(value);
  }
}

export class TimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`timed out after ${timeoutMs} ms`);
    this.name = 'TimeoutError';
  }
}

/**
 * Runs `work` with an AbortSignal that fires after `timeoutMs` or when `parent` aborts, and
 * rejects with TimeoutError at the deadline even if `work` ignores its signal: a hung handler
 * must not hold its caller. `controller` lets the caller abort the work for other reasons.
 */
export async function runWithTimeout<T>(
  work: (signal: AbortSignal) => Promise<T>,
  timeoutMs: number,
  controller: AbortController = new AbortController(),
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new TimeoutError(timeoutMs);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    return await Promise.race([Promise.resolve().then(() => work(controller.signal)), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A level-triggered wake-up for worker loops: `wake()` before `wait()` is not lost, and a
 * wait ends at its timeout, on `wake()`, or at once after `close()`.
 */
export class WakeSignal {
  private pending = false;
  private closed = false;
  private resolveWaiter: (() => void) | undefined;

  wake(): void {
    this.pending = true;
    this.resolveWaiter?.();
  }

  close(): void {
    this.closed = true;
    this.wake();
  }

  async wait(timeoutMs: number): Promise<void> {
    if (this.pending || this.closed) {
      this.pending = false;
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.max(0, timeoutMs));
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.resolveWaiter = done;
    });
    this.resolveWaiter = undefined;
    this.pending = false;
  }
}

/** Resolves when every promise in `running` settled, or after `graceMs`; true when all did. */
export async function settleWithin(running: Iterable<Promise<unknown>>, graceMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const all = Promise.allSettled(running).then(() => true);
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), graceMs);
  });
  try {
    return await Promise.race([all, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Coalesces single-item writes into one multi-row statement: items added while a flush is
 * pending (or within delayMs of the first) are flushed together, so N runs finishing at about
 * the same time cost one round trip and one transaction instead of N. `flush` answers one result
 * per item, in order; when it throws, every item of that flush rejects with the error.
 */
export class Batcher<T, R> {
  private pending: Array<{ item: T; resolve: (result: R) => void; reject: (error: unknown) => void }> = [];
  private scheduled = false;

  constructor(
    private readonly flush: (items: T[]) => Promise<R[]>,
    private readonly options: { delayMs?: number; maxItems?: number } = {},
  ) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length >= (this.options.maxItems ?? 500)) {
        this.run();
        return;
      }
      if (this.scheduled) return;
      this.scheduled = true;
      const delay = this.options.delayMs ?? 0;
      if (delay > 0) setTimeout(() => this.run(), delay);
      else setImmediate(() => this.run());
    });
  }

  private run(): void {
    this.scheduled = false;
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    this.flush(batch.map((entry) => entry.item)).then(
      (results) => {
        batch.forEach((entry, index) => entry.resolve(results[index]));
      },
      (error: unknown) => {
        for (const entry of batch) entry.reject(error);
      },
    );
  }
}
