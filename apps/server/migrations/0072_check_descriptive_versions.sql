-- The check summary (/api/canary/api/summary, modules/health/summary-reader.ts) keeps each check's
-- descriptive columns per process and reads them again only when they changed: a check's
-- descriptive_version changes whenever its name, description, endpoint, type, icon, namespace,
-- labels, agent or canary does, and a canary's whenever its name or icon does. Values come from
-- one sequence, so a row deleted and inserted again with the same id never repeats an earlier
-- version. Status updates (every run) leave them alone. Hidden from the data API.

CREATE SEQUENCE check_descriptive_version_seq;

ALTER TABLE checks ADD COLUMN descriptive_version bigint NOT NULL DEFAULT nextval('check_descriptive_version_seq');
ALTER TABLE canaries ADD COLUMN descriptive_version bigint NOT NULL DEFAULT nextval('check_descriptive_version_seq');

CREATE FUNCTION next_descriptive_version() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.descriptive_version := nextval('check_descriptive_version_seq');
  RETURN NEW;
END;
$$;

-- Inserts take the column default; a write can't choose its own version.
CREATE TRIGGER checks_descriptive_version_on_insert BEFORE INSERT ON checks
  FOR EACH ROW EXECUTE FUNCTION next_descriptive_version();
CREATE TRIGGER checks_descriptive_version BEFORE UPDATE ON checks
  FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.description IS DISTINCT FROM NEW.description
        OR OLD.endpoint IS DISTINCT FROM NEW.endpoint OR OLD.type IS DISTINCT FROM NEW.type
        OR OLD.icon IS DISTINCT FROM NEW.icon OR OLD.namespace IS DISTINCT FROM NEW.namespace
        OR OLD.labels IS DISTINCT FROM NEW.labels OR OLD.agent_id IS DISTINCT FROM NEW.agent_id
        OR OLD.canary_id IS DISTINCT FROM NEW.canary_id
        OR OLD.descriptive_version IS DISTINCT FROM NEW.descriptive_version)
  EXECUTE FUNCTION next_descriptive_version();

CREATE TRIGGER canaries_descriptive_version_on_insert BEFORE INSERT ON canaries
  FOR EACH ROW EXECUTE FUNCTION next_descriptive_version();
CREATE TRIGGER canaries_descriptive_version BEFORE UPDATE ON canaries
  FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.icon IS DISTINCT FROM NEW.icon
        OR OLD.descriptive_version IS DISTINCT FROM NEW.descriptive_version)
  EXECUTE FUNCTION next_descriptive_version();
