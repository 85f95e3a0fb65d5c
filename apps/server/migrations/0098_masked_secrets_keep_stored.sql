-- Reads mask sealed secrets ('********', platform/secret-fields.ts). A client that edits a
-- resource it read sends the mask back where it did not change the secret: an update then keeps
-- the stored (sealed) value at that place, whatever path wrote it.
CREATE FUNCTION keep_masked_secrets(incoming jsonb, stored jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN incoming IS NULL THEN NULL
    WHEN incoming = '"********"'::jsonb THEN coalesce(stored, incoming)
    WHEN jsonb_typeof(incoming) = 'object' THEN (
      SELECT coalesce(jsonb_object_agg(e.key, keep_masked_secrets(
               e.value, CASE WHEN jsonb_typeof(stored) = 'object' THEN stored -> e.key END)), '{}'::jsonb)
        FROM jsonb_each(incoming) AS e)
    WHEN jsonb_typeof(incoming) = 'array' THEN (
      SELECT coalesce(jsonb_agg(keep_masked_secrets(
               a.value, CASE WHEN jsonb_typeof(stored) = 'array' THEN stored -> (a.ordinality::int - 1) END)
               ORDER BY a.ordinality), '[]'::jsonb)
        FROM jsonb_array_elements(incoming) WITH ORDINALITY AS a)
    ELSE incoming
  END
$$;

CREATE FUNCTION spec_keep_masked_secrets() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.spec IS NOT NULL AND strpos(NEW.spec::text, '"********"') > 0 THEN
    NEW.spec := keep_masked_secrets(NEW.spec, OLD.spec);
  END IF;
  IF TG_TABLE_NAME = 'connections' THEN
    IF NEW.url = '********' THEN NEW.url := OLD.url; END IF;
    IF NEW.username = '********' THEN NEW.username := OLD.username; END IF;
    IF NEW.password = '********' THEN NEW.password := OLD.password; END IF;
    IF NEW.certificate = '********' THEN NEW.certificate := OLD.certificate; END IF;
    IF NEW.properties IS NOT NULL AND strpos(NEW.properties::text, '"********"') > 0 THEN
      NEW.properties := keep_masked_secrets(NEW.properties, OLD.properties);
    END IF;
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER connections_keep_masked_secrets BEFORE UPDATE ON connections
  FOR EACH ROW EXECUTE FUNCTION spec_keep_masked_secrets();
CREATE TRIGGER canaries_keep_masked_secrets BEFORE UPDATE ON canaries
  FOR EACH ROW EXECUTE FUNCTION spec_keep_masked_secrets();
CREATE TRIGGER config_scrapers_keep_masked_secrets BEFORE UPDATE ON config_scrapers
  FOR EACH ROW EXECUTE FUNCTION spec_keep_masked_secrets();
CREATE TRIGGER checks_keep_masked_secrets BEFORE UPDATE ON checks
  FOR EACH ROW EXECUTE FUNCTION spec_keep_masked_secrets();
