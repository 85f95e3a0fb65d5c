/**
 * The check summary's statements (summary-reader.ts): SUMMARY_SQL (the reference: the measured
 * parts in SQL, for summaries of given checks and long ranges), and, for the health page's path,
 * the checks' text, the recent tier's text (when it is too large to keep) and the rollup
 * buckets' versions and rows (rollup-cache.ts).
 */
import { FINGERPRINT } from './summary-columns.js';
import { PACKED_PERCENTILE, PACKED_SUMS } from './rollup-cache.js';

const PERCENTILES = ['p95', 'p97', 'p99'] as const;

/** The packed CTE's columns of one percentile (suffix) and their place in PACKED_PERCENTILE. */
const PACKED_PERCENTILE_COLUMNS = [
  ['w', 'weighted'],
  ['t', 'timed'],
  ['rw', 'rolledWeighted'],
  ['rt', 'rolledTimed'],
] as const;

const DAY_OF = (expression: string) =>
  `(date_trunc('day', (${expression}) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;

/** A rollup row's statuses with a duration (rows from before 0071 have none recorded: total). */
const TIMED = (alias: string) =>
  `coalesce(${alias}.timed, CASE WHEN ${alias}.duration_sum IS NULL THEN 0 ELSE ${alias}.total END)`;

/** A rollup's percentiles times its timed statuses, and those timed statuses (0 without a percentile). */
const DAY_WEIGHTS = (alias: string) =>
  ['p95', 'p97', 'p99']
    .map(
      (p) => `${alias}.duration_${p}::float8 * ${TIMED(alias)} AS ${p}_w,
         CASE WHEN ${alias}.duration_${p} IS NULL THEN 0 ELSE ${TIMED(alias)} END AS ${p}_t`,
    )
    .join(', ');

/**
 * Sums of a packed percentile weighted by its timed statuses, and of those timed statuses (over
 * parts whose raw statuses are kept, and over days rolled up before the raw retention).
 */
const PACKED_WEIGHTS = (p: string) =>
  `sum(${p}_w) FILTER (WHERE NOT rolled) AS ${p}_w,
   sum(${p}_t) FILTER (WHERE NOT rolled)::float8 AS ${p}_t,
   sum(${p}_w) FILTER (WHERE rolled) AS ${p}_rw,
   sum(${p}_t) FILTER (WHERE rolled)::float8 AS ${p}_rt`;

/**
 * The summary's measured parts per check, as the CTEs `raw` (the recent tier) and `packed` (the
 * rollups of packed statuses; before the raw retention, `rolled`). Parameters: $1 start, $2 end,
 * $3 the first UTC day whose raw statuses are kept, $6 check ids or null. Rules: see
 * HealthService.summary.
 */
const SUMMARY_MEASURED_SQL = `WITH bounds AS MATERIALIZED (
         -- lo..hi: hour starts whose midpoint is in the range (and raw statuses are kept);
         -- [d0, d1): UTC days whose 24 hours all count (none in the last hour's window) and
         -- which are wholly packed.
         SELECT lo, hi, mark, d0, greatest(d0, d1) AS d1
         FROM (SELECT lo, hi, mark,
                      CASE WHEN lo = ${DAY_OF('lo')} THEN lo ELSE ${DAY_OF('lo')} + interval '1 day' END AS d0,
                      -- a day's last hour must end before hi, so that rolling1h sees it as an hour
                      least(${DAY_OF("hi - interval '1 microsecond'")}, ${DAY_OF('mark')}) AS d1
               FROM (SELECT greatest($1::timestamptz - interval '30 minutes', $3::timestamptz) AS lo,
                            $2::timestamptz - interval '30 minutes' AS hi,
                            packed_before AS mark
                     -- one row (LIMIT: the planner's estimate, else it may take 2,200 and JIT-compile)
                     FROM check_status_compaction LIMIT 1) AS edges) AS days
       ),
       raw AS (
         -- The recent tier, exact: one row per check with statuses in the range. Durations are
         -- sent unsorted (a hash aggregate): their percentiles are taken in Node, cheaper than
         -- one sort per check here.
         SELECT check_id,
                count(*) FILTER (WHERE status) AS passed,
                count(*) FILTER (WHERE NOT status) AS failed,
                array_agg(duration) FILTER (WHERE duration IS NOT NULL) AS durations,
                sum(duration) FILTER (WHERE time > $2::timestamptz - interval '1 hour') AS recent_sum,
                count(duration) FILTER (WHERE time > $2::timestamptz - interval '1 hour') AS recent_timed
         FROM check_statuses_recent
         WHERE time >= greatest($1::timestamptz, $3::timestamptz) AND time <= $2
           AND ($6::uuid[] IS NULL OR check_id = ANY($6))
         GROUP BY check_id
       ),
       packed_parts AS (
         -- Packed hours outside the whole days.
         SELECT h.check_id, h.passed, h.failed, ${DAY_WEIGHTS('h')},
                CASE WHEN h.created_at >= $2::timestamptz - interval '90 minutes' THEN h.duration_sum END AS recent_sum,
                CASE WHEN h.created_at >= $2::timestamptz - interval '90 minutes' THEN ${TIMED('h')} END AS recent_timed,
                false AS rolled
         FROM check_statuses_1h h
         WHERE h.created_at >= (SELECT lo FROM bounds) AND h.created_at <= (SELECT hi FROM bounds)
           AND h.created_at < (SELECT mark FROM bounds)
           AND (h.created_at < (SELECT d0 FROM bounds) OR h.created_at >= (SELECT d1 FROM bounds))
           AND ($6::uuid[] IS NULL OR h.check_id = ANY($6))
         UNION ALL
         -- Whole packed days (not scanned at all when there is none).
         SELECT d.check_id, d.passed, d.failed, ${DAY_WEIGHTS('d')}, NULL, NULL, false
         FROM check_statuses_1d d
         WHERE (SELECT d0 < d1 FROM bounds)
           AND d.created_at >= (SELECT d0 FROM bounds) AND d.created_at < (SELECT d1 FROM bounds)
           AND ($6::uuid[] IS NULL OR d.check_id = ANY($6))
         UNION ALL
         -- Whole days before the raw retention.
         SELECT d.check_id, d.passed, d.failed, ${DAY_WEIGHTS('d')}, NULL, NULL, true
         FROM check_statuses_1d d
         WHERE $1::timestamptz < $3::timestamptz
           AND d.created_at >= ${DAY_OF('$1::timestamptz')}
           AND d.created_at < least($3::timestamptz, $2::timestamptz)
           AND ($6::uuid[] IS NULL OR d.check_id = ANY($6))
       ),
       packed AS (
         SELECT check_id, sum(passed) AS passed, sum(failed) AS failed,
                ${PACKED_WEIGHTS('p95')}, ${PACKED_WEIGHTS('p97')}, ${PACKED_WEIGHTS('p99')},
                sum(recent_sum) AS recent_sum, sum(recent_timed) AS recent_timed
         FROM packed_parts
         GROUP BY check_id
       )`;

/** Epoch milliseconds (exact: truncated to the millisecond first), read faster than to_char(). */
const EPOCH_MS = (column: string) => `date_part('epoch', date_trunc('milliseconds', ${column})) * 1000`;

/** $4 checks deleted before this are left out; $5 labels (jsonb) or null; $6 check ids or null. */
const CHECK_FILTER = `(c.deleted_at IS NULL OR c.deleted_at >= $4)
         AND ($5::jsonb IS NULL OR c.labels @> $5::jsonb)
         AND ($6::uuid[] IS NULL OR c.id = ANY($6))`;

/**
 * SUMMARY_SQL's columns in array mode, in order: each one's name (its place in SUMMARY_ROW) and
 * its value. Counts and the last hour's sums include the packed parts; the packed percentile sums
 * follow rollup-cache.ts's PACKED_PERCENTILE order for p95, p97 and p99.
 */
const SUMMARY_SQL_COLUMNS = [
  ['id', 'c.id'],
  ['fingerprint', FINGERPRINT],
  ['status', 'c.status'],
  ['passed', '(coalesce(r.passed, 0) + coalesce(k.passed, 0))::integer'],
  ['failed', '(coalesce(r.failed, 0) + coalesce(k.failed, 0))::integer'],
  // The recent tier's durations in the range, unsorted, space-separated ('12 7 30').
  ['durations', "array_to_string(r.durations, ' ')"],
  ['recentSum', '(coalesce(r.recent_sum, 0) + coalesce(k.recent_sum, 0))::float8'],
  ['recentTimed', '(coalesce(r.recent_timed, 0) + coalesce(k.recent_timed, 0))::float8'],
  ...PERCENTILES.flatMap((p) =>
    PACKED_PERCENTILE_COLUMNS.map(([suffix]) => [`${p}_${suffix}`, `k.${p}_${suffix}`] as const),
  ),
  ['lastRuntime', EPOCH_MS('c.last_runtime')],
  ['lastTransitionTime', EPOCH_MS('c.last_transition_time')],
  ['deletedAt', EPOCH_MS('c.deleted_at')],
  ['updatedAt', EPOCH_MS('c.updated_at')],
] as const;

/** Where each of SUMMARY_SQL's columns is in a row in array mode. */
export const SUMMARY_ROW = Object.fromEntries(SUMMARY_SQL_COLUMNS.map(([name], index) => [name, index])) as {
  readonly [C in (typeof SUMMARY_SQL_COLUMNS)[number] as C[0]]: number;
};

/** One row of SUMMARY_SQL in array mode (see SUMMARY_ROW). */
export type SummarySqlRow = unknown[];

/**
 * For each packed percentile sum: its place in SUMMARY_SQL's row and in a check's slot of the
 * packed sums (rollup-cache.ts's layout).
 */
export const SUMMARY_ROW_PACKED: ReadonlyArray<{ column: number; sum: number }> = PERCENTILES.flatMap(
  (p, index) =>
    PACKED_PERCENTILE_COLUMNS.map(([suffix, at]) => ({
      column: SUMMARY_ROW[`${p}_${suffix}`],
      sum: PACKED_SUMS.percentiles + index * PACKED_PERCENTILE.width + PACKED_PERCENTILE[at],
    })),
);

/** The summary of the checks $6 (or of every check) over a range, one row per check. */
export const SUMMARY_SQL = `${SUMMARY_MEASURED_SQL}
       SELECT ${SUMMARY_SQL_COLUMNS.map(([, value]) => value).join(',\n              ')}
       FROM checks c
       JOIN canaries ca ON ca.id = c.canary_id
       LEFT JOIN raw r ON r.check_id = c.id
       LEFT JOIN packed k ON k.check_id = c.id
       WHERE ${CHECK_FILTER}`;

/** Epoch milliseconds as an integer (exact: the double is within a rounding error of it). */
const EPOCH_MS_TEXT = (column: string) =>
  `coalesce((date_part('epoch', date_trunc('milliseconds', ${column})) * 1000)::bigint::text, '')`;

/**
 * The recent tier's part per check with statuses in the range ($1 start, $2 end, $3 the first day
 * whose raw statuses are kept), as one text, in check id order: a line per check of its id,
 * passed, failed, the last hour's duration sum and timed statuses, and its durations (unsorted,
 * space-separated), separated by commas. One text value instead of 10,000 rows: parsing the
 * rows' fields into strings, and collecting them, cost more in Node than the statement itself.
 */
export const SUMMARY_RAW_SQL = `SELECT string_agg(check_id::text || ',' || passed || ',' || failed || ',' || recent_sum || ','
                         || recent_timed || ',' || coalesce(array_to_string(durations, ' '), ''), E'\\n' ORDER BY check_id)
       FROM (SELECT check_id,
                    count(*) FILTER (WHERE status) AS passed,
                    count(*) FILTER (WHERE NOT status) AS failed,
                    coalesce(sum(duration) FILTER (WHERE time > $2::timestamptz - interval '1 hour'), 0) AS recent_sum,
                    count(duration) FILTER (WHERE time > $2::timestamptz - interval '1 hour') AS recent_timed,
                    array_agg(duration) FILTER (WHERE duration IS NOT NULL) AS durations
             FROM check_statuses_recent
             WHERE time >= greatest($1::timestamptz, $3::timestamptz) AND time <= $2
             GROUP BY check_id) AS raw`;

/**
 * The summary's checks with their status and run times ($1 checks deleted before this are left
 * out; $2 labels (jsonb) or null), as one text: a line per check of its id, its fingerprint, h, u
 * or nothing for its status, and its run times in epoch milliseconds. Not ordered (sorting 10,000
 * ids in SQL was a quarter of the statement): the recent tier's parts are looked up by id, and
 * only its SQL fallback (addRecent) sorts them.
 */
export const SUMMARY_CHECKS_SQL = `SELECT string_agg(c.id::text || ',' || ${FINGERPRINT} || ','
                         || CASE c.status WHEN 'healthy' THEN 'h' WHEN 'unhealthy' THEN 'u' ELSE '' END || ','
                         || ${EPOCH_MS_TEXT('c.last_runtime')} || ',' || ${EPOCH_MS_TEXT('c.last_transition_time')} || ','
                         || ${EPOCH_MS_TEXT('c.deleted_at')} || ',' || ${EPOCH_MS_TEXT('c.updated_at')}, E'\\n')
       FROM checks c
       JOIN canaries ca ON ca.id = c.canary_id
       WHERE (c.deleted_at IS NULL OR c.deleted_at >= $1) AND ($2::jsonb IS NULL OR c.labels @> $2::jsonb)`;

/**
 * Compaction's mark in epoch microseconds (-Infinity before anything was packed), then the
 * versions of the rollup buckets between $1 and $2 (migration 0074), bucket starts in epoch ms,
 * and each granularity's version at -Infinity (moved by a TRUNCATE).
 */
export const ROLLUP_VERSIONS_SQL = `SELECT 'mark' AS granularity,
              CASE WHEN isfinite(packed_before) THEN (extract(epoch FROM packed_before) * 1000000)::float8
                   ELSE '-Infinity'::float8 END AS at,
              NULL::text AS version
       FROM check_status_compaction
       UNION ALL
       SELECT granularity, (extract(epoch FROM bucket) * 1000)::float8, version::text
       FROM check_rollup_versions
       WHERE (bucket >= $1 AND bucket <= $2) OR bucket = '-infinity'`;

/**
 * The rows of rollup buckets: $1 hour starts (check_statuses_1h), $2 day starts
 * (check_statuses_1d). Columns: see RollupRow.
 */
const ROLLUP_ROWS_SQL = (granularity: string, table: string, parameter: string) =>
  `SELECT '${granularity}', (extract(epoch FROM created_at) * 1000)::float8, check_id, passed, failed,
          ${TIMED('b')}, duration_p95, duration_p97, duration_p99, duration_sum::float8
   FROM ${table} b WHERE created_at = ANY(${parameter}::timestamptz[])`;
export const ROLLUP_BUCKETS_SQL = `${ROLLUP_ROWS_SQL('1h', 'check_statuses_1h', '$1')}
       UNION ALL
       ${ROLLUP_ROWS_SQL('1d', 'check_statuses_1d', '$2')}`;
