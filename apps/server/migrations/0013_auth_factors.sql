-- Second factors and linked sign-in providers of the auth module. None of these tables is
-- exposed by the data API.

-- A TOTP authenticator app. The secret must be readable to check codes, so it cannot be hashed.
-- last_time_step refuses a code that was already used (replay).
CREATE TABLE auth_totp (
  person_id      uuid PRIMARY KEY REFERENCES people (id) ON DELETE CASCADE,
  secret         text NOT NULL,
  last_time_step bigint,
  created_at     timestamptz NOT NULL DEFAULT now()
);

-- Backup recovery codes: salted SHA-256 of each, usable once.
CREATE TABLE auth_lookup_secrets (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  person_id  uuid NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  code_hash  text NOT NULL,
  used_at    timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_lookup_secrets_person_id_idx ON auth_lookup_secrets (person_id);

-- Passkeys and security keys (WebAuthn). id is the credential id, base64url.
CREATE TABLE auth_webauthn_credentials (
  id           text PRIMARY KEY,
  person_id    uuid NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  public_key   bytea NOT NULL,
  counter      bigint NOT NULL DEFAULT 0,
  transports   text[] NOT NULL DEFAULT '{}',
  display_name text NOT NULL,
  device_type  text,
  backed_up    boolean NOT NULL DEFAULT false,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE INDEX auth_webauthn_credentials_person_id_idx ON auth_webauthn_credentials (person_id);

-- A person's account at an OpenID Connect provider, by the provider's stable subject.
CREATE TABLE auth_oidc_links (
  provider   text NOT NULL,
  issuer     text NOT NULL,
  subject    text NOT NULL,
  person_id  uuid NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  email      text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (issuer, subject)
);
CREATE INDEX auth_oidc_links_person_id_idx ON auth_oidc_links (person_id);
