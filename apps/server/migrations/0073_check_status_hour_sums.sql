-- Running totals of the packed hourly rollups per check through each hour of a UTC day, so that
-- the summary reads the packed hours of a partial day (the start and the end of a 24-hour range)
-- from two rows per check and day instead of up to 24 hourly rollups: the totals over hours a..b
-- are hour b's minus hour a-1's. A check with packed statuses on a day has a row for each of the
-- day's 24 hours. Written by compaction in the same transaction as the hourly rollups they are
-- summed from (hours before check_status_compaction.packed_before, which compaction owns), pruned
-- with the raw statuses by retention. No foreign key (a check's rows would be found by a scan):
-- rows of a deleted check are left to retention, and the summary joins live checks only.
-- Owned by src/modules/health/ (summary-reader.ts, compaction.ts).

CREATE TABLE check_status_hour_sums (
  -- An hour's start (UTC).
  hour         timestamptz NOT NULL,
  check_id     uuid NOT NULL,
  -- Totals over the day's hours up to and including this one: passed and failed statuses,
  -- statuses with a duration (timed), the same over hours with percentiles only (p_timed), each
  -- hour's percentile times its timed statuses (the summary's weights), and the duration sum.
  passed       integer NOT NULL,
  failed       integer NOT NULL,
  timed        integer NOT NULL,
  p_timed      integer NOT NULL,
  p95_w        bigint NOT NULL,
  p97_w        bigint NOT NULL,
  p99_w        bigint NOT NULL,
  duration_sum bigint NOT NULL,
  PRIMARY KEY (hour, check_id)
);

-- Rebuilds the running totals of the days in [from_day, to_day) from the packed hourly rollups,
-- for the given checks (NULL: every check). Returns the rows written.
CREATE FUNCTION rebuild_check_status_hour_sums(from_day timestamptz, to_day timestamptz, only_checks uuid[])
RETURNS integer LANGUAGE sql AS $fn$
  WITH hours AS (
    SELECT h.check_id,
           date_trunc('day', h.created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS day,
           h.created_at AS hour, h.passed, h.failed,
           coalesce(h.timed, CASE WHEN h.duration_sum IS NULL THEN 0 ELSE h.total END) AS timed,
           h.duration_p95, h.duration_p97, h.duration_p99, h.duration_sum
    FROM check_statuses_1h h
    WHERE h.created_at >= from_day AND h.created_at < to_day
      AND h.created_at < (SELECT packed_before FROM check_status_compaction)
      AND (only_checks IS NULL OR h.check_id = ANY (only_checks))
  ),
  written AS (
    INSERT INTO check_status_hour_sums AS s (hour, check_id, passed, failed, timed, p_timed, p95_w, p97_w, p99_w,
                                             duration_sum)
    SELECT g.hour, k.check_id,
           sum(coalesce(h.passed, 0)) OVER w,
           sum(coalesce(h.failed, 0)) OVER w,
           sum(coalesce(h.timed, 0)) OVER w,
           sum(CASE WHEN h.duration_p95 IS NULL THEN 0 ELSE h.timed END) OVER w,
           sum(coalesce(h.duration_p95::bigint * h.timed, 0)) OVER w,
           sum(coalesce(h.duration_p97::bigint * h.timed, 0)) OVER w,
           sum(coalesce(h.duration_p99::bigint * h.timed, 0)) OVER w,
           sum(coalesce(h.duration_sum, 0)) OVER w
    FROM (SELECT DISTINCT check_id, day FROM hours) k
    CROSS JOIN LATERAL generate_series(k.day, k.day + interval '23 hours', interval '1 hour') AS g(hour)
    LEFT JOIN hours h ON h.check_id = k.check_id AND h.hour = g.hour
    WINDOW w AS (PARTITION BY k.check_id, k.day ORDER BY g.hour)
    -- one hour's rows together, as the summary reads them
    ORDER BY g.hour, k.check_id
    ON CONFLICT (hour, check_id) DO UPDATE
    SET passed = EXCLUDED.passed, failed = EXCLUDED.failed, timed = EXCLUDED.timed,
        p_timed = EXCLUDED.p_timed, p95_w = EXCLUDED.p95_w, p97_w = EXCLUDED.p97_w,
        p99_w = EXCLUDED.p99_w, duration_sum = EXCLUDED.duration_sum
    RETURNING 1
  )
  SELECT count(*)::integer FROM written
$fn$;

-- The days whose raw statuses are kept (the summary reads hours of no other day): those with
-- blocks.
SELECT rebuild_check_status_hour_sums(coalesce((SELECT min(day) FROM check_status_blocks), 'infinity'), 'infinity', NULL);
