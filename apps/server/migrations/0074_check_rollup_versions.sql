-- The check summary (modules/health/summary-reader.ts) keeps the packed hours' and days' rollups
-- per process and reads a bucket again only when its version changed: every statement that
-- inserts, updates or deletes rows of check_statuses_1h or check_statuses_1d gives each bucket it
-- touched a new version, in the same transaction, so a reader sees a bucket's rows and its
-- version from one snapshot. Versions come from one sequence, so they never repeat; a bucket
-- without a row here (written before this migration, or pruned) has version 0. Hidden from the
-- data API.

CREATE SEQUENCE check_rollup_version_seq;

CREATE TABLE check_rollup_versions (
  granularity text NOT NULL CHECK (granularity IN ('1h', '1d')),
  bucket      timestamptz NOT NULL,
  version     bigint NOT NULL,
  PRIMARY KEY (granularity, bucket)
);

-- Buckets are locked in time order, so two writers touching the same buckets never deadlock.
CREATE FUNCTION bump_check_rollup_versions() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO check_rollup_versions AS v (granularity, bucket, version)
  SELECT TG_ARGV[0], bucket, nextval('check_rollup_version_seq')
  FROM (SELECT DISTINCT created_at AS bucket FROM touched ORDER BY 1) AS buckets
  ON CONFLICT (granularity, bucket) DO UPDATE SET version = EXCLUDED.version;
  RETURN NULL;
END;
$$;

-- A trigger with transition tables handles one event, hence three per table.
CREATE TRIGGER check_statuses_1h_versions_insert AFTER INSERT ON check_statuses_1h
  REFERENCING NEW TABLE AS touched FOR EACH STATEMENT EXECUTE FUNCTION bump_check_rollup_versions('1h');
CREATE TRIGGER check_statuses_1h_versions_update AFTER UPDATE ON check_statuses_1h
  REFERENCING NEW TABLE AS touched FOR EACH STATEMENT EXECUTE FUNCTION bump_check_rollup_versions('1h');
CREATE TRIGGER check_statuses_1h_versions_delete AFTER DELETE ON check_statuses_1h
  REFERENCING OLD TABLE AS touched FOR EACH STATEMENT EXECUTE FUNCTION bump_check_rollup_versions('1h');
CREATE TRIGGER check_statuses_1d_versions_insert AFTER INSERT ON check_statuses_1d
  REFERENCING NEW TABLE AS touched FOR EACH STATEMENT EXECUTE FUNCTION bump_check_rollup_versions('1d');
CREATE TRIGGER check_statuses_1d_versions_update AFTER UPDATE ON check_statuses_1d
  REFERENCING NEW TABLE AS touched FOR EACH STATEMENT EXECUTE FUNCTION bump_check_rollup_versions('1d');
CREATE TRIGGER check_statuses_1d_versions_delete AFTER DELETE ON check_statuses_1d
  REFERENCING OLD TABLE AS touched FOR EACH STATEMENT EXECUTE FUNCTION bump_check_rollup_versions('1d');

CREATE FUNCTION bump_check_rollup_versions_on_truncate() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO check_rollup_versions AS v (granularity, bucket, version)
  VALUES (TG_ARGV[0], '-infinity', nextval('check_rollup_version_seq'))
  ON CONFLICT (granularity, bucket) DO UPDATE SET version = EXCLUDED.version;
  RETURN NULL;
END;
$$;

CREATE TRIGGER check_statuses_1h_versions_truncate AFTER TRUNCATE ON check_statuses_1h
  FOR EACH STATEMENT EXECUTE FUNCTION bump_check_rollup_versions_on_truncate('1h');
CREATE TRIGGER check_statuses_1d_versions_truncate AFTER TRUNCATE ON check_statuses_1d
  FOR EACH STATEMENT EXECUTE FUNCTION bump_check_rollup_versions_on_truncate('1d');
