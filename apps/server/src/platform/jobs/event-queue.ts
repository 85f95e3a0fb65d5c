import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { validatePositive, type JobsLogger, type Queryable } from './support.js';

/** The channel the event_queue insert trigger notifies, with the event name as payload. */
export const EVENT_QUEUE_CHANNEL = 'event_queue_updates';

export type EventProperties = Record<string, unknown>;

export interface EnqueueOptions {
  /** Higher runs first. Default 0. */
  priority?: number;
  /** Keep the event invisible to consumers for this long. Default 0. */
  delayMs?: number;
}

export interface EventToEnqueue extends EnqueueOptions {
  name: string;
  properties?: EventProperties;
}

/**
 * Adds an event to the durable queue. Pass the transaction client of the change that caused
 * the event: the event then exists if and only if that change commits, and consumers are woken
 * (by NOTIFY) only at commit. Returns the event id.
 */
export async function enqueueEvent(
  db: Queryable,
  name: string,
  properties: EventProperties = {},
  options: EnqueueOptions = {},
): Promise<string> {
  const [id] = await enqueueEvents(db, [{ name, properties, ...options }]);
  return id;
}

/** Adds several events in one statement; returns their ids in the given order. */
export async function enqueueEvents(db: Queryable, events: readonly EventToEnqueue[]): Promise<string[]> {
  if (events.length === 0) return [];
  const rows = events.map((event) => {
    if (typeof event.name !== 'string' || event.name.trim() === '') {
      throw new TypeError('An event needs a non-empty name');
    }
    const properties = event.properties ?? {};
    if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) {
      throw new TypeError(`The properties of event "${event.name}" must be an object`);
    }
    return {
      id: randomUUID(),
      name: event.name,
      properties,
      priority: Math.trunc(event.priority ?? 0),
      delay_ms: Math.max(0, Math.round(event.delayMs ?? 0)),
    };
  });
  await db.query(
    `INSERT INTO event_queue (id, name, properties, priority, available_at)
     SELECT e.id, e.name, e.properties, e.priority, now() + e.delay_ms * interval '1 millisecond'
     FROM jsonb_to_recordset($1::jsonb)
       AS e(id uuid, name text, properties jsonb, priority integer, delay_ms bigint)`,
    [JSON.stringify(rows)],
  );
  return rows.map((row) => row.id);
}

/**
 * Puts dead-lettered events back in the queue with a fresh attempt budget (the settings page's
 * retry). With neither filter every failed event is requeued. Returns how many were.
 */
export async function requeueFailedEvents(
  db: Queryable,
  filter: { name?: string; ids?: readonly string[] } = {},
): Promise<number> {
  const result = await db.query<{ requeued: number }>(
    `WITH requeued AS (
       UPDATE event_queue
       SET status = 'pending', attempts = 0, available_at = now(), locked_by = NULL
       WHERE status = 'failed'
         AND ($1::text IS NULL OR name = $1)
         AND ($2::uuid[] IS NULL OR id = ANY($2))
       RETURNING name
     ),
     notified AS (
       SELECT pg_notify($3, name) FROM (SELECT DISTINCT name FROM requeued) AS names
     )
     SELECT (SELECT count(*)::integer FROM requeued) AS requeued,
            (SELECT count(*)::integer FROM notified) AS names`,
    [filter.name ?? null, filter.ids ?? null, EVENT_QUEUE_CHANNEL],
  );
  return result.rows[0].requeued;
}

export interface QueuedEvent {
  id: string;
  name: string;
  properties: EventProperties;
  /** 1 on the first attempt. */
  attempts: number;
  priority: number;
  createdAt: Date;
  /** The error of the previous attempt, if any. */
  lastError: string | null;
}

export interface EventContext {
  /** Aborted when the handler times out or the process stops. */
  signal: AbortSignal;
  logger: JobsLogger;
  /** For the handler's own transactions (enqueue follow-up events in them). */
  pool: pg.Pool;
}

export type EventHandler = (event: QueuedEvent, context: EventContext) => Promise<void>;

export interface ConsumerOptions {
  /** Overrides the worker's handlerTimeoutMs for these events. */
  timeoutMs?: number;
  /** Overrides the worker's maxAttempts for these events. */
  maxAttempts?: number;
  /**
   * Handlers of these events running at once in this process, in a lane of their own: they
   * neither take the shared slots (a flood of long handlers cannot starve other events) nor wait
   * for them. Exact event names only. Default: the shared slots.
   */
  concurrency?: number;
  /**
   * The lane (with `concurrency`) claims these events through a connection of its own instead
   * of the shared pool, so a claim does not wait behind its handlers' statements: for events
   * whose start latency matters (a burst of playbook runs). Default false.
   */
  claimConnection?: boolean;
}

interface Consumer extends ConsumerOptions {
  pattern: string;
  handler: EventHandler;
}

/**
 * Which handler consumes which events: an exact name (`incident.created`) or a prefix written
 * with a trailing `*` (`notification.*`). Each event has one consumer: the exact name, else the
 * longest matching prefix. Fan-out belongs in a handler that enqueues further events.
 */
export class EventConsumers {
  private readonly exact = new Map<string, Consumer>();
  private readonly prefixes = new Map<string, Consumer>();
  private readonly listeners = new Set<() => void>();

  on(pattern: string, handler: EventHandler, options: ConsumerOptions = {}): this {
    const star = pattern.indexOf('*');
    if (pattern === '' || (star !== -1 && star !== pattern.length - 1)) {
      throw new TypeError(`"${pattern}" is not an event name or a prefix ending in *`);
    }
    const table = star === -1 ? this.exact : this.prefixes;
    const key = star === -1 ? pattern : pattern.slice(0, -1);
    if (table.has(key)) {
      throw new Error(`Events "${pattern}" already have a consumer`);
    }
    validatePositive('timeoutMs', options.timeoutMs);
    validatePositive('maxAttempts', options.maxAttempts);
    table.set(key, { pattern, handler, ...options });
    this.listeners.forEach((listener) => listener());
    return this;
  }

  off(pattern: string): void {
    if (pattern.endsWith('*')) this.prefixes.delete(pattern.slice(0, -1));
    else this.exact.delete(pattern);
  }

  resolve(name: string): Consumer | undefined {
    const exact = this.exact.get(name);
    if (exact) return exact;
    let best: [string, Consumer] | undefined;
    for (const entry of this.prefixes) {
      if (name.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
    }
    return best?.[1];
  }

  /** Some consumer asked for claims through a connection of their own. */
  get wantsClaimConnection(): boolean {
    return [...this.exact.values(), ...this.prefixes.values()].some((consumer) => consumer.claimConnection);
  }

  get size(): number {
    return this.exact.size + this.prefixes.size;
  }

  /** Parameters of the claim query: exact names and LIKE patterns for the prefixes. */
  claimFilter(): { names: string[]; likePatterns: string[] } {
    return {
      names: [...this.exact.keys()],
      likePatterns: [...this.prefixes.keys()].map((prefix) => `${prefix.replace(/[\\%_]/g, '\\$&')}%`),
    };
  }

  /** Called whenever a consumer is added (the worker claims again at once). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
