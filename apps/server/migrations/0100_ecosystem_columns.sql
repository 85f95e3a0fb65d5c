-- Columns the ecosystem's clients read and write through the data API (issue 19 §5), with the
-- ecosystem's names and nullability.

-- incidents.incident_id --------------------------------------------------------------------------

-- A short human-readable id (INC0000042), given by the database on insert. Seven digits as the
-- ecosystem writes them; past 9,999,999 the number grows instead of being cut (lpad would cut it
-- and collide), so the column is text rather than the ecosystem's varchar(10).
CREATE SEQUENCE incident_id_sequence AS bigint;

CREATE FUNCTION format_incident_id(seq_value bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT 'INC' || lpad(seq_value::text, greatest(7, length(seq_value::text)), '0')
$$;

ALTER TABLE incidents ADD COLUMN incident_id text;
ALTER SEQUENCE incident_id_sequence OWNED BY incidents.incident_id;

-- Existing incidents are numbered in the order they were opened. Filling the column is not an
-- edit of the incident: updated_at stays (the other triggers fire only on status).
ALTER TABLE incidents DISABLE TRIGGER incidents_set_updated_at;
UPDATE incidents i SET incident_id = format_incident_id(n.position)
FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS position FROM incidents) n
WHERE n.id = i.id;
ALTER TABLE incidents ENABLE TRIGGER incidents_set_updated_at;
SELECT setval('incident_id_sequence', greatest((SELECT count(*) FROM incidents), 1),
              (SELECT count(*) FROM incidents) > 0);

ALTER TABLE incidents
  ALTER COLUMN incident_id SET DEFAULT format_incident_id(nextval('incident_id_sequence')),
  ALTER COLUMN incident_id SET NOT NULL,
  ADD CONSTRAINT incidents_incident_id_key UNIQUE (incident_id);

COMMENT ON COLUMN incidents.incident_id IS
  'Short human-readable id (INC0000042), from incident_id_sequence on insert; unique';

-- The list and the detail page read incident_summary: it shows the id too (appended: CREATE OR
-- REPLACE may only add columns at the end). Otherwise the same as 0040's view.
CREATE OR REPLACE VIEW incident_summary WITH (security_invoker = true) AS
SELECT
  i.id,
  i.title,
  i.description,
  i.severity,
  i.type,
  i.status,
  i.created_by,
  i.commander_id,
  i.communicator_id,
  i.incident_rule_id,
  i.acknowledged,
  i.resolved,
  i.closed,
  i.created_at,
  i.updated_at,
  CASE WHEN commander.id IS NOT NULL THEN
    jsonb_build_object('id', commander.id, 'name', commander.name, 'avatar', commander.avatar)
  END AS commander,
  CASE WHEN communicator.id IS NOT NULL THEN
    jsonb_build_object('id', communicator.id, 'name', communicator.name, 'avatar', communicator.avatar)
  END AS communicator,
  CASE WHEN creator.id IS NOT NULL THEN
    jsonb_build_object('id', creator.id, 'name', creator.name, 'avatar', creator.avatar)
  END AS creator,
  (SELECT jsonb_agg(DISTINCT jsonb_build_object('id', coalesce(p.id, t.id),
                                                'name', coalesce(p.name, t.name),
                                                'avatar', coalesce(p.avatar, t.icon)))
   FROM responders r
   LEFT JOIN people p ON p.id = r.person_id
   LEFT JOIN teams t ON t.id = r.team_id
   WHERE r.incident_id = i.id AND r.deleted_at IS NULL) AS responders,
  (SELECT jsonb_agg(DISTINCT jsonb_build_object('id', p.id, 'name', p.name, 'avatar', p.avatar))
   FROM comments c JOIN people p ON p.id = c.created_by
   WHERE c.incident_id = i.id) AS commenters,
  (SELECT count(*) FROM responders r WHERE r.incident_id = i.id AND r.deleted_at IS NULL)::integer
    AS responders_count,
  (SELECT count(*) FROM hypotheses h WHERE h.incident_id = i.id)::integer AS hypotheses_count,
  (SELECT count(*) FROM evidences e JOIN hypotheses h ON h.id = e.hypothesis_id
   WHERE h.incident_id = i.id)::integer AS evidences_count,
  (SELECT count(*) FROM comments c WHERE c.incident_id = i.id)::integer AS comments_count,
  d.acknowledged_at,
  d.mitigated_at,
  d.resolved_at,
  d.closed_at,
  d.time_to_acknowledge,
  d.time_to_mitigate,
  d.time_to_resolve,
  d.time_to_close,
  coalesce(refs.check_ids, '{}') AS check_ids,
  coalesce(refs.component_ids, '{}') AS component_ids,
  coalesce(refs.config_ids, '{}') AS config_ids,
  coalesce((SELECT array_agg(DISTINCT r.person_id) FROM responders r
            WHERE r.incident_id = i.id AND r.deleted_at IS NULL AND r.person_id IS NOT NULL),
           '{}') AS responder_person_ids,
  i.incident_id
FROM incidents i
LEFT JOIN people commander ON commander.id = i.commander_id
LEFT JOIN people communicator ON communicator.id = i.communicator_id
LEFT JOIN people creator ON creator.id = i.created_by
LEFT JOIN incident_durations d ON d.id = i.id
LEFT JOIN LATERAL (
  SELECT
    array_agg(DISTINCT e.check_id) FILTER (WHERE e.check_id IS NOT NULL) AS check_ids,
    array_agg(DISTINCT e.component_id) FILTER (WHERE e.component_id IS NOT NULL) AS component_ids,
    array_agg(DISTINCT e.config_id) FILTER (WHERE e.config_id IS NOT NULL) AS config_ids
  FROM evidences e JOIN hypotheses h ON h.id = e.hypothesis_id
  WHERE h.incident_id = i.id
) refs ON true;

-- people.team_id ---------------------------------------------------------------------------------

-- A person's own team, as the ecosystem's people rows carry it (memberships stay in
-- team_members). Deleting the team clears it rather than refusing the delete.
ALTER TABLE people ADD COLUMN team_id uuid REFERENCES teams (id) ON DELETE SET NULL;
CREATE INDEX people_team_id_idx ON people (team_id);

-- team_members.source ----------------------------------------------------------------------------

-- Where the membership came from, 'UI' unless the writer says otherwise.
ALTER TABLE team_members ADD COLUMN source text NOT NULL DEFAULT 'UI';

-- evidences.definition_of_done, evidences.done -------------------------------------------------

-- Nullable with their defaults, as the ecosystem has them. A bulk insert through the data API
-- sends NULL for a key that some of its objects leave out (PostgREST semantics), so a NOT NULL
-- column refused it; a NULL now means "not set", stored as the default so that readers keep
-- seeing booleans.
ALTER TABLE evidences
  ALTER COLUMN definition_of_done DROP NOT NULL,
  ALTER COLUMN done DROP NOT NULL;

CREATE FUNCTION evidences_fill_defaults() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.definition_of_done := coalesce(NEW.definition_of_done, false);
  NEW.done := coalesce(NEW.done, false);
  RETURN NEW;
END;
$$;

CREATE TRIGGER evidences_fill_defaults BEFORE INSERT OR UPDATE OF definition_of_done, done ON evidences
  FOR EACH ROW EXECUTE FUNCTION evidences_fill_defaults();
