-- People, identities and roles, agents, teams and API tokens.

CREATE TABLE people (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name        text NOT NULL,
  email       text,
  avatar      text,
  -- NULL for a human; 'agent' or 'access_token' for the service people that agents and API
  -- tokens act as, so that created_by always points at someone.
  type        text,
  title       text,
  phone       text,
  properties  jsonb,
  external_id text,
  last_login  timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz
);
-- Email identifies a person at sign-in and on invite; a deleted person frees the address.
CREATE UNIQUE INDEX people_email_key ON people (lower(email)) WHERE deleted_at IS NULL;
CREATE INDEX people_name_trgm_idx ON people USING gin (name gin_trgm_ops);
CREATE INDEX people_name_idx ON people (name);
CREATE INDEX people_external_id_idx ON people (external_id);
CREATE TRIGGER people_set_updated_at BEFORE INSERT OR UPDATE ON people
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- The self-service identity record of a person (same id as the person). Credentials, sessions
-- and MFA factors belong to the auth module's own tables.
CREATE TABLE identities (
  id         uuid PRIMARY KEY REFERENCES people (id) ON DELETE CASCADE,
  schema_id  text NOT NULL DEFAULT 'default',
  -- {"name": {"first": ..., "last": ...}, "email": ...}
  traits     jsonb NOT NULL DEFAULT '{}'::jsonb,
  state      text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'inactive')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX identities_email_idx ON identities (lower(traits ->> 'email'));
CREATE TRIGGER identities_set_updated_at BEFORE INSERT OR UPDATE ON identities
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- One row per role a person holds; permissions of several roles are merged by the RBAC module.
CREATE TABLE person_roles (
  person_id  uuid NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  role       text NOT NULL
    CHECK (role IN ('admin', 'editor', 'commander', 'responder', 'viewer', 'guest')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (person_id, role)
);

-- Clients call GET /people_roles?id=in.(...) to decorate the identity list with roles.
CREATE VIEW people_roles WITH (security_invoker = true) AS
SELECT
  p.id,
  p.name,
  p.email,
  ARRAY(SELECT r.role FROM person_roles r WHERE r.person_id = p.id ORDER BY r.role) AS roles
FROM people p;

CREATE TABLE agents (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name          text NOT NULL,
  hostname      text,
  description   text,
  ip            text,
  version       text,
  username      text,
  -- The service person the agent authenticates as.
  person_id     uuid REFERENCES people (id) ON DELETE SET NULL,
  properties    jsonb,
  tls           text,
  cleanup       boolean NOT NULL DEFAULT false,
  last_seen     timestamptz,
  last_received timestamptz,
  created_by    uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  deleted_at    timestamptz
);
CREATE UNIQUE INDEX agents_name_key ON agents (name) WHERE deleted_at IS NULL;
CREATE INDEX agents_person_id_idx ON agents (person_id);
CREATE TRIGGER agents_set_updated_at BEFORE INSERT OR UPDATE ON agents
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- The nil id means "no agent": every agent_id column defaults to it, so the row must exist.
INSERT INTO agents (id, name, description)
VALUES ('00000000-0000-0000-0000-000000000000', 'local', 'This server (no remote agent)');

CREATE FUNCTION protect_local_agent() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.id = '00000000-0000-0000-0000-000000000000'::uuid
     AND (TG_OP = 'DELETE' OR NEW.id <> OLD.id OR NEW.deleted_at IS NOT NULL) THEN
    RAISE EXCEPTION 'the local agent cannot be deleted'
      USING ERRCODE = 'check_violation', HINT = 'agent id 00000000-0000-0000-0000-000000000000 means "no agent"';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END;
$$;
CREATE TRIGGER agents_protect_local BEFORE UPDATE OR DELETE ON agents
  FOR EACH ROW EXECUTE FUNCTION protect_local_agent();

CREATE TABLE teams (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name       text NOT NULL,
  namespace  text NOT NULL DEFAULT 'default',
  icon       text DEFAULT 'group',
  labels     jsonb DEFAULT '{}'::jsonb,
  spec       jsonb,
  source     text NOT NULL DEFAULT 'UI',
  agent_id   uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  created_by uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX teams_namespace_name_key ON teams (namespace, name) WHERE deleted_at IS NULL;
CREATE INDEX teams_name_idx ON teams (name);
CREATE INDEX teams_labels_idx ON teams USING gin (labels);
CREATE TRIGGER teams_set_updated_at BEFORE INSERT OR UPDATE ON teams
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

CREATE TABLE team_members (
  team_id    uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  person_id  uuid NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, person_id)
);
CREATE INDEX team_members_person_id_idx ON team_members (person_id);

-- value holds only a slow hash of the token; the data API must never expose it.
CREATE TABLE access_tokens (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name       text NOT NULL,
  value      text NOT NULL,
  -- The person the token acts as.
  person_id  uuid NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  created_by uuid REFERENCES people (id) ON DELETE SET NULL,
  -- [{subject, object, action}] limiting what the token may do; empty means the person's rights.
  scope      jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz
);
CREATE INDEX access_tokens_person_id_idx ON access_tokens (person_id);
CREATE INDEX access_tokens_created_by_idx ON access_tokens (created_by);
