-- Incidents: rules that open them, incidents, responders, hypotheses, evidence, comments and
-- the incident timeline.

CREATE TABLE incident_rules (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name       text NOT NULL,
  namespace  text NOT NULL DEFAULT 'default',
  labels     jsonb DEFAULT '{}'::jsonb,
  spec       jsonb NOT NULL DEFAULT '{}'::jsonb,
  source     text NOT NULL DEFAULT 'UI',
  agent_id   uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  created_by uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX incident_rules_namespace_name_key ON incident_rules (namespace, name)
  WHERE deleted_at IS NULL;
CREATE INDEX incident_rules_created_at_idx ON incident_rules (created_at);
CREATE TRIGGER incident_rules_set_updated_at BEFORE INSERT OR UPDATE ON incident_rules
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

CREATE TABLE incidents (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  title            text NOT NULL,
  description      text,
  type             text NOT NULL CHECK (type IN (
                     'cost', 'availability', 'performance', 'security', 'integration',
                     'compliance', 'technicalDebt', 'reliability')),
  status           text NOT NULL DEFAULT 'open' CHECK (status IN (
                     'new', 'open', 'investigating', 'mitigated', 'resolved', 'closed')),
  -- info and warning are offered by the incident link dialog besides the five levels.
  severity         text NOT NULL CHECK (severity IN (
                     'info', 'warning', 'low', 'medium', 'high', 'critical', 'blocker')),
  -- created_by is NULL when an incident rule opened the incident.
  created_by       uuid REFERENCES people (id) ON DELETE SET NULL,
  commander_id     uuid REFERENCES people (id) ON DELETE SET NULL,
  communicator_id  uuid REFERENCES people (id) ON DELETE SET NULL,
  incident_rule_id uuid REFERENCES incident_rules (id) ON DELETE SET NULL,
  acknowledged     timestamptz,
  resolved         timestamptz,
  closed           timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX incidents_status_created_at_idx ON incidents (status, created_at);
CREATE INDEX incidents_created_at_idx ON incidents (created_at);
CREATE INDEX incidents_severity_idx ON incidents (severity);
CREATE INDEX incidents_type_idx ON incidents (type);
CREATE INDEX incidents_title_trgm_idx ON incidents USING gin (title gin_trgm_ops);
CREATE INDEX incidents_commander_id_idx ON incidents (commander_id);
CREATE INDEX incidents_created_by_idx ON incidents (created_by);
CREATE INDEX incidents_incident_rule_id_idx ON incidents (incident_rule_id);
CREATE TRIGGER incidents_set_updated_at BEFORE INSERT OR UPDATE ON incidents
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- A responder is a person or a team. type is 'person', 'team' or the external system a team
-- pages through. A person who responded cannot be hard-deleted (people are soft-deleted).
CREATE TABLE responders (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  incident_id  uuid NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
  type         text NOT NULL,
  person_id    uuid REFERENCES people (id),
  team_id      uuid REFERENCES teams (id),
  external_id  text,
  properties   jsonb,
  acknowledged timestamptz,
  resolved     timestamptz,
  closed       timestamptz,
  created_by   uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted_at   timestamptz,
  CONSTRAINT responders_person_or_team CHECK (num_nonnulls(person_id, team_id) = 1)
);
CREATE INDEX responders_incident_id_idx ON responders (incident_id);
CREATE INDEX responders_person_id_idx ON responders (person_id);
CREATE INDEX responders_team_id_idx ON responders (team_id);
CREATE TRIGGER responders_set_updated_at BEFORE INSERT OR UPDATE ON responders
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Hypotheses form a tree per incident: root, then factor, then solution. Deleting one deletes
-- its sub-hypotheses, comments and evidence.
CREATE TABLE hypotheses (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  incident_id uuid NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
  parent_id   uuid REFERENCES hypotheses (id) ON DELETE CASCADE,
  title       text NOT NULL,
  type        text NOT NULL DEFAULT 'root' CHECK (type IN ('root', 'factor', 'solution')),
  status      text NOT NULL DEFAULT 'possible' CHECK (status IN (
                'proven', 'likely', 'possible', 'unlikely', 'improbable', 'disproven')),
  created_by  uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX hypotheses_incident_id_idx ON hypotheses (incident_id);
CREATE INDEX hypotheses_parent_id_idx ON hypotheses (parent_id);
CREATE INDEX hypotheses_title_trgm_idx ON hypotheses USING gin (title gin_trgm_ops);
CREATE TRIGGER hypotheses_set_updated_at BEFORE INSERT OR UPDATE ON hypotheses
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

CREATE TABLE comments (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  incident_id         uuid NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
  hypothesis_id       uuid REFERENCES hypotheses (id) ON DELETE CASCADE,
  -- Set when the comment came in through a responder's external system.
  responder_id        uuid REFERENCES responders (id) ON DELETE SET NULL,
  comment             text NOT NULL,
  external_id         text,
  external_created_by text,
  created_by          uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX comments_incident_id_idx ON comments (incident_id, created_at);
CREATE INDEX comments_hypothesis_id_idx ON comments (hypothesis_id);
CREATE INDEX comments_responder_id_idx ON comments (responder_id);
CREATE TRIGGER comments_set_updated_at BEFORE INSERT OR UPDATE ON comments
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Evidence attached to a hypothesis. The referenced resources may be retention-deleted
-- later; the evidence then keeps its own copy in evidence/description.
CREATE TABLE evidences (
  id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  hypothesis_id      uuid NOT NULL REFERENCES hypotheses (id) ON DELETE CASCADE,
  type               text NOT NULL CHECK (type IN (
                       'log', 'config', 'topology', 'check', 'config_analysis', 'config_change',
                       'comment')),
  description        text,
  evidence           jsonb,
  properties         jsonb,
  config_id          uuid REFERENCES config_items (id) ON DELETE SET NULL,
  config_analysis_id uuid REFERENCES config_analysis (id) ON DELETE SET NULL,
  config_change_id   uuid REFERENCES config_changes (id) ON DELETE SET NULL,
  component_id       uuid REFERENCES components (id) ON DELETE SET NULL,
  check_id           uuid REFERENCES checks (id) ON DELETE SET NULL,
  definition_of_done boolean NOT NULL DEFAULT false,
  done               boolean NOT NULL DEFAULT false,
  script             text,
  script_result      text,
  created_by         uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX evidences_hypothesis_id_idx ON evidences (hypothesis_id);
CREATE INDEX evidences_config_id_idx ON evidences (config_id);
CREATE INDEX evidences_config_analysis_id_idx ON evidences (config_analysis_id);
CREATE INDEX evidences_config_change_id_idx ON evidences (config_change_id);
CREATE INDEX evidences_component_id_idx ON evidences (component_id);
CREATE INDEX evidences_check_id_idx ON evidences (check_id);
CREATE TRIGGER evidences_set_updated_at BEFORE INSERT OR UPDATE ON evidences
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- The incident timeline. type is one of the incident event names.
CREATE TABLE incident_histories (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  incident_id   uuid NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
  type          text NOT NULL CHECK (type IN (
                  'incident.created', 'responder.created', 'evidence.created',
                  'incident.status_updated', 'evidence.done_definition_added',
                  'incident_status.updated', 'responder.commented', 'hypothesis.created',
                  'hypothesis.status_updated')),
  description   text,
  -- Entries outlive the hypothesis, evidence, comment or responder they mention.
  hypothesis_id uuid REFERENCES hypotheses (id) ON DELETE SET NULL,
  evidence_id   uuid REFERENCES evidences (id) ON DELETE SET NULL,
  comment_id    uuid REFERENCES comments (id) ON DELETE SET NULL,
  responder_id  uuid REFERENCES responders (id) ON DELETE SET NULL,
  created_by    uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX incident_histories_incident_id_idx ON incident_histories (incident_id, created_at);
CREATE INDEX incident_histories_hypothesis_id_idx ON incident_histories (hypothesis_id);
CREATE INDEX incident_histories_evidence_id_idx ON incident_histories (evidence_id);
CREATE INDEX incident_histories_comment_id_idx ON incident_histories (comment_id);
CREATE INDEX incident_histories_responder_id_idx ON incident_histories (responder_id);
CREATE TRIGGER incident_histories_set_updated_at BEFORE INSERT OR UPDATE ON incident_histories
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();
