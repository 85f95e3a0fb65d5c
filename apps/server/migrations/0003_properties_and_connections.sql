-- Feature flags / settings (properties) and connections to external systems.

-- A property '{feature}.disable' = 'true' turns an area off. Values stay text because the
-- API returns them as strings; type says how to read them.
CREATE TABLE properties (
  name        text PRIMARY KEY,
  value       text NOT NULL,
  type        text,
  description text,
  created_by  uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz
);
CREATE TRIGGER properties_set_updated_at BEFORE INSERT OR UPDATE ON properties
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- url, username, password, certificate and secret-like properties are stored as the
-- application encrypts them (or as valueFrom references); the database never sees plaintext.
CREATE TABLE connections (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name         text NOT NULL,
  namespace    text NOT NULL DEFAULT 'default',
  type         text NOT NULL,
  url          text,
  username     text,
  password     text,
  certificate  text,
  insecure_tls boolean NOT NULL DEFAULT false,
  -- Type-specific fields (region, bucket, webhook id, ...).
  properties   jsonb,
  labels       jsonb DEFAULT '{}'::jsonb,
  spec         jsonb,
  source       text NOT NULL DEFAULT 'UI',
  agent_id     uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  created_by   uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted_at   timestamptz
);
CREATE UNIQUE INDEX connections_namespace_name_key ON connections (namespace, name)
  WHERE deleted_at IS NULL;
CREATE INDEX connections_type_idx ON connections (type);
CREATE INDEX connections_created_at_idx ON connections (created_at);
CREATE TRIGGER connections_set_updated_at BEFORE INSERT OR UPDATE ON connections
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();
