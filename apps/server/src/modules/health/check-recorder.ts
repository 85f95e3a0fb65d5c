import type { CheckStatus } from '@opsdeck/contracts';
import type { Pool, PoolClient } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/pool.js';
import { enqueueEvent, enqueueEvents, type EventToEnqueue } from '../../platform/jobs/index.js';
import { Batcher } from '../../platform/jobs/support.js';
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

interface PendingResult {
  checkId: string;
  canaryId: string;
  startedAt: Date;
  result: CheckResult;
  options: RecordOptions;
}

/** How long a result waits for others to be written with it (results of one batch of runs). */
const RECORD_BATCH_DELAY_MS = 10;

const recorders = new WeakMap<Pool, Batcher<PendingResult, RecordedCheck | Error>>();

function recorderOf(pool: Pool): Batcher<PendingResult, RecordedCheck | Error> {
  let recorder = recorders.get(pool);
  if (!recorder) {
    recorder = new Batcher((items) => recordBatch(pool, items), { delayMs: RECORD_BATCH_DELAY_MS });
    recorders.set(pool, recorder);
  }
  return recorder;
}

/**
 * Writes results of checks (one or several) in one transaction: one statement locks and reads
 * the checks rows, inserts the status rows and updates the checks rows, and one more queues the
 * transition events when there are any, with the same outcome as writing each in its own
 * transaction: the event exists if and only if the status row does. A check id twice in the
 * batch goes to a later round. When the batch fails as a whole, each result is written on its
 * own, so one bad result does not lose the others.
 */
async function recordBatch(pool: Pool, items: PendingResult[]): Promise<Array<RecordedCheck | Error>> {
  const answers: Array<RecordedCheck | Error> = new Array(items.length);
  // Rounds of distinct check ids, in arrival order.
  let remaining = items.map((item, index) => ({ item, index }));
  try {
    await withTransaction(pool, async (client) => {
      while (remaining.length > 0) {
        const seen = new Set<string>();
        const round: typeof remaining = [];
        const later: typeof remaining = [];
        for (const entry of remaining) {
          if (seen.has(entry.item.checkId)) later.push(entry);
          else {
            seen.add(entry.item.checkId);
            round.push(entry);
          }
        }
        await recordRound(client, round, answers);
        remaining = later;
      }
    });
    return answers;
  } catch {
    return Promise.all(items.map((item) => recordSingle(pool, item)));
  }
}

async function recordSingle(pool: Pool, item: PendingResult): Promise<RecordedCheck | Error> {
  try {
    return await withTransaction(pool, (client) =>
      recordInTransaction(client, item.checkId, item.canaryId, item.startedAt, item.result, item.options),
    );
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

async function recordRound(
  client: PoolClient,
  round: Array<{ item: PendingResult; index: number }>,
  answers: Array<RecordedCheck | Error>,
): Promise<void> {
  // One statement (issue 22: a batch of one-check canaries paid a round trip per kind of write):
  // lock the checks rows in id order (concurrent batches sharing checks cannot deadlock), read
  // their previous status, insert the status rows and update the checks rows of those that exist.
  // The rows it returns are the previous state, as the lock read them.
  const statusOf = (item: PendingResult): CheckStatus => (item.result.pass ? 'healthy' : 'unhealthy');
  const { rows } = await client.query<{ id: string; status: CheckStatus | null; name: string; type: string }>(
    `WITH u AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb)
         AS u(check_id uuid, time timestamptz, duration integer, pass boolean, message text,
              error text, details jsonb, status text, next_runtime timestamptz)
     ),
     locked AS (
       SELECT c.id, c.status, c.name, c.type FROM checks c
       WHERE c.id IN (SELECT check_id FROM u) ORDER BY c.id FOR UPDATE
     ),
     inserted AS (
       INSERT INTO check_statuses_recent (check_id, time, duration, status, message, error, details)
       SELECT u.check_id, u.time, u.duration, u.pass, u.message, u.error, u.details
       FROM u JOIN locked ON locked.id = u.check_id
       ON CONFLICT (check_id, time) DO UPDATE
       SET duration = EXCLUDED.duration, status = EXCLUDED.status, message = EXCLUDED.message,
           error = EXCLUDED.error, details = EXCLUDED.details
     ),
     updated AS (
       UPDATE checks AS c
       SET status = u.status,
           last_runtime = u.time,
           next_runtime = u.next_runtime,
           last_transition_time = CASE WHEN locked.status IS DISTINCT FROM u.status THEN u.time
                                       ELSE c.last_transition_time END
       FROM u JOIN locked ON locked.id = u.check_id
       WHERE c.id = u.check_id
     )
     SELECT id, status, name, type FROM locked`,
    // One JSON document rather than an array per column: pg escapes every element of an array
    // parameter in JavaScript (2 % of the engine's CPU, issue 22); JSON.stringify is native.
    [
      JSON.stringify(
        round.map(({ item }) => ({
          check_id: item.checkId,
          time: item.startedAt.toISOString(),
          duration: Math.max(0, Math.round(item.result.duration)),
          pass: item.result.pass,
          message: clip(item.result.message),
          error: clip(item.result.error),
          details: item.result.detail ?? null,
          status: statusOf(item),
          next_runtime: item.options.nextRuntime?.toISOString() ?? null,
        })),
      ),
    ],
  );
  const current = new Map(rows.map((row) => [row.id, row]));
  const present = round.filter((entry) => {
    if (current.has(entry.item.checkId)) return true;
    answers[entry.index] = new Error(`check ${entry.item.checkId} does not exist`);
    return false;
  });
  if (present.length === 0) return;
  const writes = present.map(({ item }) => {
    const status = statusOf(item);
    const previous = current.get(item.checkId)!.status;
    return { item, status, previous, changed: previous !== status };
  });
  const events: EventToEnqueue[] = [];
  for (const [position, write] of writes.entries()) {
    const { item, status, previous, changed } = write;
    const recorded: RecordedCheck = { checkId: item.checkId, status };
    if (changed && previous !== null) {
      const row = current.get(item.checkId)!;
      events.push({
        name: status === 'healthy' ? CHECK_PASSED_EVENT : CHECK_FAILED_EVENT,
        properties: {
          id: item.checkId,
          canary_id: item.canaryId,
          check_id: item.checkId,
          name: row.name,
          type: row.type,
          status,
          previous_status: previous,
          last_runtime: item.startedAt.toISOString(),
          message: item.result.message,
          error: item.result.error,
        },
      });
      recorded.transition = status;
    }
    answers[present[position].index] = recorded;
  }
  await enqueueEvents(client, events);
}

/**
 * Records the result of a check that has a checks row. Results recorded at about the same time
 * (by the runs of one batch of canaries) are written together in one transaction.
 */
export async function recordCheckResult(
  pool: Pool,
  checkId: string,
  canaryId: string,
  run: Pick<CheckRun, 'startedAt' | 'result'>,
  options: RecordOptions = {},
): Promise<RecordedCheck> {
  const answer = await recorderOf(pool).add({
    checkId,
    canaryId,
    startedAt: new Date(run.startedAt),
    result: run.result,
    options,
  });
  if (answer instanceof Error) throw answer;
  return answer;
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
