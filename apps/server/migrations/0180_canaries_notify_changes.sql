-- Every change to canaries, whichever way it came in (API, editor, YAML apply, files, SQL), wakes
-- the canary schedulers of every process at commit (issue 22): a new or edited canary runs within
-- a second instead of at the next poll. One notification per statement (and NOTIFY folds equal
-- ones per transaction); the schedulers read what changed themselves. Polling stays the guarantee.
CREATE FUNCTION notify_canaries_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('opsdeck_canaries', '');
  RETURN NULL;
END;
$$;

CREATE TRIGGER canaries_notify_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON canaries
  FOR EACH STATEMENT EXECUTE FUNCTION notify_canaries_changed();
