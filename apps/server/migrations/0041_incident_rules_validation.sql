-- Incident rules written through the data API (the /settings/incident_rules editor) get the same
-- checks as an IncidentRule applied from YAML (modules/resources/kinds/incident-rule.ts): the
-- spec is an object; priority a non-negative integer; breakOnMatch a boolean; filter, template,
-- autoResolve and autoClose objects; checks and components lists. Unknown fields stay allowed.
-- Owned by apps/server/src/modules/incidents/.

CREATE FUNCTION incident_rules_check_spec() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  spec jsonb := NEW.spec;
  field text;
BEGIN
  IF btrim(coalesce(NEW.name, '')) = '' THEN
    RAISE EXCEPTION 'Name is required' USING ERRCODE = 'P0001', DETAIL = 'field: name';
  END IF;
  IF NEW.labels IS NOT NULL AND jsonb_typeof(NEW.labels) <> 'object' THEN
    RAISE EXCEPTION 'labels must be an object' USING ERRCODE = 'P0001', DETAIL = 'field: labels';
  END IF;
  IF jsonb_typeof(spec) IS DISTINCT FROM 'object' THEN
    RAISE EXCEPTION 'spec must be an object' USING ERRCODE = 'P0001', DETAIL = 'field: spec';
  END IF;
  IF spec ? 'priority' AND (jsonb_typeof(spec -> 'priority') <> 'number'
      OR (spec ->> 'priority')::numeric < 0
      OR (spec ->> 'priority')::numeric <> trunc((spec ->> 'priority')::numeric)) THEN
    RAISE EXCEPTION 'spec.priority must be a non-negative integer'
      USING ERRCODE = 'P0001', DETAIL = 'field: spec.priority';
  END IF;
  IF spec ? 'breakOnMatch' AND jsonb_typeof(spec -> 'breakOnMatch') <> 'boolean' THEN
    RAISE EXCEPTION 'spec.breakOnMatch must be true or false'
      USING ERRCODE = 'P0001', DETAIL = 'field: spec.breakOnMatch';
  END IF;
  FOREACH field IN ARRAY ARRAY['filter', 'template', 'autoResolve', 'autoClose'] LOOP
    IF spec ? field AND jsonb_typeof(spec -> field) <> 'object' THEN
      RAISE EXCEPTION 'spec.% must be an object', field
        USING ERRCODE = 'P0001', DETAIL = format('field: spec.%s', field);
    END IF;
  END LOOP;
  IF spec ? 'components' AND jsonb_typeof(spec -> 'components') <> 'array' THEN
    RAISE EXCEPTION 'spec.components must be a list'
      USING ERRCODE = 'P0001', DETAIL = 'field: spec.components';
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER incident_rules_check_spec BEFORE INSERT OR UPDATE OF name, labels, spec ON incident_rules
  FOR EACH ROW EXECUTE FUNCTION incident_rules_check_spec();
