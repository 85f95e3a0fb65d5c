-- Topology: topology definitions and the component trees they produce.

CREATE TABLE topologies (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name       text NOT NULL,
  namespace  text NOT NULL DEFAULT 'default',
  icon       text,
  schedule   text,
  labels     jsonb DEFAULT '{}'::jsonb,
  spec       jsonb NOT NULL DEFAULT '{}'::jsonb,
  source     text NOT NULL DEFAULT 'UI',
  agent_id   uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  created_by uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX topologies_namespace_name_key ON topologies (namespace, name)
  WHERE deleted_at IS NULL;
CREATE INDEX topologies_labels_idx ON topologies USING gin (labels);
CREATE INDEX topologies_created_at_idx ON topologies (created_at);
CREATE TRIGGER topologies_set_updated_at BEFORE INSERT OR UPDATE ON topologies
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

CREATE TABLE components (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  agent_id         uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  -- A component belongs to the topology run that produced it and to its parent's subtree.
  topology_id      uuid REFERENCES topologies (id) ON DELETE CASCADE,
  parent_id        uuid REFERENCES components (id) ON DELETE CASCADE,
  -- The catalog item this component stands for, when there is one.
  config_id        uuid REFERENCES config_items (id) ON DELETE SET NULL,
  external_id      text,
  name             text NOT NULL,
  text             text,
  type             text,
  topology_type    text,
  namespace        text,
  icon             text,
  owner            text,
  labels           jsonb DEFAULT '{}'::jsonb,
  properties       jsonb,
  status           text,
  status_reason    text,
  health           text,
  description      text,
  lifecycle        text,
  tooltip          text,
  schedule         text,
  hidden           boolean NOT NULL DEFAULT false,
  silenced         boolean NOT NULL DEFAULT false,
  -- Selectors from the component's definition, resolved into the *_relationships tables.
  selectors        jsonb,
  log_selectors    jsonb,
  component_checks jsonb,
  configs          jsonb,
  -- Dot-separated ancestor ids, root first.
  path             text,
  summary          jsonb,
  is_leaf          boolean NOT NULL DEFAULT false,
  cost_per_minute  numeric(16, 4),
  cost_total_1d    numeric(16, 4),
  cost_total_7d    numeric(16, 4),
  cost_total_30d   numeric(16, 4),
  created_by       uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  deleted_at       timestamptz
);
-- A topology run upserts its components on this key, so ids survive re-runs and a component
-- that disappears and comes back is undeleted rather than duplicated.
CREATE UNIQUE INDEX components_topology_id_type_name_parent_id_key
  ON components (topology_id, type, name, parent_id) NULLS NOT DISTINCT;
CREATE INDEX components_name_idx ON components (name);
CREATE INDEX components_name_trgm_idx ON components USING gin (name gin_trgm_ops);
CREATE INDEX components_labels_idx ON components USING gin (labels);
CREATE INDEX components_parent_id_idx ON components (parent_id);
CREATE INDEX components_config_id_idx ON components (config_id);
CREATE INDEX components_type_idx ON components (type);
CREATE INDEX components_status_idx ON components (status);
CREATE INDEX components_agent_id_idx ON components (agent_id);
CREATE INDEX components_path_idx ON components (path text_pattern_ops);
CREATE TRIGGER components_set_updated_at BEFORE INSERT OR UPDATE ON components
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Component-to-component links other than the parent tree (from relationship selectors).
CREATE TABLE component_relationships (
  component_id      uuid NOT NULL REFERENCES components (id) ON DELETE CASCADE,
  relationship_id   uuid NOT NULL REFERENCES components (id) ON DELETE CASCADE,
  selector_id       text,
  relationship_path text,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  deleted_at        timestamptz,
  PRIMARY KEY (component_id, relationship_id)
);
CREATE INDEX component_relationships_relationship_id_idx
  ON component_relationships (relationship_id);
CREATE TRIGGER component_relationships_set_updated_at
  BEFORE INSERT OR UPDATE ON component_relationships
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- selector_id 'manual' marks links a user added by hand (POST/DELETE from the UI); others come
-- from component config selectors and are retracted when the selector stops matching.
CREATE TABLE config_component_relationships (
  component_id uuid NOT NULL REFERENCES components (id) ON DELETE CASCADE,
  config_id    uuid NOT NULL REFERENCES config_items (id) ON DELETE CASCADE,
  selector_id  text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted_at   timestamptz,
  PRIMARY KEY (component_id, config_id)
);
CREATE INDEX config_component_relationships_config_id_idx
  ON config_component_relationships (config_id);
CREATE TRIGGER config_component_relationships_set_updated_at
  BEFORE INSERT OR UPDATE ON config_component_relationships
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Components a team owns (from the team spec's component selectors).
CREATE TABLE team_components (
  team_id      uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  component_id uuid NOT NULL REFERENCES components (id) ON DELETE CASCADE,
  role         text,
  selector_id  text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, component_id)
);
CREATE INDEX team_components_component_id_idx ON team_components (component_id);

CREATE VIEW component_names WITH (security_invoker = true) AS
SELECT id, name, type, icon, external_id, topology_type, parent_id, topology_id, agent_id
FROM components
WHERE deleted_at IS NULL;
