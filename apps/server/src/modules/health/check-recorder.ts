import type { Pool } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/pool.js';
import type { Queryable } from '../../platform/jobs/index.js';
import type { CheckResult, CheckRun, DerivedCheckResult } from './checks/index.js';

export const CHECK_PASSED_EVENT = 'check.passed';
export const CHECK_FAILED_EVENT = 'check.failed';

export type CheckHealth = 'healthy' | 'unhealthy';

export interface RecordedCheck {
  checkId: string;
  /** Set when the status changed from a previous, different status (an event was queued). */
  transition?: CheckHealth;
  status: CheckHealth;
}

export interface RecordOptions {
  /** When the check runs next (its canary's next tick); null when it is not scheduled. */
  nextRuntime?: Date | null;
}

/** Longest message or error text kept per status row. */
const MAX_TEXT = 4000;

function clip(value: string): string | null {
  if (value === '') return null;
  return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT - 1)}…` : value;
}

/**
 * Writes one result in one statement (so in one transaction): the check_statuses row (time =
 * when the run started), the check's current status and run times, and, when the status changed
 * from a known different one, check.passed or check.failed in the event queue: the event exists
 * if and only if the status row does. The checks row is locked first, so concurrent results of
 * one check (a tick and a Run Now) see each other's status.
 */
async function recordInTransaction(
  db: Queryable,
  checkId: string,
  canaryId: string,
  startedAt: Date,
  result: CheckResult,
  options: RecordOptions,
): Promise<RecordedCheck> {
  const status: CheckHealth = result.pass ? 'healthy' : 'unhealthy';
  const duration = Math.max(0, Math.round(result.duration));
  const { rows } = await db.query<{ previous: CheckHealth | null; event_id: string | null }>(
    `WITH previous AS (
       SELECT id, status, name, type FROM checks WHERE id = $1 FOR UPDATE
     ),
     status_row AS (
       INSERT INTO check_statuses (check_id, time, duration, status, message, error, details)
       SELECT id, $2::timestamptz, $3::integer, $4::boolean, $5::text, $6::text, $7::jsonb FROM previous
       ON CONFLICT (check_id, time) DO UPDATE
       SET duration = EXCLUDED.duration, status = EXCLUDED.status, message = EXCLUDED.message,
           error = EXCLUDED.error, details = EXCLUDED.details
       RETURNING 1
     ),
     current AS (
       UPDATE checks
       SET status = $8::text,
           last_runtime = $2,
           next_runtime = $9::timestamptz,
           last_transition_time = CASE WHEN previous.status IS DISTINCT FROM $8::text THEN $2::timestamptz
                                       ELSE checks.last_transition_time END
       FROM previous WHERE checks.id = previous.id
       RETURNING 1
     ),
     -- The event queue's own enqueueEvents does this insert too; here it shares the statement.
     event AS (
       INSERT INTO event_queue (id, name, properties)
       SELECT gen_random_uuid(), $10::text,
              $11::jsonb || jsonb_build_object('name', previous.name, 'type', previous.type,
                                               'previous_status', previous.status)
       FROM previous
       WHERE previous.status IS NOT NULL AND previous.status <> $8::text
       RETURNING id
     )
     SELECT previous.status AS previous, (SELECT id FROM event) AS event_id
     FROM previous, (SELECT count(*) FROM status_row) AS s, (SELECT count(*) FROM current) AS c`,
    [
      checkId,
      startedAt,
      duration,
      result.pass,
      clip(result.message),
      clip(result.error),
      result.detail === undefined || result.detail === null ? null : JSON.stringify(result.detail),
      status,
      options.nextRuntime ?? null,
      status === 'healthy' ? CHECK_PASSED_EVENT : CHECK_FAILED_EVENT,
      JSON.stringify({
        id: checkId,
        canary_id: canaryId,
        check_id: checkId,
        status,
        last_runtime: startedAt.toISOString(),
        message: result.message,
        error: result.error,
      }),
    ],
  );
  if (rows.length === 0) throw new Error(`check ${checkId} does not exist`);
  const recorded: RecordedCheck = { checkId, status };
  if (rows[0].event_id !== null) recorded.transition = status;
  return recorded;
}

/** Records the result of a check that has a checks row. */
export async function recordCheckResult(
  pool: Pool,
  checkId: string,
  canaryId: string,
  run: Pick<CheckRun, 'startedAt' | 'result'>,
  options: RecordOptions = {},
): Promise<RecordedCheck> {
  return recordInTransaction(pool, checkId, canaryId, new Date(run.startedAt), run.result, options);
}

/**
 * Records a check produced by a fan-out transform: upserts its own checks row (marked
 * transformed) and its status, in one transaction. A result carrying deletedAt soft-deletes the
 * row instead and records nothing; undefined is returned then.
 */
export async function recordDerivedResult(
  pool: Pool,
  canary: { id: string; namespace: string; agent_id: string },
  startedAt: string,
  derived: DerivedCheckResult,
  options: RecordOptions = {},
): Promise<RecordedCheck | undefined> {
  return withTransaction(pool, async (client) => {
    const deletedAt = derived.deletedAt ? new Date(derived.deletedAt) : null;
    const validDeletedAt = deletedAt && !Number.isNaN(deletedAt.getTime()) ? deletedAt : null;
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO checks (canary_id, agent_id, type, name, description, icon, namespace, endpoint, labels,
                           transformed, deleted_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, true, $10)
       ON CONFLICT (canary_id, type, name) DO UPDATE
       SET description = coalesce(EXCLUDED.description, checks.description),
           icon = coalesce(EXCLUDED.icon, checks.icon),
           namespace = EXCLUDED.namespace, endpoint = EXCLUDED.endpoint, labels = EXCLUDED.labels,
           deleted_at = EXCLUDED.deleted_at
       RETURNING id`,
      [
        canary.id,
        canary.agent_id,
        derived.type,
        derived.name,
        derived.description ?? null,
        derived.icon ?? null,
        derived.namespace ?? canary.namespace,
        derived.endpoint,
        JSON.stringify(derived.labels ?? {}),
        validDeletedAt,
      ],
    );
    if (validDeletedAt) return undefined;
    return recordInTransaction(client, rows[0].id, canary.id, new Date(startedAt), derived, options);
  });
}
