-- Notifications (rules, silences, send history), views, applications, logging backends and
-- permissions (last: a permission can name almost any other resource).

-- A notification rule: which events, filtered how, go to whom (a person, a team, custom
-- services such as a Slack connection, or a playbook).
CREATE TABLE notifications (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name            text NOT NULL,
  namespace       text NOT NULL DEFAULT 'default',
  labels          jsonb DEFAULT '{}'::jsonb,
  spec            jsonb,
  source          text NOT NULL DEFAULT 'UI',
  agent_id        uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  events          text[] NOT NULL DEFAULT '{}',
  title           text,
  template        text,
  filter          text,
  properties      jsonb,
  person_id       uuid REFERENCES people (id) ON DELETE CASCADE,
  team_id         uuid REFERENCES teams (id) ON DELETE CASCADE,
  custom_services jsonb,
  playbook_id     uuid REFERENCES playbooks (id) ON DELETE CASCADE,
  repeat_interval text,
  group_by        text[],
  wait_for        text,
  -- The last delivery error, shown on the rules list until a send succeeds.
  error           text,
  error_at        timestamptz,
  created_by      uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  deleted_at      timestamptz
);
CREATE UNIQUE INDEX notifications_namespace_name_key ON notifications (namespace, name)
  WHERE deleted_at IS NULL;
CREATE INDEX notifications_events_idx ON notifications USING gin (events);
CREATE INDEX notifications_person_id_idx ON notifications (person_id);
CREATE INDEX notifications_team_id_idx ON notifications (team_id);
CREATE INDEX notifications_playbook_id_idx ON notifications (playbook_id);
CREATE INDEX notifications_created_at_idx ON notifications (created_at);
CREATE TRIGGER notifications_set_updated_at BEFORE INSERT OR UPDATE ON notifications
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- A silence mutes notifications about one resource (check, catalog item, component, canary)
-- or about whatever its filter/selectors match. until NULL means indefinitely. Silences made
-- in the UI have no name.
CREATE TABLE notification_silences (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name         text,
  namespace    text NOT NULL DEFAULT 'default',
  labels       jsonb DEFAULT '{}'::jsonb,
  spec         jsonb,
  source       text NOT NULL DEFAULT 'UI',
  agent_id     uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  description  text,
  "from"       timestamptz NOT NULL DEFAULT now(),
  until        timestamptz,
  -- Also silence the resource's descendants.
  recursive    boolean NOT NULL DEFAULT false,
  filter       text,
  selectors    jsonb,
  config_id    uuid REFERENCES config_items (id) ON DELETE CASCADE,
  check_id     uuid REFERENCES checks (id) ON DELETE CASCADE,
  canary_id    uuid REFERENCES canaries (id) ON DELETE CASCADE,
  component_id uuid REFERENCES components (id) ON DELETE CASCADE,
  error        text,
  created_by   uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted_at   timestamptz,
  CONSTRAINT notification_silences_window CHECK (until IS NULL OR until > "from")
);
CREATE UNIQUE INDEX notification_silences_namespace_name_key
  ON notification_silences (namespace, name) WHERE deleted_at IS NULL;
CREATE INDEX notification_silences_active_idx ON notification_silences (until)
  WHERE deleted_at IS NULL;
CREATE INDEX notification_silences_config_id_idx ON notification_silences (config_id);
CREATE INDEX notification_silences_check_id_idx ON notification_silences (check_id);
CREATE INDEX notification_silences_canary_id_idx ON notification_silences (canary_id);
CREATE INDEX notification_silences_component_id_idx ON notification_silences (component_id);
CREATE TRIGGER notification_silences_set_updated_at BEFORE INSERT OR UPDATE ON notification_silences
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- One row per notification attempt (or per group of repeats: count). resource_id points at a
-- check, config item, component or canary, named by resource_type, so it has no foreign key.
CREATE TABLE notification_send_history (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  notification_id uuid NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
  parent_id       uuid REFERENCES notification_send_history (id) ON DELETE SET NULL,
  status          text,
  source_event    text,
  resource_id     uuid,
  resource_type   text,
  body            text,
  body_payload    jsonb,
  count           integer NOT NULL DEFAULT 1,
  first_observed  timestamptz NOT NULL DEFAULT now(),
  error           text,
  duration_millis integer,
  person_id       uuid REFERENCES people (id) ON DELETE SET NULL,
  team_id         uuid REFERENCES teams (id) ON DELETE SET NULL,
  connection_id   uuid REFERENCES connections (id) ON DELETE SET NULL,
  playbook_run_id uuid REFERENCES playbook_runs (id) ON DELETE SET NULL,
  silenced_by     uuid REFERENCES notification_silences (id) ON DELETE SET NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notification_send_history_notification_id_idx
  ON notification_send_history (notification_id, created_at DESC);
CREATE INDEX notification_send_history_created_at_idx ON notification_send_history (created_at);
CREATE INDEX notification_send_history_resource_id_idx
  ON notification_send_history (resource_id, created_at DESC);
CREATE INDEX notification_send_history_status_idx ON notification_send_history (status);
CREATE INDEX notification_send_history_silenced_by_idx ON notification_send_history (silenced_by);
CREATE INDEX notification_send_history_playbook_run_id_idx
  ON notification_send_history (playbook_run_id);

-- title, icon, ordinal and sidebar are the spec's display settings, kept in columns so the
-- sidebar can list views without parsing specs.
CREATE TABLE views (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name       text NOT NULL,
  namespace  text NOT NULL DEFAULT 'default',
  title      text,
  icon       text,
  ordinal    integer,
  sidebar    boolean NOT NULL DEFAULT false,
  labels     jsonb DEFAULT '{}'::jsonb,
  spec       jsonb NOT NULL DEFAULT '{}'::jsonb,
  source     text NOT NULL DEFAULT 'UI',
  agent_id   uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  error      text,
  last_ran   timestamptz,
  created_by uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX views_namespace_name_key ON views (namespace, name) WHERE deleted_at IS NULL;
CREATE INDEX views_sidebar_idx ON views (ordinal, name) WHERE sidebar AND deleted_at IS NULL;
CREATE INDEX views_created_at_idx ON views (created_at);
CREATE TRIGGER views_set_updated_at BEFORE INSERT OR UPDATE ON views
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

CREATE TABLE applications (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name        text NOT NULL,
  namespace   text NOT NULL DEFAULT 'default',
  description text,
  labels      jsonb DEFAULT '{}'::jsonb,
  spec        jsonb NOT NULL DEFAULT '{}'::jsonb,
  source      text NOT NULL DEFAULT 'UI',
  agent_id    uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  created_by  uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz
);
CREATE UNIQUE INDEX applications_namespace_name_key ON applications (namespace, name)
  WHERE deleted_at IS NULL;
CREATE TRIGGER applications_set_updated_at BEFORE INSERT OR UPDATE ON applications
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

CREATE TABLE logging_backends (
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
CREATE UNIQUE INDEX logging_backends_namespace_name_key ON logging_backends (namespace, name)
  WHERE deleted_at IS NULL;
CREATE INDEX logging_backends_created_at_idx ON logging_backends (created_at);
CREATE TRIGGER logging_backends_set_updated_at BEFORE INSERT OR UPDATE ON logging_backends
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- A permission grants (or, with deny, refuses) an action on an object or on one resource to a
-- subject. subject holds the role name for subject_type 'group' and the playbook for
-- 'playbook'; team_id/person_id/notification_id carry the other subjects. The subject and
-- target rows own their permissions: deleting them deletes the permission.
CREATE TABLE permissions (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name            text,
  namespace       text NOT NULL DEFAULT 'default',
  labels          jsonb DEFAULT '{}'::jsonb,
  spec            jsonb,
  source          text NOT NULL DEFAULT 'UI',
  agent_id        uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  subject         text,
  subject_type    text CHECK (subject_type IN ('team', 'person', 'notification', 'group', 'playbook')),
  team_id         uuid REFERENCES teams (id) ON DELETE CASCADE,
  person_id       uuid REFERENCES people (id) ON DELETE CASCADE,
  notification_id uuid REFERENCES notifications (id) ON DELETE CASCADE,
  action          text NOT NULL,
  deny            boolean NOT NULL DEFAULT false,
  -- A global resource kind (canaries, catalog, playbooks, ...) when no single target is set.
  object          text,
  config_id       uuid REFERENCES config_items (id) ON DELETE CASCADE,
  component_id    uuid REFERENCES components (id) ON DELETE CASCADE,
  canary_id       uuid REFERENCES canaries (id) ON DELETE CASCADE,
  check_id        uuid REFERENCES checks (id) ON DELETE CASCADE,
  playbook_id     uuid REFERENCES playbooks (id) ON DELETE CASCADE,
  connection_id   uuid REFERENCES connections (id) ON DELETE CASCADE,
  object_selector jsonb,
  tags            jsonb,
  -- Agent ids (or names) the grant is limited to.
  agents          text[],
  description     text,
  until           timestamptz,
  created_by      uuid REFERENCES people (id) ON DELETE SET NULL,
  updated_by      uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  deleted_at      timestamptz
);
CREATE UNIQUE INDEX permissions_namespace_name_key ON permissions (namespace, name)
  WHERE deleted_at IS NULL;
CREATE INDEX permissions_subject_idx ON permissions (subject_type, subject);
CREATE INDEX permissions_team_id_idx ON permissions (team_id);
CREATE INDEX permissions_person_id_idx ON permissions (person_id);
CREATE INDEX permissions_notification_id_idx ON permissions (notification_id);
CREATE INDEX permissions_config_id_idx ON permissions (config_id);
CREATE INDEX permissions_component_id_idx ON permissions (component_id);
CREATE INDEX permissions_canary_id_idx ON permissions (canary_id);
CREATE INDEX permissions_check_id_idx ON permissions (check_id);
CREATE INDEX permissions_playbook_id_idx ON permissions (playbook_id);
CREATE INDEX permissions_connection_id_idx ON permissions (connection_id);
CREATE INDEX permissions_created_at_idx ON permissions (created_at);
CREATE TRIGGER permissions_set_updated_at BEFORE INSERT OR UPDATE ON permissions
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();
