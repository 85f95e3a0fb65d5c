-- Incidents, continued (owned by apps/server/src/modules/incidents/):
--   * evidence must name the resource its kind is about (the link dialog's server-side rule);
--   * status updates: a comment that carries a new incident status (a short public update);
--   * @mentions in comments: `@[Name](person id)` markup, kept as comments.mentions and passed
--     on the responder.commented event so notifications can reach the people mentioned;
--   * incident_summary gains the checks, components and catalog items its evidence is about
--     (list filters by component) and the responders' person ids.

-- Evidence references ------------------------------------------------------------------------

-- A check, config, config_change, config_analysis or topology evidence names its resource.
-- Checked on insert and when the type changes, not when a referenced row is deleted later
-- (the foreign keys then set the reference to NULL and the evidence keeps its description).
CREATE FUNCTION evidences_check_reference() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  field text := CASE NEW.type
    WHEN 'check' THEN 'check_id'
    WHEN 'config' THEN 'config_id'
    WHEN 'config_change' THEN 'config_change_id'
    WHEN 'config_analysis' THEN 'config_analysis_id'
    WHEN 'topology' THEN 'component_id'
  END;
BEGIN
  IF field IS NOT NULL AND to_jsonb(NEW) ->> field IS NULL THEN
    RAISE EXCEPTION 'A % evidence needs %', NEW.type, field
      USING ERRCODE = 'P0001',
            DETAIL = format('field: %s', field),
            HINT = 'Link the evidence to the resource it is about';
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER evidences_check_reference BEFORE INSERT OR UPDATE OF type ON evidences
  FOR EACH ROW EXECUTE FUNCTION evidences_check_reference();

-- Comments: status updates and mentions --------------------------------------------------------

ALTER TABLE comments
  ADD COLUMN status text CHECK (status IN (
    'new', 'open', 'investigating', 'mitigated', 'resolved', 'closed')),
  ADD COLUMN mentions uuid[] NOT NULL DEFAULT '{}';

COMMENT ON COLUMN comments.status IS
  'Set on a status update: the incident status this public update moves the incident to';
COMMENT ON COLUMN comments.mentions IS
  'People mentioned with @[Name](person id) in the comment (existing people only)';

CREATE INDEX comments_mentions_idx ON comments USING gin (mentions);

-- The person ids of `@[Name](uuid)` mentions in a text that name existing people, in order of
-- first appearance, without repeats.
CREATE FUNCTION comment_mentions(p_comment text) RETURNS uuid[]
LANGUAGE sql STABLE AS $$
  SELECT coalesce(array_agg(m.id ORDER BY m.first_at), '{}')
  FROM (
    SELECT lower(match[1])::uuid AS id, min(ordinality) AS first_at
    FROM regexp_matches(coalesce(p_comment, ''),
           '@\[[^\]\n]{1,200}\]\(([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\)',
           'g') WITH ORDINALITY AS t(match, ordinality)
    GROUP BY 1
  ) m
  WHERE EXISTS (SELECT 1 FROM people p WHERE p.id = m.id);
$$;

CREATE FUNCTION comments_prepare() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IS NOT NULL AND NEW.hypothesis_id IS NOT NULL THEN
    RAISE EXCEPTION 'A status update belongs to the incident, not to a hypothesis'
      USING ERRCODE = 'P0001', DETAIL = 'field: hypothesis_id';
  END IF;
  IF NEW.status IS NOT NULL AND length(btrim(NEW.comment)) = 0 THEN
    RAISE EXCEPTION 'A status update needs a message'
      USING ERRCODE = 'P0001', DETAIL = 'field: comment';
  END IF;
  NEW.mentions := comment_mentions(NEW.comment);
  RETURN NEW;
END;
$$;

CREATE TRIGGER comments_prepare BEFORE INSERT OR UPDATE OF comment, status, hypothesis_id ON comments
  FOR EACH ROW EXECUTE FUNCTION comments_prepare();

-- The timeline entry of a comment (replaces 0031's): the event also carries the mentions and,
-- for a status update, the status. A status update then moves the incident to its status as the
-- same person, which writes the usual incident.status_updated entry.
CREATE OR REPLACE FUNCTION comments_record_history() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  actor uuid := coalesce(incident_acting_person(), NEW.created_by);
  previous_setting text;
  previous_status text;
BEGIN
  IF NEW.status IS NOT NULL THEN
    SELECT status INTO previous_status FROM incidents WHERE id = NEW.incident_id;
  END IF;
  PERFORM record_incident_event('responder.commented', NEW.incident_id, actor,
    left(NEW.comment, 1000),
    p_hypothesis_id => NEW.hypothesis_id, p_comment_id => NEW.id,
    p_responder_id => NEW.responder_id,
    p_extra => jsonb_strip_nulls(jsonb_build_object(
      'external_created_by', NEW.external_created_by,
      'mentions', CASE WHEN cardinality(NEW.mentions) > 0 THEN to_jsonb(NEW.mentions) END,
      'status_update', CASE WHEN NEW.status IS NOT NULL THEN true END,
      'status', NEW.status,
      'previous_status', previous_status)));
  IF NEW.status IS NOT NULL AND previous_status IS DISTINCT FROM NEW.status THEN
    previous_setting := current_setting('opsdeck.person_id', true);
    PERFORM set_config('opsdeck.person_id', coalesce(actor::text, ''), true);
    UPDATE incidents SET status = NEW.status WHERE id = NEW.incident_id;
    PERFORM set_config('opsdeck.person_id', coalesce(previous_setting, ''), true);
  END IF;
  RETURN NULL;
END;
$$;

-- Summary: what the evidence is about, and who responds ------------------------------------------

-- Same columns as 0031's view, then the new ones (CREATE OR REPLACE may only append).
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
           '{}') AS responder_person_ids
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
