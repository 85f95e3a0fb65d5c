-- Playbooks, their runs, run actions, approvals and the artifacts runs and checks produce.

CREATE TABLE playbooks (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name        text NOT NULL,
  namespace   text NOT NULL DEFAULT 'default',
  title       text,
  description text,
  labels      jsonb DEFAULT '{}'::jsonb,
  -- {icon, category, configs, components, checks, parameters, actions, ...}
  spec        jsonb NOT NULL DEFAULT '{}'::jsonb,
  source      text NOT NULL DEFAULT 'UI',
  agent_id    uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  created_by  uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz
);
CREATE UNIQUE INDEX playbooks_namespace_name_key ON playbooks (namespace, name)
  WHERE deleted_at IS NULL;
CREATE INDEX playbooks_name_idx ON playbooks (name);
CREATE INDEX playbooks_labels_idx ON playbooks USING gin (labels);
CREATE INDEX playbooks_created_at_idx ON playbooks (created_at);
CREATE TRIGGER playbooks_set_updated_at BEFORE INSERT OR UPDATE ON playbooks
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- status is the playbooks module's run state machine (scheduled, running, completed, failed,
-- cancelled, ...); the spec does not list the values, so no CHECK here.
CREATE TABLE playbook_runs (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  playbook_id    uuid NOT NULL REFERENCES playbooks (id) ON DELETE CASCADE,
  -- A run started by another run's action.
  parent_id      uuid REFERENCES playbook_runs (id) ON DELETE CASCADE,
  status         text NOT NULL DEFAULT 'scheduled',
  -- The playbook spec as it was when the run started; later edits do not change a run.
  spec           jsonb,
  parameters     jsonb,
  -- The request that started the run (who/what triggered it, with what context).
  request        jsonb,
  config_id      uuid REFERENCES config_items (id) ON DELETE SET NULL,
  component_id   uuid REFERENCES components (id) ON DELETE SET NULL,
  check_id       uuid REFERENCES checks (id) ON DELETE SET NULL,
  agent_id       uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  error          text,
  scheduled_time timestamptz NOT NULL DEFAULT now(),
  start_time     timestamptz,
  end_time       timestamptz,
  created_by     uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT playbook_runs_one_resource CHECK (num_nonnulls(config_id, component_id, check_id) <= 1)
);
CREATE INDEX playbook_runs_playbook_id_created_at_idx ON playbook_runs (playbook_id, created_at DESC);
CREATE INDEX playbook_runs_created_at_idx ON playbook_runs (created_at);
CREATE INDEX playbook_runs_status_idx ON playbook_runs (status);
CREATE INDEX playbook_runs_parent_id_idx ON playbook_runs (parent_id);
CREATE INDEX playbook_runs_config_id_idx ON playbook_runs (config_id);
CREATE INDEX playbook_runs_component_id_idx ON playbook_runs (component_id);
CREATE INDEX playbook_runs_check_id_idx ON playbook_runs (check_id);
CREATE TRIGGER playbook_runs_set_updated_at BEFORE INSERT OR UPDATE ON playbook_runs
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

CREATE TABLE playbook_run_actions (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  playbook_run_id uuid NOT NULL REFERENCES playbook_runs (id) ON DELETE CASCADE,
  name            text NOT NULL,
  status          text NOT NULL DEFAULT 'scheduled',
  result          jsonb,
  error           text,
  retry_count     integer NOT NULL DEFAULT 0,
  agent_id        uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  scheduled_time  timestamptz NOT NULL DEFAULT now(),
  start_time      timestamptz,
  end_time        timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX playbook_run_actions_playbook_run_id_idx
  ON playbook_run_actions (playbook_run_id, scheduled_time);
CREATE INDEX playbook_run_actions_status_idx ON playbook_run_actions (status);
CREATE TRIGGER playbook_run_actions_set_updated_at BEFORE INSERT OR UPDATE ON playbook_run_actions
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- An approval is given by a person, or on behalf of a team.
CREATE TABLE playbook_approvals (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  run_id     uuid NOT NULL REFERENCES playbook_runs (id) ON DELETE CASCADE,
  person_id  uuid REFERENCES people (id) ON DELETE CASCADE,
  team_id    uuid REFERENCES teams (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT playbook_approvals_person_or_team CHECK (num_nonnulls(person_id, team_id) = 1)
);
CREATE INDEX playbook_approvals_run_id_idx ON playbook_approvals (run_id);
CREATE UNIQUE INDEX playbook_approvals_run_id_person_id_key ON playbook_approvals (run_id, person_id)
  WHERE person_id IS NOT NULL;

-- Files produced by playbook actions and checks. The bytes live in artifact_contents (or in
-- the store behind connection_id), so select=* on artifacts never drags file contents along.
CREATE TABLE artifacts (
  id                     uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  playbook_run_id        uuid REFERENCES playbook_runs (id) ON DELETE CASCADE,
  playbook_run_action_id uuid REFERENCES playbook_run_actions (id) ON DELETE CASCADE,
  check_id               uuid REFERENCES checks (id) ON DELETE CASCADE,
  check_time             timestamptz,
  config_change_id       uuid REFERENCES config_changes (id) ON DELETE CASCADE,
  connection_id          uuid REFERENCES connections (id) ON DELETE SET NULL,
  path                   text NOT NULL,
  filename               text NOT NULL,
  content_type           text,
  size                   bigint NOT NULL DEFAULT 0,
  checksum               text,
  expires_at             timestamptz,
  created_at             timestamptz NOT NULL DEFAULT now(),
  updated_at             timestamptz NOT NULL DEFAULT now(),
  deleted_at             timestamptz
);
CREATE INDEX artifacts_playbook_run_id_idx ON artifacts (playbook_run_id);
CREATE INDEX artifacts_playbook_run_action_id_idx ON artifacts (playbook_run_action_id);
CREATE INDEX artifacts_check_id_idx ON artifacts (check_id, check_time);
CREATE INDEX artifacts_config_change_id_idx ON artifacts (config_change_id);
CREATE INDEX artifacts_expires_at_idx ON artifacts (expires_at) WHERE expires_at IS NOT NULL;
CREATE TRIGGER artifacts_set_updated_at BEFORE INSERT OR UPDATE ON artifacts
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Internal (not in the data API): artifact bytes kept in PostgreSQL.
CREATE TABLE artifact_contents (
  artifact_id uuid PRIMARY KEY REFERENCES artifacts (id) ON DELETE CASCADE,
  content     bytea NOT NULL
);

CREATE VIEW playbook_names WITH (security_invoker = true) AS
SELECT
  id,
  name,
  namespace,
  title,
  spec ->> 'icon' AS icon,
  spec ->> 'category' AS category
FROM playbooks
WHERE deleted_at IS NULL;
