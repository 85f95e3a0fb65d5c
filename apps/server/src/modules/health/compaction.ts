import type { Pool } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/pool.js';
import type { JobsService } from '../../platform/jobs/index.js';

/**
 * Compaction of check statuses (docs/adr/0006-check-status-blocks.md): results are written one
 * row each to check_statuses_recent; once their UTC hour has closed, this job moves them into
 * check_status_blocks, one row per check per UTC day holding the day's statuses as parallel
 * arrays sorted by time, with the day's aggregates and running totals. Statuses for a day that
 * already has a block (later hours of the day, results recorded late) are merged into it. The
 * same statement rewrites the touched checks' hourly and daily rollups from the packed statuses,
 * and the transaction advances the mark (check_status_compaction.packed_before): the summary
 * reads packed hours from those rollups, never from the arrays (migration 0071).
 */

export const CHECK_STATUS_COMPACTION_SCHEDULE = {
  name: 'check_statuses_compaction',
  schedule: '@every 10m',
} as const;

/** A run that started just before the hour and finished after it still lands before compaction. */
export const DEFAULT_COMPACTION_GRACE_MS = 5 * 60_000;

/** Serialises compactions across processes and connections (pg_advisory_xact_lock key). */
const COMPACTION_LOCK_KEY = 6_0070_0001;

const DAY_OF = (column: string) => `date_trunc('day', ${column} AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;
/** A rollup row differs from the one an upsert proposes (EXCLUDED). */
export const ROLLUP_CHANGED = (alias: string) =>
  `(${alias}.total, ${alias}.passed, ${alias}.failed, ${alias}.duration, ${alias}.duration_sum, ${alias}.duration_min,
    ${alias}.duration_max, ${alias}.duration_p95, ${alias}.duration_p97, ${alias}.duration_p99, ${alias}.timed)
   IS DISTINCT FROM
   (EXCLUDED.total, EXCLUDED.passed, EXCLUDED.failed, EXCLUDED.duration, EXCLUDED.duration_sum,
    EXCLUDED.duration_min, EXCLUDED.duration_max, EXCLUDED.duration_p95, EXCLUDED.duration_p97,
    EXCLUDED.duration_p99, EXCLUDED.timed)`;
const HOUR_OF = (column: string) => `date_trunc('hour', ${column} AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;

/**
 * How far compaction has packed (check_status_compaction.packed_before, migration 0071): every
 * status before it is in a block, or still in the recent tier when it was recorded late. Hourly
 * rollups of hours starting before it and daily rollups of days ending by it are written by
 * compaction only and count packed statuses only; the rollup job writes later buckets.
 */
export const PACKED_BEFORE_SQL = '(SELECT packed_before FROM check_status_compaction)';

/**
 * Moves the recent statuses of one UTC day [dayStart, before) into its blocks, in one statement:
 * the recent rows are deleted, the day's existing blocks of the touched checks unnested, both
 * merged (a recent row replaces a packed one with the same check and time, as the recorder's
 * upsert would have) and the blocks rewritten. Returns the number of statuses moved.
 */
export const COMPACT_DAY_SQL = `
WITH moved AS (
  DELETE FROM check_statuses_recent
  WHERE time >= $1::timestamptz AND time < $2::timestamptz
  RETURNING check_id, time, duration, status, message, error, details
),
touched AS (
  SELECT DISTINCT check_id FROM moved
),
previous AS (
  SELECT b.check_id, u.time, u.duration, u.status, u.message, u.error, u.details
  FROM check_status_blocks b
  JOIN touched t ON t.check_id = b.check_id
  CROSS JOIN LATERAL unnest(b.times, b.durations, b.statuses, b.messages, b.errors, b.details)
    AS u(time, duration, status, message, error, details)
  WHERE b.day = $1::timestamptz
),
merged AS (
  SELECT DISTINCT ON (check_id, time) check_id, time, duration, status, message, error, details
  FROM (SELECT moved.*, 0 AS source FROM moved
        UNION ALL
        SELECT previous.*, 1 AS source FROM previous) AS candidates
  ORDER BY check_id, time, source
),
running AS (
  SELECT merged.*,
         sum(status::integer) OVER w AS passed_sum,
         coalesce(sum(duration) OVER w, 0) AS duration_sum
  FROM merged
  WINDOW w AS (PARTITION BY check_id ORDER BY time ROWS UNBOUNDED PRECEDING)
),
written AS (
  INSERT INTO check_status_blocks AS b (
    check_id, day, first_time, last_time, duration_sum, total, passed, timed, duration_min, duration_max,
    duration_p95, duration_p97, duration_p99, times, durations, statuses, messages, errors, details,
    passed_sums, duration_sums)
  SELECT check_id, $1::timestamptz, min(time), max(time), sum(duration), count(*),
         count(*) FILTER (WHERE status), count(duration), min(duration), max(duration),
         percentile_cont(0.95) WITHIN GROUP (ORDER BY duration),
         percentile_cont(0.97) WITHIN GROUP (ORDER BY duration),
         percentile_cont(0.99) WITHIN GROUP (ORDER BY duration),
         array_agg(time ORDER BY time), array_agg(duration ORDER BY time), array_agg(status ORDER BY time),
         CASE WHEN count(message) > 0 THEN array_agg(message ORDER BY time) END,
         CASE WHEN count(error) > 0 THEN array_agg(error ORDER BY time) END,
         CASE WHEN count(details) > 0 THEN array_agg(details ORDER BY time) END,
         array_agg(passed_sum::integer ORDER BY time), array_agg(duration_sum::bigint ORDER BY time)
  FROM running
  GROUP BY check_id
  ON CONFLICT (check_id, day) DO UPDATE
  SET first_time = EXCLUDED.first_time, last_time = EXCLUDED.last_time,
      duration_sum = EXCLUDED.duration_sum, total = EXCLUDED.total, passed = EXCLUDED.passed,
      timed = EXCLUDED.timed,
      duration_min = EXCLUDED.duration_min, duration_max = EXCLUDED.duration_max,
      duration_p95 = EXCLUDED.duration_p95, duration_p97 = EXCLUDED.duration_p97,
      duration_p99 = EXCLUDED.duration_p99, times = EXCLUDED.times, durations = EXCLUDED.durations,
      statuses = EXCLUDED.statuses, messages = EXCLUDED.messages, errors = EXCLUDED.errors,
      details = EXCLUDED.details, passed_sums = EXCLUDED.passed_sums,
      duration_sums = EXCLUDED.duration_sums
  RETURNING 1
),
-- The rollups of what is now packed, for the touched checks: every status of those checks' hours
-- and day that is packed is in merged, so the buckets count exactly the packed statuses (the
-- summary reads packed hours from these, never from the arrays).
hourly AS (
  INSERT INTO check_statuses_1h AS h (
    check_id, created_at, total, passed, failed, duration, duration_sum, duration_min, duration_max,
    duration_p95, duration_p97, duration_p99, timed)
  SELECT check_id, ${HOUR_OF('time')}, count(*), count(*) FILTER (WHERE status),
         count(*) FILTER (WHERE NOT status), round(avg(duration))::integer, sum(duration),
         min(duration), max(duration),
         round(percentile_cont(0.95) WITHIN GROUP (ORDER BY duration))::integer,
         round(percentile_cont(0.97) WITHIN GROUP (ORDER BY duration))::integer,
         round(percentile_cont(0.99) WITHIN GROUP (ORDER BY duration))::integer,
         count(duration)
  FROM merged
  GROUP BY 1, 2
  ON CONFLICT (check_id, created_at) DO UPDATE
  SET total = EXCLUDED.total, passed = EXCLUDED.passed, failed = EXCLUDED.failed,
      duration = EXCLUDED.duration, duration_sum = EXCLUDED.duration_sum,
      duration_min = EXCLUDED.duration_min, duration_max = EXCLUDED.duration_max,
      duration_p95 = EXCLUDED.duration_p95, duration_p97 = EXCLUDED.duration_p97,
      duration_p99 = EXCLUDED.duration_p99, timed = EXCLUDED.timed
  -- unchanged buckets are left alone (no dead row, no new version for the summary's cache: 0074)
  WHERE ${ROLLUP_CHANGED('h')}
  RETURNING 1
),
daily AS (
  INSERT INTO check_statuses_1d AS d (
    check_id, created_at, total, passed, failed, duration, duration_sum, duration_min, duration_max,
    duration_p95, duration_p97, duration_p99, timed)
  SELECT check_id, $1::timestamptz, count(*), count(*) FILTER (WHERE status),
         count(*) FILTER (WHERE NOT status), round(avg(duration))::integer, sum(duration),
         min(duration), max(duration),
         round(percentile_cont(0.95) WITHIN GROUP (ORDER BY duration))::integer,
         round(percentile_cont(0.97) WITHIN GROUP (ORDER BY duration))::integer,
         round(percentile_cont(0.99) WITHIN GROUP (ORDER BY duration))::integer,
         count(duration)
  FROM merged
  GROUP BY check_id
  ON CONFLICT (check_id, created_at) DO UPDATE
  SET total = EXCLUDED.total, passed = EXCLUDED.passed, failed = EXCLUDED.failed,
      duration = EXCLUDED.duration, duration_sum = EXCLUDED.duration_sum,
      duration_min = EXCLUDED.duration_min, duration_max = EXCLUDED.duration_max,
      duration_p95 = EXCLUDED.duration_p95, duration_p97 = EXCLUDED.duration_p97,
      duration_p99 = EXCLUDED.duration_p99, timed = EXCLUDED.timed
  -- unchanged buckets are left alone (no dead row, no new version for the summary's cache: 0074)
  WHERE ${ROLLUP_CHANGED('d')}
  RETURNING 1
)
SELECT (SELECT count(*) FROM moved)::integer AS moved, (SELECT count(*) FROM written)::integer AS blocks,
       (SELECT count(*) FROM hourly)::integer AS hours, (SELECT count(*) FROM daily)::integer AS days`;

const ADVANCE_MARK_SQL = `UPDATE check_status_compaction SET packed_before = greatest(packed_before, $1::timestamptz)`;

/** Takes the lock compaction runs under (the rollup job takes it too, to read the mark stably). */
export const COMPACTION_LOCK_SQL = `SELECT pg_advisory_xact_lock(${COMPACTION_LOCK_KEY})`;

export interface CompactionResult {
  /** Statuses moved from the recent tier into blocks. */
  statuses: number;
  /** Blocks written (new or merged). */
  blocks: number;
  /** UTC days processed. */
  days: number;
}

export interface CompactionOptions {
  /** Default now. */
  now?: Date;
  /** Statuses from before the UTC hour that began this long before now are compacted. Default 5 minutes. */
  graceMs?: number;
  /** Compact everything before this instead of the closed-hour cutoff (bench, tests). */
  before?: Date;
}

/** The start of the UTC hour `graceMs` before `now`: everything earlier is in closed hours. */
export function compactionCutoff(now: Date, graceMs = DEFAULT_COMPACTION_GRACE_MS): Date {
  const shifted = now.getTime() - graceMs;
  return new Date(shifted - (((shifted % 3_600_000) + 3_600_000) % 3_600_000));
}

/**
 * Compacts every recent status before the cutoff, one UTC day per transaction (oldest first),
 * so a backlog (the first run after the upgrade, an outage) never becomes one huge statement.
 * Concurrent runs queue on an advisory lock; a run that waited finds the work done. Running it
 * again without new statuses changes nothing.
 */
export async function compactCheckStatuses(
  pool: Pool,
  options: CompactionOptions = {},
): Promise<CompactionResult> {
  const cutoff = options.before ?? compactionCutoff(options.now ?? new Date(), options.graceMs);
  const result: CompactionResult = { statuses: 0, blocks: 0, days: 0 };
  for (;;) {
    const done = await withTransaction(pool, async (client) => {
      await client.query(COMPACTION_LOCK_SQL);
      const { rows } = await client.query<{ day: Date | null }>(
        `SELECT ${DAY_OF('min(time)')} AS day FROM check_statuses_recent WHERE time < $1`,
        [cutoff],
      );
      const day = rows[0]?.day;
      if (!day) {
        // Nothing left before the cutoff: the hours up to it are packed (a result recorded for
        // them from now on waits in the recent tier, where the summary counts it raw).
        await client.query(ADVANCE_MARK_SQL, [cutoff]);
        return true;
      }
      const nextDay = new Date(day.getTime() + 86_400_000);
      const before = nextDay < cutoff ? nextDay : cutoff;
      // Everything before `before` is packed once this commits (earlier days were done by earlier
      // transactions). The mark moves first: the recent tier's delete trigger (migration 0076)
      // then sees every row it deletes before the mark, and tells readers to reread only those.
      await client.query(ADVANCE_MARK_SQL, [before]);
      const moved = await client.query<{ moved: number; blocks: number }>(COMPACT_DAY_SQL, [day, before]);
      result.statuses += moved.rows[0].moved;
      result.blocks += moved.rows[0].blocks;
      result.days += 1;
      return false;
    });
    if (done) return result;
  }
}

/** Registers the compaction schedule (one execution per tick across processes). */
export async function registerCompactionSchedule(
  pool: Pool,
  jobs: Pick<JobsService, 'schedules'>,
): Promise<void> {
  await jobs.schedules.register({
    ...CHECK_STATUS_COMPACTION_SCHEDULE,
    handler: async ({ job }) => {
      const compacted = await compactCheckStatuses(pool);
      job.incrementSuccess(compacted.statuses);
    },
  });
}
