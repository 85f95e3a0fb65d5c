-- Sign-in state of the auth module: sessions, self-service flows, one-time codes, verified
-- addresses and login throttling. None of these tables is exposed by the data API.

-- A browser session. Only a SHA-256 of the cookie value is stored: the value is 32 random
-- bytes, so a fast hash is enough to make a leaked table useless.
CREATE TABLE auth_sessions (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  token_hash       text NOT NULL UNIQUE,
  person_id        uuid NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  aal              text NOT NULL DEFAULT 'aal1' CHECK (aal IN ('aal1', 'aal2')),
  -- [{method, aal, completed_at}] in the order the factors were completed.
  methods          jsonb NOT NULL DEFAULT '[]'::jsonb,
  authenticated_at timestamptz NOT NULL DEFAULT now(),
  issued_at        timestamptz NOT NULL DEFAULT now(),
  expires_at       timestamptz NOT NULL,
  -- Set when the person's privileges change: the next request swaps the cookie for a new one.
  rotate_required  boolean NOT NULL DEFAULT false,
  revoked_at       timestamptz,
  ip               text,
  user_agent       text
);
CREATE INDEX auth_sessions_person_id_idx ON auth_sessions (person_id);
CREATE INDEX auth_sessions_expires_at_idx ON auth_sessions (expires_at);

-- A self-service flow (login, registration, recovery, verification, settings). ui is what the
-- screens render; data holds server-side secrets of the flow and is never sent out.
CREATE TABLE auth_flows (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  type          text NOT NULL
    CHECK (type IN ('login', 'registration', 'recovery', 'verification', 'settings')),
  state         text,
  -- The identity the flow acts on (settings, refresh and second-factor logins, recovery).
  person_id     uuid REFERENCES people (id) ON DELETE CASCADE,
  return_to     text,
  request_url   text NOT NULL,
  refresh       boolean NOT NULL DEFAULT false,
  requested_aal text NOT NULL DEFAULT 'aal1' CHECK (requested_aal IN ('aal1', 'aal2')),
  -- SHA-256 of the browser's anti-CSRF cookie the flow is bound to.
  csrf_binding  text NOT NULL,
  ui            jsonb NOT NULL,
  data          jsonb NOT NULL DEFAULT '{}'::jsonb,
  issued_at     timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_flows_expires_at_idx ON auth_flows (expires_at);
CREATE INDEX auth_flows_person_id_idx ON auth_flows (person_id);
CREATE TRIGGER auth_flows_set_updated_at BEFORE INSERT OR UPDATE ON auth_flows
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- One-time secrets sent by email or handed out as invite links: a short code typed into a
-- flow (tried a few times at most) or a long link token. Both stored as hashes only.
CREATE TABLE auth_codes (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind       text NOT NULL CHECK (kind IN ('recovery', 'verification')),
  flow_id    uuid REFERENCES auth_flows (id) ON DELETE CASCADE,
  person_id  uuid REFERENCES people (id) ON DELETE CASCADE,
  address    text NOT NULL,
  code_hash  text,
  token_hash text UNIQUE,
  attempts   integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz
);
CREATE INDEX auth_codes_flow_id_idx ON auth_codes (flow_id);
CREATE INDEX auth_codes_person_id_idx ON auth_codes (person_id);

-- Whether a person's email address has been proven (verification flow, invite, or a
-- provider that vouches for it).
CREATE TABLE auth_verifiable_addresses (
  person_id   uuid PRIMARY KEY REFERENCES people (id) ON DELETE CASCADE,
  value       text NOT NULL,
  verified    boolean NOT NULL DEFAULT false,
  verified_at timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE TRIGGER auth_verifiable_addresses_set_updated_at BEFORE INSERT OR UPDATE ON auth_verifiable_addresses
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Failed sign-in attempts per account ('account:<email>') and per address ('address:<ip>'),
-- shared by every replica so the limit holds across a load balancer.
CREATE TABLE auth_login_throttle (
  key               text PRIMARY KEY,
  failures          integer NOT NULL DEFAULT 0,
  window_started_at timestamptz NOT NULL DEFAULT now(),
  locked_until      timestamptz
);
