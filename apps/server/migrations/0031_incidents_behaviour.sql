-- Incident behaviour that must hold however a row is written (the data API, incident rules,
-- imports): defaults, the timeline (incident_histories), an event per timeline entry, the
-- hypothesis hierarchy, and the read views. Owned by apps/server/src/modules/incidents/.
--
-- Who acted: a write transaction may say who is acting with
--   SELECT set_config('opsdeck.person_id', '<person uuid>', true)
-- (transaction-local; the data API should do this from the authenticated caller). Without it
-- the row's own created_by is the actor of an insert, and an update has no known actor (NULL).
-- A new row's created_by is filled from the setting when the client left it out.

-- The acting person of this transaction, if one was declared and is a uuid.
CREATE FUNCTION incident_acting_person() RETURNS uuid
LANGUAGE plpgsql STABLE AS $$
DECLARE
  value text := current_setting('opsdeck.person_id', true);
BEGIN
  IF value IS NULL OR value !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
    RETURN NULL;
  END IF;
  RETURN value::uuid;
END;
$$;

-- One timeline entry and the matching event_queue row, in the caller's transaction, so the
-- event exists if and only if the change does. The event's `id` is the row the entry is about.
CREATE FUNCTION record_incident_event(
  p_type text,
  p_incident_id uuid,
  p_created_by uuid,
  p_description text,
  p_hypothesis_id uuid DEFAULT NULL,
  p_evidence_id uuid DEFAULT NULL,
  p_comment_id uuid DEFAULT NULL,
  p_responder_id uuid DEFAULT NULL,
  p_extra jsonb DEFAULT '{}'::jsonb
) RETURNS uuid
LANGUAGE plpgsql AS $$
DECLARE
  history_id uuid;
  subject_id uuid;
BEGIN
  INSERT INTO incident_histories (incident_id, type, description, hypothesis_id, evidence_id,
                                  comment_id, responder_id, created_by)
  VALUES (p_incident_id, p_type, p_description, p_hypothesis_id, p_evidence_id, p_comment_id,
          p_responder_id, p_created_by)
  RETURNING id INTO history_id;

  subject_id := CASE
    WHEN p_type = 'responder.commented' THEN p_comment_id
    WHEN p_type LIKE 'evidence.%' THEN p_evidence_id
    WHEN p_type LIKE 'hypothesis.%' THEN p_hypothesis_id
    WHEN p_type IN ('responder.created', 'incident_status.updated') THEN p_responder_id
    ELSE p_incident_id
  END;

  INSERT INTO event_queue (name, properties)
  VALUES (p_type, jsonb_strip_nulls(jsonb_build_object(
    'id', subject_id,
    'incident_id', p_incident_id,
    'history_id', history_id,
    'hypothesis_id', p_hypothesis_id,
    'evidence_id', p_evidence_id,
    'comment_id', p_comment_id,
    'responder_id', p_responder_id,
    'created_by', p_created_by,
    'description', p_description
  ) || coalesce(p_extra, '{}'::jsonb)));
  RETURN history_id;
END;
$$;

-- Incidents -----------------------------------------------------------------------------------

-- Spec core §4 and §6: a new incident is open, and its creator is commander and communicator.
-- The acknowledged/resolved/closed stamps keep the first time the incident reached that stage.
CREATE FUNCTION incidents_apply_defaults() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.created_by := coalesce(NEW.created_by, incident_acting_person());
    NEW.commander_id := coalesce(NEW.commander_id, NEW.created_by);
    NEW.communicator_id := coalesce(NEW.communicator_id, NEW.created_by);
    NEW.status := coalesce(NEW.status, 'open');
  ELSIF NEW.status IS NOT DISTINCT FROM OLD.status THEN
    RETURN NEW;
  END IF;
  IF NEW.status IN ('investigating', 'mitigated', 'resolved', 'closed') THEN
    NEW.acknowledged := coalesce(NEW.acknowledged, now());
  END IF;
  IF NEW.status IN ('resolved', 'closed') THEN
    NEW.resolved := coalesce(NEW.resolved, now());
  END IF;
  IF NEW.status = 'closed' THEN
    NEW.closed := coalesce(NEW.closed, now());
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER incidents_apply_defaults BEFORE INSERT OR UPDATE OF status ON incidents
  FOR EACH ROW EXECUTE FUNCTION incidents_apply_defaults();

CREATE FUNCTION incidents_record_history() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM record_incident_event('incident.created', NEW.id,
      coalesce(incident_acting_person(), NEW.created_by), NEW.title,
      p_extra => jsonb_build_object('title', NEW.title, 'status', NEW.status,
                                    'severity', NEW.severity, 'type', NEW.type,
                                    'incident_rule_id', NEW.incident_rule_id));
  ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
    -- description holds the new status: incident_durations reads it.
    PERFORM record_incident_event('incident.status_updated', NEW.id, incident_acting_person(),
      NEW.status,
      p_extra => jsonb_build_object('status', NEW.status, 'previous_status', OLD.status));
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER incidents_record_history AFTER INSERT OR UPDATE OF status ON incidents
  FOR EACH ROW EXECUTE FUNCTION incidents_record_history();

-- created_by of the incident's children -------------------------------------------------------

CREATE FUNCTION incident_child_fill_created_by() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.created_by := coalesce(NEW.created_by, incident_acting_person());
  RETURN NEW;
END;
$$;

CREATE TRIGGER hypotheses_fill_created_by BEFORE INSERT ON hypotheses
  FOR EACH ROW EXECUTE FUNCTION incident_child_fill_created_by();
CREATE TRIGGER evidences_fill_created_by BEFORE INSERT ON evidences
  FOR EACH ROW EXECUTE FUNCTION incident_child_fill_created_by();
CREATE TRIGGER comments_fill_created_by BEFORE INSERT ON comments
  FOR EACH ROW EXECUTE FUNCTION incident_child_fill_created_by();
CREATE TRIGGER responders_fill_created_by BEFORE INSERT ON responders
  FOR EACH ROW EXECUTE FUNCTION incident_child_fill_created_by();

-- Hypotheses ----------------------------------------------------------------------------------

-- Spec core §4: root, then factor, then solution. A child sits in its parent's incident, one
-- level below it. P0001 is answered 400 by the data API.
CREATE FUNCTION hypotheses_check_hierarchy() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  parent record;
BEGIN
  IF NEW.parent_id IS NULL THEN
    RETURN NEW;
  END IF;
  SELECT incident_id, type INTO parent FROM hypotheses WHERE id = NEW.parent_id;
  IF NOT FOUND THEN
    RETURN NEW; -- the foreign key reports it
  END IF;
  IF parent.incident_id <> NEW.incident_id THEN
    RAISE EXCEPTION 'A hypothesis must belong to the incident of its parent'
      USING ERRCODE = 'P0001';
  END IF;
  IF NOT ((parent.type = 'root' AND NEW.type = 'factor')
          OR (parent.type = 'factor' AND NEW.type = 'solution')) THEN
    RAISE EXCEPTION 'A % hypothesis cannot be a child of a % hypothesis', NEW.type, parent.type
      USING ERRCODE = 'P0001',
            HINT = 'Hypotheses nest root, then factor, then solution';
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER hypotheses_check_hierarchy BEFORE INSERT OR UPDATE OF parent_id, type, incident_id
  ON hypotheses FOR EACH ROW EXECUTE FUNCTION hypotheses_check_hierarchy();

CREATE FUNCTION hypotheses_record_history() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM record_incident_event('hypothesis.created', NEW.incident_id,
      coalesce(incident_acting_person(), NEW.created_by), NEW.title, p_hypothesis_id => NEW.id,
      p_extra => jsonb_build_object('title', NEW.title, 'type', NEW.type, 'status', NEW.status));
  ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
    PERFORM record_incident_event('hypothesis.status_updated', NEW.incident_id,
      incident_acting_person(), NEW.status, p_hypothesis_id => NEW.id,
      p_extra => jsonb_build_object('status', NEW.status, 'previous_status', OLD.status));
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER hypotheses_record_history AFTER INSERT OR UPDATE OF status ON hypotheses
  FOR EACH ROW EXECUTE FUNCTION hypotheses_record_history();

-- Evidences -----------------------------------------------------------------------------------

CREATE FUNCTION evidences_record_history() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  incident uuid;
  actor uuid;
BEGIN
  SELECT incident_id INTO incident FROM hypotheses WHERE id = NEW.hypothesis_id;
  IF TG_OP = 'INSERT' THEN
    actor := coalesce(incident_acting_person(), NEW.created_by);
    PERFORM record_incident_event('evidence.created', incident, actor,
      coalesce(NEW.description, NEW.type), p_hypothesis_id => NEW.hypothesis_id,
      p_evidence_id => NEW.id, p_extra => jsonb_build_object('type', NEW.type));
  ELSE
    actor := incident_acting_person();
  END IF;
  IF NEW.definition_of_done AND (TG_OP = 'INSERT' OR NOT OLD.definition_of_done) THEN
    PERFORM record_incident_event('evidence.done_definition_added', incident, actor,
      coalesce(NEW.description, NEW.type), p_hypothesis_id => NEW.hypothesis_id,
      p_evidence_id => NEW.id, p_extra => jsonb_build_object('type', NEW.type));
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER evidences_record_history AFTER INSERT OR UPDATE OF definition_of_done ON evidences
  FOR EACH ROW EXECUTE FUNCTION evidences_record_history();

-- Comments and responders ---------------------------------------------------------------------

-- The comment text is copied (clipped) into the entry: the timeline outlives deleted comments.
CREATE FUNCTION comments_record_history() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM record_incident_event('responder.commented', NEW.incident_id,
    coalesce(incident_acting_person(), NEW.created_by), left(NEW.comment, 1000),
    p_hypothesis_id => NEW.hypothesis_id, p_comment_id => NEW.id,
    p_responder_id => NEW.responder_id,
    p_extra => jsonb_strip_nulls(jsonb_build_object('external_created_by', NEW.external_created_by)));
  RETURN NULL;
END;
$$;

CREATE TRIGGER comments_record_history AFTER INSERT ON comments
  FOR EACH ROW EXECUTE FUNCTION comments_record_history();

-- incident_status.updated: the incident's state at a responder (acknowledged, resolved, closed
-- there, as an external system reports it) changed.
CREATE FUNCTION responders_record_history() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  state text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM record_incident_event('responder.created', NEW.incident_id,
      coalesce(incident_acting_person(), NEW.created_by), NEW.type, p_responder_id => NEW.id,
      p_extra => jsonb_strip_nulls(jsonb_build_object('type', NEW.type, 'person_id', NEW.person_id,
                                                      'team_id', NEW.team_id)));
    RETURN NULL;
  END IF;
  state := CASE
    WHEN NEW.closed IS DISTINCT FROM OLD.closed AND NEW.closed IS NOT NULL THEN 'closed'
    WHEN NEW.resolved IS DISTINCT FROM OLD.resolved AND NEW.resolved IS NOT NULL THEN 'resolved'
    WHEN NEW.acknowledged IS DISTINCT FROM OLD.acknowledged AND NEW.acknowledged IS NOT NULL
      THEN 'acknowledged'
  END;
  IF state IS NOT NULL THEN
    PERFORM record_incident_event('incident_status.updated', NEW.incident_id,
      incident_acting_person(), state, p_responder_id => NEW.id,
      p_extra => jsonb_build_object('status', state, 'type', NEW.type));
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER responders_record_history
  AFTER INSERT OR UPDATE OF acknowledged, resolved, closed ON responders
  FOR EACH ROW EXECUTE FUNCTION responders_record_history();

-- Read views ----------------------------------------------------------------------------------

-- When each incident first reached a stage, from its timeline, and how long that took from
-- creation, in seconds. Acknowledged: first left new/open; mitigated: first mitigated, resolved
-- or closed; resolved: first resolved or closed; closed: first closed.
CREATE VIEW incident_durations WITH (security_invoker = true) AS
SELECT
  i.id,
  i.created_at,
  s.acknowledged_at,
  s.mitigated_at,
  s.resolved_at,
  s.closed_at,
  extract(epoch FROM s.acknowledged_at - i.created_at)::double precision AS time_to_acknowledge,
  extract(epoch FROM s.mitigated_at - i.created_at)::double precision AS time_to_mitigate,
  extract(epoch FROM s.resolved_at - i.created_at)::double precision AS time_to_resolve,
  extract(epoch FROM s.closed_at - i.created_at)::double precision AS time_to_close
FROM incidents i
LEFT JOIN LATERAL (
  SELECT
    min(h.created_at) FILTER (
      WHERE h.description IN ('investigating', 'mitigated', 'resolved', 'closed')) AS acknowledged_at,
    min(h.created_at) FILTER (WHERE h.description IN ('mitigated', 'resolved', 'closed')) AS mitigated_at,
    min(h.created_at) FILTER (WHERE h.description IN ('resolved', 'closed')) AS resolved_at,
    min(h.created_at) FILTER (WHERE h.description = 'closed') AS closed_at
  FROM incident_histories h
  WHERE h.incident_id = i.id AND h.type = 'incident.status_updated'
) s ON true;

-- The incident list: people as {id, name, avatar} (teams as {id, name, avatar: icon}), counts
-- and durations.
CREATE VIEW incident_summary WITH (security_invoker = true) AS
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
  d.time_to_close
FROM incidents i
LEFT JOIN people commander ON commander.id = i.commander_id
LEFT JOIN people communicator ON communicator.id = i.communicator_id
LEFT JOIN people creator ON creator.id = i.created_by
LEFT JOIN incident_durations d ON d.id = i.id;

-- Incidents that have evidence about a component or a catalog item, one row per pair.
CREATE VIEW incidents_by_component WITH (security_invoker = true) AS
SELECT DISTINCT i.id, i.title, i.created_at, i.updated_at, i.type, i.status, i.severity,
       e.component_id
FROM evidences e
JOIN hypotheses h ON h.id = e.hypothesis_id
JOIN incidents i ON i.id = h.incident_id
WHERE e.component_id IS NOT NULL;

CREATE VIEW incidents_by_config WITH (security_invoker = true) AS
SELECT DISTINCT i.id, i.title, i.created_at, i.updated_at, i.type, i.status, i.severity,
       e.config_id
FROM evidences e
JOIN hypotheses h ON h.id = e.hypothesis_id
JOIN incidents i ON i.id = h.incident_id
WHERE e.config_id IS NOT NULL;

-- The incident rules engine's dedupe lookup: open incidents with evidence of a check.
CREATE INDEX incidents_open_rule_idx ON incidents (incident_rule_id)
  WHERE incident_rule_id IS NOT NULL AND status NOT IN ('resolved', 'closed');
