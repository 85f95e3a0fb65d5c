-- The ecosystem's clients send incident and hypothesis enums in their own case (severity
-- 'Medium', status 'Open', type 'TechnicalDebt'; issue 21). One canonical form is stored: the
-- CHECK constraints' spelling (0007), matched without regard to case. A value that matches
-- nothing is left as sent, so the CHECK constraint still refuses it with its 23514.
CREATE FUNCTION canonical_enum(value text, allowed text[]) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$
    SELECT coalesce((SELECT a FROM unnest(allowed) a WHERE lower(a) = lower(value) LIMIT 1), value)
  $$;

CREATE FUNCTION incidents_canonical_enums() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.severity := canonical_enum(NEW.severity,
    ARRAY['info', 'warning', 'low', 'medium', 'high', 'critical', 'blocker']);
  NEW.status := canonical_enum(NEW.status,
    ARRAY['new', 'open', 'investigating', 'mitigated', 'resolved', 'closed']);
  NEW.type := canonical_enum(NEW.type, ARRAY['cost', 'availability', 'performance', 'security',
    'integration', 'compliance', 'technicalDebt', 'reliability']);
  RETURN NEW;
END $$;

-- BEFORE triggers fire in name order: this name sorts before incidents_apply_defaults (0031),
-- which reads NEW.status, so it sees the canonical value.
CREATE TRIGGER incidents_a_canonical_enums BEFORE INSERT OR UPDATE OF severity, status, type ON incidents
  FOR EACH ROW EXECUTE FUNCTION incidents_canonical_enums();

CREATE FUNCTION hypotheses_canonical_enums() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.type := canonical_enum(NEW.type, ARRAY['root', 'factor', 'solution']);
  NEW.status := canonical_enum(NEW.status,
    ARRAY['proven', 'likely', 'possible', 'unlikely', 'improbable', 'disproven']);
  RETURN NEW;
END $$;

CREATE TRIGGER hypotheses_a_canonical_enums BEFORE INSERT OR UPDATE OF type, status ON hypotheses
  FOR EACH ROW EXECUTE FUNCTION hypotheses_canonical_enums();
