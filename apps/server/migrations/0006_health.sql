-- Health: canaries (check definitions), the checks they produce, check results and rollups,
-- and the links from checks to components and catalog items.

CREATE TABLE canaries (
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
CREATE UNIQUE INDEX canaries_namespace_name_key ON canaries (namespace, name)
  WHERE deleted_at IS NULL;
CREATE INDEX canaries_name_idx ON canaries (name);
CREATE INDEX canaries_labels_idx ON canaries USING gin (labels);
CREATE INDEX canaries_agent_id_idx ON canaries (agent_id);
CREATE INDEX canaries_created_at_idx ON canaries (created_at);
CREATE TRIGGER canaries_set_updated_at BEFORE INSERT OR UPDATE ON canaries
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

CREATE TABLE checks (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  canary_id            uuid NOT NULL REFERENCES canaries (id) ON DELETE CASCADE,
  agent_id             uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  type                 text NOT NULL,
  name                 text NOT NULL,
  description          text,
  icon                 text,
  namespace            text,
  endpoint             text,
  owner                text,
  severity             text,
  labels               jsonb DEFAULT '{}'::jsonb,
  -- This check's own entry of the canary spec.
  spec                 jsonb,
  -- NULL until the first run.
  status               text CHECK (status IN ('healthy', 'unhealthy')),
  -- Produced by a transform of another check's result rather than declared in the spec.
  transformed          boolean NOT NULL DEFAULT false,
  last_runtime         timestamptz,
  last_transition_time timestamptz,
  next_runtime         timestamptz,
  silenced_at          timestamptz,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  deleted_at           timestamptz
);
-- A canary run upserts its checks on this key (not partial), so a check removed from the spec
-- and added back is undeleted and keeps its id and history. It also serves checks (canary_id).
CREATE UNIQUE INDEX checks_canary_id_type_name_key ON checks (canary_id, type, name);
CREATE INDEX checks_name_idx ON checks (name);
CREATE INDEX checks_name_trgm_idx ON checks USING gin (name gin_trgm_ops);
CREATE INDEX checks_labels_idx ON checks USING gin (labels);
CREATE INDEX checks_agent_id_idx ON checks (agent_id);
CREATE INDEX checks_status_idx ON checks (status);
CREATE INDEX checks_next_runtime_idx ON checks (next_runtime) WHERE deleted_at IS NULL;
CREATE TRIGGER checks_set_updated_at BEFORE INSERT OR UPDATE ON checks
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- One row per check run: tens of millions of rows, so no surrogate id, no created_at and the
-- fixed-width columns first. The primary key (check_id, time) also serves
-- "WHERE check_id = $1 ORDER BY time DESC" by scanning backwards: no second index needed.
CREATE TABLE check_statuses (
  check_id uuid NOT NULL REFERENCES checks (id) ON DELETE CASCADE,
  time     timestamptz NOT NULL,
  -- Milliseconds.
  duration integer,
  status   boolean NOT NULL,
  message  text,
  error    text,
  details  jsonb,
  PRIMARY KEY (check_id, time)
);
-- Rows arrive in time order, so a BRIN index is a few pages and still serves retention
-- deletes and the rollup jobs' time-range scans across all checks.
CREATE INDEX check_statuses_time_brin_idx ON check_statuses USING brin (time);

-- Rollups of check_statuses per hour and per day (created_at = start of the bucket, UTC).
-- duration is the mean in milliseconds; duration_sum lets longer ranges recompute the mean
-- exactly from buckets; percentiles are per bucket.
CREATE TABLE check_statuses_1h (
  check_id     uuid NOT NULL REFERENCES checks (id) ON DELETE CASCADE,
  created_at   timestamptz NOT NULL,
  total        integer NOT NULL,
  passed       integer NOT NULL,
  failed       integer NOT NULL,
  duration     integer,
  duration_sum bigint,
  duration_min integer,
  duration_max integer,
  duration_p95 integer,
  duration_p97 integer,
  duration_p99 integer,
  PRIMARY KEY (check_id, created_at),
  CONSTRAINT check_statuses_1h_counts_check
    CHECK (passed >= 0 AND failed >= 0 AND total = passed + failed)
);
CREATE INDEX check_statuses_1h_created_at_brin_idx ON check_statuses_1h USING brin (created_at);

CREATE TABLE check_statuses_1d (
  check_id     uuid NOT NULL REFERENCES checks (id) ON DELETE CASCADE,
  created_at   timestamptz NOT NULL,
  total        integer NOT NULL,
  passed       integer NOT NULL,
  failed       integer NOT NULL,
  duration     integer,
  duration_sum bigint,
  duration_min integer,
  duration_max integer,
  duration_p95 integer,
  duration_p97 integer,
  duration_p99 integer,
  PRIMARY KEY (check_id, created_at),
  CONSTRAINT check_statuses_1d_counts_check
    CHECK (passed >= 0 AND failed >= 0 AND total = passed + failed)
);
CREATE INDEX check_statuses_1d_created_at_brin_idx ON check_statuses_1d USING brin (created_at);

CREATE TABLE check_component_relationships (
  component_id uuid NOT NULL REFERENCES components (id) ON DELETE CASCADE,
  check_id     uuid NOT NULL REFERENCES checks (id) ON DELETE CASCADE,
  canary_id    uuid NOT NULL REFERENCES canaries (id) ON DELETE CASCADE,
  selector_id  text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted_at   timestamptz,
  PRIMARY KEY (component_id, check_id)
);
CREATE INDEX check_component_relationships_check_id_idx ON check_component_relationships (check_id);
CREATE INDEX check_component_relationships_canary_id_idx ON check_component_relationships (canary_id);
CREATE TRIGGER check_component_relationships_set_updated_at
  BEFORE INSERT OR UPDATE ON check_component_relationships
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

CREATE TABLE check_config_relationships (
  config_id   uuid NOT NULL REFERENCES config_items (id) ON DELETE CASCADE,
  check_id    uuid NOT NULL REFERENCES checks (id) ON DELETE CASCADE,
  canary_id   uuid NOT NULL REFERENCES canaries (id) ON DELETE CASCADE,
  selector_id text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz,
  PRIMARY KEY (config_id, check_id)
);
CREATE INDEX check_config_relationships_check_id_idx ON check_config_relationships (check_id);
CREATE INDEX check_config_relationships_canary_id_idx ON check_config_relationships (canary_id);
CREATE TRIGGER check_config_relationships_set_updated_at
  BEFORE INSERT OR UPDATE ON check_config_relationships
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

CREATE VIEW check_names WITH (security_invoker = true) AS
SELECT id, canary_id, name, type, status, namespace, agent_id
FROM checks
WHERE deleted_at IS NULL;

CREATE VIEW canary_names WITH (security_invoker = true) AS
SELECT id, name, namespace, agent_id
FROM canaries
WHERE deleted_at IS NULL;
