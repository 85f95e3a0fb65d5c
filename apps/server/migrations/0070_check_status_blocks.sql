-- Check statuses in two tiers (docs/adr/0006-check-status-blocks.md): recent results one row
-- each in check_statuses_recent (the write path: one INSERT per result), and closed hours packed by
-- the compaction job (src/modules/health/compaction.ts) into check_status_blocks, one row per
-- check per UTC day with the day's results as parallel arrays sorted by time. A row per status
-- costs ~100 bytes with its primary key; packed, a status costs ~35.
--
-- check_statuses stays the name everything reads: a view over both tiers (data API, fixtures,
-- views), with an INSTEAD OF INSERT trigger that writes to the recent tier.

ALTER TABLE check_statuses RENAME TO check_statuses_recent;
ALTER TABLE check_statuses_recent RENAME CONSTRAINT check_statuses_pkey TO check_statuses_recent_pkey;
ALTER TABLE check_statuses_recent RENAME CONSTRAINT check_statuses_check_id_fkey TO check_statuses_recent_check_id_fkey;
-- The recent tier is small and churns (rows leave every hour), which BRIN summarises badly; a
-- btree on time serves the summary's range scan, compaction and retention.
DROP INDEX check_statuses_time_brin_idx;
CREATE INDEX check_statuses_recent_time_idx ON check_statuses_recent (time);

CREATE TABLE check_status_blocks (
  check_id      uuid NOT NULL REFERENCES checks (id) ON DELETE CASCADE,
  -- Start of the UTC day the block covers.
  day           timestamptz NOT NULL,
  first_time    timestamptz NOT NULL,
  last_time     timestamptz NOT NULL,
  duration_sum  bigint,
  total         integer NOT NULL,
  passed        integer NOT NULL,
  -- Statuses with a duration.
  timed         integer NOT NULL,
  duration_min  integer,
  duration_max  integer,
  -- percentile_cont over the block's durations (NULL when none has one).
  duration_p95  real,
  duration_p97  real,
  duration_p99  real,
  -- Parallel arrays, element i is the block's i-th status by time (1-based).
  times         timestamptz[] NOT NULL,
  durations     integer[] NOT NULL,
  statuses      boolean[] NOT NULL,
  -- NULL when no status of the block has one.
  messages      text[],
  errors        text[],
  details       jsonb[],
  -- Running totals up to and including element i (a NULL duration adds 0): a range edge inside
  -- the block is answered by width_bucket(edge, times) and two subscripts, without unnesting.
  passed_sums   integer[] NOT NULL,
  duration_sums bigint[] NOT NULL,
  PRIMARY KEY (check_id, day),
  CONSTRAINT check_status_blocks_counts_check
    CHECK (total > 0 AND passed >= 0 AND passed <= total AND timed >= 0 AND timed <= total
           AND cardinality(times) = total)
)
-- A day's block of a check running every 20 minutes is ~2.3 kB. Past the default 2 kB target
-- PostgreSQL compresses it, and every array subscript of the summary would decompress it again;
-- rows up to a page stay inline and uncompressed (bigger ones are still compressed).
WITH (toast_tuple_target = 8160);
CREATE INDEX check_status_blocks_day_idx ON check_status_blocks (day);

-- percentile_cont(fraction) of an ascending array without NULLs, in the same arithmetic as
-- percentile_cont (NULL for an empty array). Inlined: one sort per query instead of one per group.
CREATE FUNCTION percentile_of_sorted(sorted integer[], fraction double precision)
RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT sorted[floor(fraction * (cardinality(sorted) - 1))::integer + 1]
         + (fraction * (cardinality(sorted) - 1) - floor(fraction * (cardinality(sorted) - 1)))
           * (sorted[ceil(fraction * (cardinality(sorted) - 1))::integer + 1]
              - sorted[floor(fraction * (cardinality(sorted) - 1))::integer + 1])
$$;

-- Every status with from_time <= time <= to_time, from both tiers. Inlined by the planner, so
-- a check_id filter reaches both primary keys and the bounds prune blocks by day.
CREATE FUNCTION check_statuses_between(from_time timestamptz, to_time timestamptz)
RETURNS TABLE (check_id uuid, "time" timestamptz, duration integer, status boolean, message text,
               error text, details jsonb)
LANGUAGE sql STABLE AS $$
  SELECT r.check_id, r.time, r.duration, r.status, r.message, r.error, r.details
  FROM check_statuses_recent r
  WHERE r.time >= from_time AND r.time <= to_time
  UNION ALL
  SELECT b.check_id, u.time, u.duration, u.status, u.message, u.error, u.details
  FROM check_status_blocks b
  CROSS JOIN LATERAL unnest(b.times, b.durations, b.statuses, b.messages, b.errors, b.details)
    AS u(time, duration, status, message, error, details)
  WHERE b.day >= date_trunc('day', from_time AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
    AND b.day <= to_time AND b.last_time >= from_time AND b.first_time <= to_time
    AND u.time >= from_time AND u.time <= to_time
$$;

-- One row per status, as before the split. Filters on check_id use both primary keys.
CREATE VIEW check_statuses WITH (security_invoker = true) AS
SELECT r.check_id, r.time, r.duration, r.status, r.message, r.error, r.details
FROM check_statuses_recent r
UNION ALL
SELECT b.check_id, u.time, u.duration, u.status, u.message, u.error, u.details
FROM check_status_blocks b
CROSS JOIN LATERAL unnest(b.times, b.durations, b.statuses, b.messages, b.errors, b.details)
  AS u(time, duration, status, message, error, details);

-- Inserts through the view land in the recent tier (compaction packs them later, merging into a
-- block already written for their day).
CREATE FUNCTION check_statuses_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO check_statuses_recent (check_id, time, duration, status, message, error, details)
  VALUES (NEW.check_id, NEW.time, NEW.duration, NEW.status, NEW.message, NEW.error, NEW.details);
  RETURN NEW;
END
$$;
CREATE TRIGGER check_statuses_insert INSTEAD OF INSERT ON check_statuses
  FOR EACH ROW EXECUTE FUNCTION check_statuses_insert();

-- The last 24 hours of both tiers (the view followed the renamed table otherwise).
CREATE OR REPLACE VIEW check_summary_for_config WITH (security_invoker = true) AS
SELECT r.config_id, c.id, c.canary_id, c.type, c.name, c.description, c.icon, c.namespace,
       c.endpoint, c.severity, c.labels, c.status, c.last_runtime, c.last_transition_time,
       jsonb_build_object('passed', coalesce(s.passed, 0), 'failed', coalesce(s.failed, 0)) AS uptime,
       jsonb_build_object('p95', s.p95, 'p99', s.p99) AS latency
FROM check_config_relationships r
JOIN checks c ON c.id = r.check_id
LEFT JOIN LATERAL (
  SELECT count(*) FILTER (WHERE st.status)::int AS passed,
         count(*) FILTER (WHERE NOT st.status)::int AS failed,
         percentile_cont(0.95) WITHIN GROUP (ORDER BY st.duration) AS p95,
         percentile_cont(0.99) WITHIN GROUP (ORDER BY st.duration) AS p99
  FROM check_statuses_between(now() - interval '24 hours', 'infinity') st
  WHERE st.check_id = c.id AND st.time > now() - interval '24 hours'
) s ON true
WHERE r.deleted_at IS NULL AND c.deleted_at IS NULL;
