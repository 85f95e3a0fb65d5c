import type { Queryable } from './support.js';

/** One event name of the queue (the settings Event Queue page). */
export interface EventQueueNameStatus {
  name: string;
  pending: number;
  in_flight: number;
  failed: number;
  oldest_pending_age_seconds: number | null;
  average_attempts: number;
  last_error: string | null;
  last_failure: string | null;
}

/**
 * Per event name: pending (waiting, retries included), in flight (claimed by a live lease now),
 * failed (dead-lettered), the age of the oldest event not handled yet, the average attempts and
 * the last error with when it happened.
 */
export async function eventQueueStatus(db: Queryable): Promise<EventQueueNameStatus[]> {
  const { rows } = await db.query<EventQueueNameStatus>(
    `SELECT name,
            count(*) FILTER (WHERE status = 'pending' AND NOT (locked_by IS NOT NULL AND available_at > now()))::int AS pending,
            count(*) FILTER (WHERE status = 'pending' AND locked_by IS NOT NULL AND available_at > now())::int AS in_flight,
            count(*) FILTER (WHERE status = 'failed')::int AS failed,
            extract(epoch FROM now() - min(created_at) FILTER (WHERE status = 'pending'))::double precision
              AS oldest_pending_age_seconds,
            round(avg(attempts), 2)::double precision AS average_attempts,
            (array_agg(error ORDER BY last_attempt DESC NULLS LAST) FILTER (WHERE error IS NOT NULL))[1] AS last_error,
            to_char(max(last_attempt) FILTER (WHERE error IS NOT NULL) AT TIME ZONE 'UTC',
                    'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_failure
       FROM event_queue
      GROUP BY name
      ORDER BY count(*) FILTER (WHERE status = 'failed') DESC, name`,
  );
  return rows.map((row) => ({
    ...row,
    oldest_pending_age_seconds:
      row.oldest_pending_age_seconds === null
        ? null
        : Math.max(0, Math.round(row.oldest_pending_age_seconds)),
  }));
}

export interface FailedEvent {
  id: string;
  name: string;
  error: string | null;
  attempts: number;
  created_at: string;
  last_attempt: string | null;
  properties: Record<string, unknown>;
}

/** Dead-lettered events, newest failure first, optionally of one name, with the total. */
export async function listFailedEvents(
  db: Queryable,
  options: { name?: string; limit: number; offset: number },
): Promise<{ events: FailedEvent[]; total: number }> {
  const { rows } = await db.query<FailedEvent & { total: number }>(
    `SELECT id, name, error, attempts, properties,
            to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
            to_char(last_attempt AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_attempt,
            count(*) OVER ()::int AS total
       FROM event_queue
      WHERE status = 'failed' AND ($1::text IS NULL OR name = $1)
      ORDER BY last_attempt DESC NULLS LAST, created_at DESC
      LIMIT $2 OFFSET $3`,
    [options.name ?? null, options.limit, options.offset],
  );
  const total =
    rows[0]?.total ??
    (
      await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM event_queue WHERE status = 'failed' AND ($1::text IS NULL OR name = $1)`,
        [options.name ?? null],
      )
    ).rows[0].n;
  return { events: rows.map(({ total: _total, ...event }) => event), total };
}

/** Deletes dead-lettered events (by ids and/or name; pending ones are never touched). Returns how many. */
export async function discardFailedEvents(
  db: Queryable,
  filter: { name?: string; ids?: readonly string[] },
): Promise<number> {
  if (filter.name === undefined && filter.ids === undefined) throw new TypeError('name or ids is required');
  const result = await db.query(
    `DELETE FROM event_queue
      WHERE status = 'failed' AND ($1::text IS NULL OR name = $1) AND ($2::uuid[] IS NULL OR id = ANY($2))`,
    [filter.name ?? null, filter.ids ?? null],
  );
  return result.rowCount ?? 0;
}
