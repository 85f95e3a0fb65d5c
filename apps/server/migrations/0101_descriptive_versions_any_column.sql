-- The check summary (modules/health/summary-reader.ts) serves a check's descriptive columns from
-- a cache per process while checks.descriptive_version and canaries.descriptive_version stay the
-- same (migration 0072). 0072's triggers moved them only when one of a fixed list of columns
-- changed, so a column added to the summary without re-creating them was served stale forever.
-- From here on the versions move on a change of ANY column except those below, which change on
-- every run, silence or delete and which the summary's descriptive part never reads (its run
-- times and deleted_at are read at every call). A column added to checks or canaries is thus
-- covered without a migration; one that changes often and is not descriptive belongs in these
-- lists (summary-reader.int.test.ts checks that a recorded result leaves the versions alone).
-- descriptive_version itself is not excluded: a write can't choose its own version.

DROP TRIGGER checks_descriptive_version ON checks;
CREATE TRIGGER checks_descriptive_version BEFORE UPDATE ON checks
  FOR EACH ROW
  WHEN ((to_jsonb(OLD) - '{status,last_runtime,last_transition_time,next_runtime,silenced_at,updated_at,deleted_at}'::text[])
        IS DISTINCT FROM
        (to_jsonb(NEW) - '{status,last_runtime,last_transition_time,next_runtime,silenced_at,updated_at,deleted_at}'::text[]))
  EXECUTE FUNCTION next_descriptive_version();

DROP TRIGGER canaries_descriptive_version ON canaries;
CREATE TRIGGER canaries_descriptive_version BEFORE UPDATE ON canaries
  FOR EACH ROW
  WHEN ((to_jsonb(OLD) - '{updated_at,deleted_at}'::text[])
        IS DISTINCT FROM (to_jsonb(NEW) - '{updated_at,deleted_at}'::text[]))
  EXECUTE FUNCTION next_descriptive_version();
