-- A scraper's schedule column is its spec's `schedule`, however the row is written: apply,
-- RESOURCES_DIR, the scraper editor, data-API POST/PUT/PATCH of `spec`, or plain SQL. The scraper
-- scheduler (src/modules/catalog/scraper-scheduler.ts) reads the column and re-registers a
-- scraper whose updated_at moved, so its next run follows the spec. The rule is the ScrapeConfig
-- kind's `columns()` (src/modules/resources/kinds/scrape-config.ts: `spec.schedule ?? null`);
-- schedule-sync.int.test.ts checks that both agree. A data-API write that sets `schedule` on
-- its own is refused before it reaches here (modules/resources/validation.ts, resourceRowIssues).
-- Owned by apps/server/src/modules/catalog/.

CREATE FUNCTION config_scrapers_schedule_from_spec() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.schedule := CASE WHEN jsonb_typeof(NEW.spec -> 'schedule') = 'string' THEN NEW.spec ->> 'schedule' END;
  RETURN NEW;
END;
$$;

CREATE TRIGGER config_scrapers_schedule_from_spec BEFORE INSERT OR UPDATE ON config_scrapers
  FOR EACH ROW EXECUTE FUNCTION config_scrapers_schedule_from_spec();

-- Rows written before this migration (through the data API) may carry a stale schedule.
UPDATE config_scrapers
   SET schedule = CASE WHEN jsonb_typeof(spec -> 'schedule') = 'string' THEN spec ->> 'schedule' END
 WHERE schedule IS DISTINCT FROM
       CASE WHEN jsonb_typeof(spec -> 'schedule') = 'string' THEN spec ->> 'schedule' END;
