-- Extensions and helper functions every later migration relies on.

-- Trigram operator classes back the ilike searches that lists run on names and titles.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Keeps updated_at meaningful without every writer remembering it: on INSERT a missing value
-- becomes now(); on UPDATE the column moves to now() unless the statement set it explicitly
-- (scrapers copy the source system's own update time).
CREATE FUNCTION set_updated_at() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.updated_at := COALESCE(NEW.updated_at, now());
  ELSIF NEW.updated_at IS NOT DISTINCT FROM OLD.updated_at THEN
    NEW.updated_at := now();
  END IF;
  RETURN NEW;
END;
$$;

COMMENT ON FUNCTION set_updated_at() IS
  'BEFORE INSERT OR UPDATE trigger: fills updated_at, bumps it on update unless set explicitly';
