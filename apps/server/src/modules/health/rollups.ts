import type { Pool, PoolClient } from '../../platform/db/pool.js';
import { withTransaction } from '../../platform/db/pool.js';
import type { JobsService } from '../../platform/jobs/index.js';
import { COMPACTION_LOCK_SQL, PACKED_BEFORE_SQL, ROLLUP_CHANGED } from './compaction.js';

/** Raw statuses (check_statuses, both tiers) are kept this many days unless CHECK_STATUS_RETENTION_DAYS says otherwise. */
export const DEFAULT_CHECK_STATUS_RETENTION_DAYS = 30;
/** Hourly rollups outlive raw statuses; daily rollups are kept. */
export const HOURLY_ROLLUP_RETENTION_DAYS = 180;

export const CHECK_STATUS_ROLLUP_SCHEDULE = { name: 'check_statuses_rollup', schedule: '@every 5m' } as const;
export const CHECK_STATUS_RETENTION_SCHEDULE = {
  name: 'check_statuses_retention',
  schedule: '@every 1h',
} as const;

/**
 * The oldest status kept, or a lower bound of it: the recent tier's oldest row, or the start of
 * the oldest block's day (both read from an index).
 */
const OLDEST_STATUS_SQL = `least((SELECT min(time) FROM check_statuses_recent),
                                 (SELECT min(day) FROM check_status_blocks))`;

export type RollupGranularity = '1h' | '1d';

const BUCKETS: Record<RollupGranularity, { table: string; unit: string; step: string; unpacked: string }> = {
  // The first bucket compaction does not own (migration 0071): the hour after the mark's hour
  // unless the mark is an hour boundary; the day the mark falls in.
  '1h': {
    table: 'check_statuses_1h',
    unit: 'hour',
    step: '1 hour',
    unpacked: `(SELECT CASE WHEN m = date_trunc('hour', m AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' THEN m
                            ELSE (date_trunc('hour', m AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') + interval '1 hour' END
                FROM ${PACKED_BEFORE_SQL} AS mark(m))`,
  },
  '1d': {
    table: 'check_statuses_1d',
    unit: 'day',
    step: '1 day',
    unpacked: `(date_trunc('day', ${PACKED_BEFORE_SQL} AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`,
  },
};

/** Reads CHECK_STATUS_RETENTION_DAYS (a positive number of days). */
export function checkStatusRetentionDays(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.CHECK_STATUS_RETENTION_DAYS;
  if (raw === undefined || raw.trim() === '') return DEFAULT_CHECK_STATUS_RETENTION_DAYS;
  const days = Number(raw);
  if (!Number.isFinite(days) || days <= 0) {
    throw new RangeError(`CHECK_STATUS_RETENTION_DAYS must be a positive number of days, got "${raw}"`);
  }
  return days;
}

/**
 * Recomputes the buckets of [from, to) from raw statuses (both tiers) and upserts them: running
 * it twice gives the same rows. Buckets are UTC hours or days. Returns the number of buckets
 * written or changed (an unchanged bucket is left alone). Retention uses it for days it is about to delete; the rollup job writes only the
 * buckets compaction does not own (rollupCheckStatuses).
 */
export async function rollupRange(
  pool: Pool,
  granularity: RollupGranularity,
  from: Date,
  to: Date,
): Promise<number> {
  return rollupBuckets(pool, granularity, from, to, false);
}

async function rollupBuckets(
  db: Pick<PoolClient, 'query'>,
  granularity: RollupGranularity,
  from: Date,
  to: Date,
  unpackedOnly: boolean,
): Promise<number> {
  const { table, unit, unpacked } = BUCKETS[granularity];
  const result = await db.query(
    `INSERT INTO ${table} AS r (check_id, created_at, total, passed, failed, duration, duration_sum,
                          duration_min, duration_max, duration_p95, duration_p97, duration_p99, timed)
     SELECT check_id,
            date_trunc('${unit}', time AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS bucket,
            count(*),
            count(*) FILTER (WHERE status),
            count(*) FILTER (WHERE NOT status),
            round(avg(duration))::integer,
            sum(duration),
            min(duration),
            max(duration),
            round(percentile_cont(0.95) WITHIN GROUP (ORDER BY duration))::integer,
            round(percentile_cont(0.97) WITHIN GROUP (ORDER BY duration))::integer,
            round(percentile_cont(0.99) WITHIN GROUP (ORDER BY duration))::integer,
            count(duration)
     FROM check_statuses_between(
            ${unpackedOnly ? `greatest(${unpacked}, ` : ''}date_trunc('${unit}', $1::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'${unpackedOnly ? ')' : ''},
            $2::timestamptz)
     WHERE time < $2::timestamptz
     GROUP BY check_id, bucket
     ON CONFLICT (check_id, created_at) DO UPDATE
     SET total = EXCLUDED.total, passed = EXCLUDED.passed, failed = EXCLUDED.failed,
         duration = EXCLUDED.duration, duration_sum = EXCLUDED.duration_sum,
         duration_min = EXCLUDED.duration_min, duration_max = EXCLUDED.duration_max,
         duration_p95 = EXCLUDED.duration_p95, duration_p97 = EXCLUDED.duration_p97,
         duration_p99 = EXCLUDED.duration_p99, timed = EXCLUDED.timed
     WHERE ${ROLLUP_CHANGED('r')}`,
    [from, to],
  );
  return result.rowCount ?? 0;
}

/**
 * Incremental rollup: from the latest bucket already written (recomputed, since it may have been
 * partial, together with the one before it for statuses recorded late), or from the oldest raw
 * status on the first run, up to now; but never a bucket compaction owns (hours starting before
 * its mark, days ending by it: compaction rolls those up itself, from the blocks it writes).
 */
export async function rollupCheckStatuses(
  pool: Pool,
  granularity: RollupGranularity,
  now = new Date(),
): Promise<number> {
  const { table, step } = BUCKETS[granularity];
  const { rows } = await pool.query<{ from: Date | null }>(
    `SELECT coalesce((SELECT max(created_at) - interval '${step}' FROM ${table}), ${OLDEST_STATUS_SQL}) AS from`,
  );
  const from = rows[0]?.from;
  if (!from) return 0;
  // Under compaction's lock, so the mark cannot move between reading it and writing: buckets
  // compaction owns (packed statuses only) are never overwritten with counts of both tiers.
  return withTransaction(pool, async (client) => {
    await client.query(COMPACTION_LOCK_SQL);
    return rollupBuckets(client, granularity, from, new Date(now.getTime() + 1), true);
  });
}

export interface RetentionResult {
  statuses: number;
  hourly: number;
}

/**
 * Deletes raw statuses from before the UTC day that began retentionDays ago, and hourly rollups
 * past their longer life. Only whole days go, so every bucket before the cutoff still has all
 * its raw rows: those buckets are recomputed first, which also counts statuses that arrived
 * after the incremental rollup had passed their bucket.
 */
export async function applyCheckStatusRetention(pool: Pool, retentionDays: number): Promise<RetentionResult> {
  const { rows } = await pool.query<{ cutoff: Date; oldest: Date | null }>(
    `SELECT date_trunc('day', (now() - $1::double precision * interval '1 day') AT TIME ZONE 'UTC')
              AT TIME ZONE 'UTC' AS cutoff,
            ${OLDEST_STATUS_SQL} AS oldest`,
    [retentionDays],
  );
  const { cutoff, oldest } = rows[0];
  let statuses = 0;
  if (oldest && oldest < cutoff) {
    await rollupRange(pool, '1h', oldest, cutoff);
    await rollupRange(pool, '1d', oldest, cutoff);
    // Blocks cover whole UTC days and the cutoff is a day boundary: a block goes whole or stays.
    const deleted = await pool.query<{ statuses: number }>(
      `WITH recent AS (DELETE FROM check_statuses_recent WHERE time < $1 RETURNING 1),
            blocks AS (DELETE FROM check_status_blocks WHERE day < $1 RETURNING total)
       SELECT ((SELECT count(*) FROM recent) + coalesce((SELECT sum(total) FROM blocks), 0))::integer AS statuses`,
      [cutoff],
    );
    statuses = deleted.rows[0].statuses;
  }
  const hourly = await pool.query(
    `DELETE FROM check_statuses_1h WHERE created_at < now() - $1::double precision * interval '1 day'`,
    [Math.max(HOURLY_ROLLUP_RETENTION_DAYS, retentionDays)],
  );
  return { statuses, hourly: hourly.rowCount ?? 0 };
}

/** Registers the rollup and retention schedules. */
export async function registerRollupSchedules(
  pool: Pool,
  jobs: Pick<JobsService, 'schedules'>,
  retentionDays: number,
): Promise<void> {
  await jobs.schedules.register({
    ...CHECK_STATUS_ROLLUP_SCHEDULE,
    handler: async ({ job }) => {
      const hourly = await rollupCheckStatuses(pool, '1h');
      const daily = await rollupCheckStatuses(pool, '1d');
      job.incrementSuccess(hourly + daily);
    },
  });
  await jobs.schedules.register({
    ...CHECK_STATUS_RETENTION_SCHEDULE,
    handler: async ({ job }) => {
      const removed = await applyCheckStatusRetention(pool, retentionDays);
      job.incrementSuccess(removed.statuses + removed.hourly);
    },
  });
}
