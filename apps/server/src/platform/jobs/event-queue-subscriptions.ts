import type { Queryable } from './support.js';

/**
 * Fan-out for the event queue (migration 0210, ADR 0021). Each event name has one consumer;
 * a module that also wants events another module consumes keeps subscription rows here, and the
 * database copies every new event named `event` to `<subscriber>.<event>`, in the transaction that
 * raised it, once per subscription row. The copy's properties are the original's plus `event_id`,
 * `event_name`, `event_created_at` and `subscription_owner`; consume the copies with
 * `jobs.events.on('<subscriber>.*', ...)` and key effects by (event_id, subscription_owner) to be
 * idempotent. Copies are never copied again. A subscription applies to events raised after it.
 */
export interface EventSubscription {
  /** The copies' name prefix: lowercase dotted words (`playbook.trigger`). */
  subscriber: string;
  /** The exact event name copied (`check.failed`). */
  eventName: string;
  /** What subscribes (one copy per owner). */
  ownerId: string;
}

const SUBSCRIBER = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;

function validate(subscription: EventSubscription): void {
  if (!SUBSCRIBER.test(subscription.subscriber))
    throw new TypeError(`subscriber "${subscription.subscriber}" must be lowercase dotted words`);
  if (subscription.eventName === '' || subscription.eventName.startsWith(`${subscription.subscriber}.`))
    throw new TypeError(`"${subscription.eventName}" cannot be subscribed to by ${subscription.subscriber}`);
}

/**
 * Replaces the subscriptions of one owner of one subscriber with `eventNames` (none removes
 * them). Pass the transaction of the change that decides them.
 */
export async function setEventSubscriptions(
  db: Queryable,
  subscriber: string,
  ownerId: string,
  eventNames: readonly string[],
): Promise<void> {
  for (const eventName of eventNames) validate({ subscriber, eventName, ownerId });
  await db.query(
    `WITH removed AS (
       DELETE FROM event_queue_subscriptions
        WHERE subscriber = $1 AND owner_id = $2 AND NOT (event_name = ANY($3::text[]))
     )
     INSERT INTO event_queue_subscriptions (subscriber, owner_id, event_name)
     SELECT $1, $2, name FROM unnest($3::text[]) AS name
     ON CONFLICT DO NOTHING`,
    [subscriber, ownerId, [...new Set(eventNames)]],
  );
}

/** The subscriptions, optionally of one subscriber. */
export async function listEventSubscriptions(
  db: Queryable,
  subscriber?: string,
): Promise<EventSubscription[]> {
  const { rows } = await db.query<{ subscriber: string; event_name: string; owner_id: string }>(
    `SELECT subscriber, event_name, owner_id FROM event_queue_subscriptions
      WHERE $1::text IS NULL OR subscriber = $1 ORDER BY subscriber, event_name, owner_id`,
    [subscriber ?? null],
  );
  return rows.map((row) => ({
    subscriber: row.subscriber,
    eventName: row.event_name,
    ownerId: row.owner_id,
  }));
}
