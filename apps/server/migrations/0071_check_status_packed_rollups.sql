-- The summary reads packed statuses from the hourly and daily rollups, never from block arrays
-- (docs/adr/0006-check-status-blocks.md, 'Summary semantics'). For that the rollups of packed
-- hours must count exactly the packed statuses: the compaction job writes them in the same
-- statement that packs the hours, and records how far it has packed here. Buckets before the
-- mark belong to compaction (packed statuses only); the rollup job writes only later buckets.

-- Statuses with a duration (the weight of the bucket's percentiles and the divisor of its mean).
-- NULL in rows written before 0071 beyond the raw retention: readers take total when the bucket
-- has a duration sum.
ALTER TABLE check_statuses_1h ADD COLUMN timed integer;
ALTER TABLE check_statuses_1d ADD COLUMN timed integer;

CREATE TABLE check_status_compaction (
  singleton     boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  -- Every status before this is packed, or still in the recent tier when recorded late; hourly
  -- rollups of hours starting before it and daily rollups of days ending by it count packed
  -- statuses only.
  packed_before timestamptz NOT NULL
);

-- Blocks written before this migration: the hour after the newest packed status (compaction's
-- cutoff is an hour boundary), and the rollups of what they hold rebuilt from the blocks alone.
INSERT INTO check_status_compaction (packed_before)
SELECT coalesce((date_trunc('hour', max(last_time) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') + interval '1 hour',
                '-infinity')
FROM check_status_blocks;

DELETE FROM check_statuses_1h
WHERE created_at >= (SELECT min(day) FROM check_status_blocks)
  AND created_at < (SELECT packed_before FROM check_status_compaction);
INSERT INTO check_statuses_1h (check_id, created_at, total, passed, failed, duration, duration_sum,
                               duration_min, duration_max, duration_p95, duration_p97, duration_p99, timed)
SELECT b.check_id, date_trunc('hour', u.time AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
       count(*), count(*) FILTER (WHERE u.status), count(*) FILTER (WHERE NOT u.status),
       round(avg(u.duration))::integer, sum(u.duration), min(u.duration), max(u.duration),
       round(percentile_cont(0.95) WITHIN GROUP (ORDER BY u.duration))::integer,
       round(percentile_cont(0.97) WITHIN GROUP (ORDER BY u.duration))::integer,
       round(percentile_cont(0.99) WITHIN GROUP (ORDER BY u.duration))::integer,
       count(u.duration)
FROM check_status_blocks b
CROSS JOIN LATERAL unnest(b.times, b.durations, b.statuses) AS u(time, duration, status)
GROUP BY 1, 2;

DELETE FROM check_statuses_1d
WHERE created_at >= (SELECT min(day) FROM check_status_blocks)
  AND created_at + interval '1 day' <= (SELECT packed_before FROM check_status_compaction);
INSERT INTO check_statuses_1d (check_id, created_at, total, passed, failed, duration, duration_sum,
                               duration_min, duration_max, duration_p95, duration_p97, duration_p99, timed)
SELECT b.check_id, b.day, b.total, b.passed, b.total - b.passed,
       round(b.duration_sum::numeric / nullif(b.timed, 0))::integer, b.duration_sum, b.duration_min,
       b.duration_max, round(b.duration_p95)::integer, round(b.duration_p97)::integer,
       round(b.duration_p99)::integer, b.timed
FROM check_status_blocks b
WHERE b.day + interval '1 day' <= (SELECT packed_before FROM check_status_compaction)
ON CONFLICT (check_id, created_at) DO UPDATE
SET total = EXCLUDED.total, passed = EXCLUDED.passed, failed = EXCLUDED.failed,
    duration = EXCLUDED.duration, duration_sum = EXCLUDED.duration_sum,
    duration_min = EXCLUDED.duration_min, duration_max = EXCLUDED.duration_max,
    duration_p95 = EXCLUDED.duration_p95, duration_p97 = EXCLUDED.duration_p97,
    duration_p99 = EXCLUDED.duration_p99, timed = EXCLUDED.timed;
