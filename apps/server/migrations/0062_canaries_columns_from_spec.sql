-- A canary's icon and schedule columns are its spec's, however the row is written: apply,
-- RESOURCES_DIR, the health-check editor, data-API POST/PUT/PATCH of `spec`, or plain SQL. The
-- rule is the Canary kind's `columns()` (src/modules/resources/kinds/canary.ts,
-- `canaryScheduleFromSpec`, which the canary runner also uses): icon is `spec.icon` (null when
-- empty); schedule is `spec.schedule` trimmed, else the deprecated `spec.interval` seconds as
-- `@every {n}s` (rounded, at least 1), else null. canary-columns.int.test.ts checks that both
-- agree. A data-API write that sets `icon` or `schedule` on its own is refused before it reaches
-- here (modules/resources/validation.ts, resourceRowIssues). Owned by src/modules/health/.

CREATE FUNCTION canary_schedule_from_spec(spec jsonb) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN jsonb_typeof(spec -> 'schedule') = 'string' AND btrim(spec ->> 'schedule', E' \t\n\r') <> ''
      THEN btrim(spec ->> 'schedule', E' \t\n\r')
    WHEN (jsonb_typeof(spec -> 'interval') = 'number'
          OR (jsonb_typeof(spec -> 'interval') = 'string'
              AND spec ->> 'interval' ~ '^\s*[0-9]+(\.[0-9]+)?\s*$'))
         AND btrim(spec ->> 'interval')::numeric > 0
      THEN '@every ' || greatest(1, round(btrim(spec ->> 'interval')::numeric))::text || 's'
  END
$$;

CREATE FUNCTION canary_icon_from_spec(spec jsonb) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_typeof(spec -> 'icon') = 'string' THEN nullif(spec ->> 'icon', '') END
$$;

CREATE FUNCTION canaries_columns_from_spec() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.icon := canary_icon_from_spec(NEW.spec);
  NEW.schedule := canary_schedule_from_spec(NEW.spec);
  RETURN NEW;
END;
$$;

CREATE TRIGGER canaries_columns_from_spec BEFORE INSERT OR UPDATE ON canaries
  FOR EACH ROW EXECUTE FUNCTION canaries_columns_from_spec();

-- Rows written before this migration (through the data API) may carry stale columns.
UPDATE canaries
   SET icon = canary_icon_from_spec(spec), schedule = canary_schedule_from_spec(spec)
 WHERE icon IS DISTINCT FROM canary_icon_from_spec(spec)
    OR schedule IS DISTINCT FROM canary_schedule_from_spec(spec);
