-- Kubernetes-style Secret and ConfigMap resources (apiVersion v1): the values that check specs
-- and connections reference with `valueFrom: {secretKeyRef|configMapKeyRef: {name, key}}`,
-- looked up in the referencing resource's namespace.

-- A Secret's values are stored only sealed (platform SecretBox: AES-256-GCM) as one JSON object
-- of key -> value in `data`; `keys` lists the key names for listings, `spec` keeps the rest of the
-- document (type, immutable) without any value. The data API does not expose this table.
CREATE TABLE secrets (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name        text NOT NULL,
  namespace   text NOT NULL DEFAULT 'default',
  type        text NOT NULL DEFAULT 'Opaque',
  keys        text[] NOT NULL DEFAULT '{}',
  data        text,
  labels      jsonb DEFAULT '{}'::jsonb,
  spec        jsonb,
  source      text NOT NULL DEFAULT 'UI',
  agent_id    uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  created_by  uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz
);
CREATE UNIQUE INDEX secrets_namespace_name_key ON secrets (namespace, name) WHERE deleted_at IS NULL;
CREATE TRIGGER secrets_set_updated_at BEFORE INSERT OR UPDATE ON secrets
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- A ConfigMap's values are not secret: `data` holds them as written (key -> string).
CREATE TABLE config_maps (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name        text NOT NULL,
  namespace   text NOT NULL DEFAULT 'default',
  data        jsonb NOT NULL DEFAULT '{}'::jsonb,
  labels      jsonb DEFAULT '{}'::jsonb,
  spec        jsonb,
  source      text NOT NULL DEFAULT 'UI',
  agent_id    uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  created_by  uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz
);
CREATE UNIQUE INDEX config_maps_namespace_name_key ON config_maps (namespace, name) WHERE deleted_at IS NULL;
CREATE TRIGGER config_maps_set_updated_at BEFORE INSERT OR UPDATE ON config_maps
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();
