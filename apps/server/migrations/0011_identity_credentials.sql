-- Password credentials of people who sign in with the self-service identity system.
-- Kept apart from `people` so that no read of people (data API, embeds) can ever see a hash.
CREATE TABLE identity_credentials (
  person_id uuid PRIMARY KEY REFERENCES people (id) ON DELETE CASCADE,
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
