-- The check summary (modules/health/recent-cache.ts) keeps the recent tier of check statuses per
-- process and reads, at each call, only what changed since the snapshot it last read:
--
-- - every row carries the transaction that wrote it last (xid: set on insert by the default and on
--   update by a trigger), so the rows a snapshot sees and an earlier one did not are
--   `xid >= <earlier xmin> AND NOT pg_visible_in_snapshot(xid, <earlier snapshot>)`, one range of
--   the xid index;
-- - rows leaving the tier are counted in check_statuses_recent_epochs, in the deleting
--   transaction: 'packed' when every deleted row lies before compaction's mark as the deleting
--   transaction sees it (compaction advances the mark before it deletes, and retention deletes
--   older rows still), which a reader follows by reading again the few rows before the mark;
--   'rewritten' for anything else (a deleted check's rows, a hand-made delete, an update that
--   moves a row to another check or time, TRUNCATE), which a reader follows by reading the whole
--   tier again.
--
-- Hidden from the data API (check_statuses, the view it reads, does not name xid).

-- Adding the column writes the (small) recent tier once, every row with this transaction's id.
ALTER TABLE check_statuses_recent ADD COLUMN xid xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX check_statuses_recent_xid_idx ON check_statuses_recent (xid);

CREATE SEQUENCE check_statuses_recent_epoch_seq;

CREATE TABLE check_statuses_recent_epochs (
  kind    text PRIMARY KEY CHECK (kind IN ('packed', 'rewritten')),
  version bigint NOT NULL
);
INSERT INTO check_statuses_recent_epochs (kind, version) VALUES ('packed', 0), ('rewritten', 0);

CREATE FUNCTION bump_check_statuses_recent_epoch(which text) RETURNS void
LANGUAGE sql AS $$
  UPDATE check_statuses_recent_epochs SET version = nextval('check_statuses_recent_epoch_seq')
  WHERE kind = which
$$;

-- An update is seen by readers as a new row (its xid moves); one that moves a row to another key
-- leaves the old key behind, which only a whole read forgets.
CREATE FUNCTION check_statuses_recent_updated() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.xid := pg_current_xact_id();
  IF NEW.check_id IS DISTINCT FROM OLD.check_id OR NEW.time IS DISTINCT FROM OLD.time THEN
    PERFORM bump_check_statuses_recent_epoch('rewritten');
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER check_statuses_recent_updated BEFORE UPDATE ON check_statuses_recent
  FOR EACH ROW EXECUTE FUNCTION check_statuses_recent_updated();

CREATE FUNCTION check_statuses_recent_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  mark timestamptz := (SELECT packed_before FROM check_status_compaction LIMIT 1);
BEGIN
  IF EXISTS (SELECT 1 FROM gone WHERE mark IS NULL OR gone.time >= mark) THEN
    PERFORM bump_check_statuses_recent_epoch('rewritten');
  ELSIF EXISTS (SELECT 1 FROM gone) THEN
    PERFORM bump_check_statuses_recent_epoch('packed');
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER check_statuses_recent_deleted AFTER DELETE ON check_statuses_recent
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION check_statuses_recent_deleted();

CREATE FUNCTION check_statuses_recent_truncated() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bump_check_statuses_recent_epoch('rewritten');
  RETURN NULL;
END;
$$;
CREATE TRIGGER check_statuses_recent_truncated AFTER TRUNCATE ON check_statuses_recent
  FOR EACH STATEMENT EXECUTE FUNCTION check_statuses_recent_truncated();
