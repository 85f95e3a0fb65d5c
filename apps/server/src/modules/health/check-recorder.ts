import type { CheckStatus } from '@opsdeck/contracts';
import type { Pool, PoolClient } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/pool.js';
import { enqueueEvent } from '../../platform/jobs/index.js';
import type { CheckResult, CheckRun, DerivedCheckResult } from './checks/index.js';

export const CHECK_PASSED_EVENT = 'check.passed';
export const CHECK_FAILED_EVENT = 'check.failed';

export interface RecordedCheck {
  checkId: string;
  /** Set when the status changed from a previous, different status (an event was queued). */
  transition?: CheckStatus;
  status: CheckStatus;
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
 * Writes one result in its own transaction: the status row in the recent tier of check_statuses
 * (time = when the run started; compaction packs it into a block once its hour has closed), the check's current status and run times, and, when the status changed from a
 * known different one, check.passed or check.failed in the event queue: the event exists if and
 * only if the status row does.
 */
async function recordInTransaction(
  client: PoolClient,
  checkId: string,
  canaryId: string,
  startedAt: Date,
  result: CheckResult,
  options: RecordOptions,
): Promise<RecordedCheck> {
  const status: CheckStatus = result.pass ? 'healthy' : 'unhealthy';
  const { rows } = await client.query<{ status: CheckStatus | null; name: string; type: string }>(
    'SELECT status, name, type FROM checks WHERE id = $1 FOR UPDATE',
    [checkId],
  );
  if (rows.length === 0) throw new Error(`check ${checkId} does not exist`);
  const previous = rows[0].status;
  const duration = Math.max(0, Math.round(result.duration));
  await client.query(
    `INSERT INTO check_statuses_recent (check_id, time, duration, status, message, error, details)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (check_id, time) DO UPDATE
     SET duration = EXCLUDED.duration, status = EXCLUDED.status, message = EXCLUDED.message,
         error = EXCLUDED.error, details = EXCLUDED.details`,
    [
      checkId,
      startedAt,
      duration,
      result.pass,
      clip(result.message),
      clip(result.error),
      result.detail === undefined || result.detail === null ? null : JSON.stringify(result.detail),
    ],
  );
  const changed = previous !== status;
  await client.query(
    `UPDATE checks
     SET status = $2,
         last_runtime = $3,
         next_runtime = $4,
         last_transition_time = CASE WHEN $5::boolean THEN $3 ELSE last_transition_time END
     WHERE id = $1`,
    [checkId, status, startedAt, options.nextRuntime ?? null, changed],
  );
  const recorded: RecordedCheck = { checkId, status };
  if (changed && previous !== null) {
    await enqueueEvent(client, status === 'healthy' ? CHECK_PASSED_EVENT : CHECK_FAILED_EVENT, {
      id: checkId,
      canary_id: canaryId,
      check_id: checkId,
      name: rows[0].name,
      type: rows[0].type,
      status,
      previous_status: previous,
      last_runtime: startedAt.toISOString(),
      message: result.message,
      error: result.error,
    });
    recorded.transition = status;
  }
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
  return withTransaction(pool, (client) =>
    recordInTransaction(client, checkId, canaryId, new Date(run.startedAt), run.result, options),
  );
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
