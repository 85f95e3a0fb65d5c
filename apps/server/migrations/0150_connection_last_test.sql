-- The last test of a connection (POST /api/connection/test/{id}) sets its health colour in the
-- list: healthy (green), unhealthy (red), unknown (gray: cannot be tested from here). The
-- message says what failed; it never holds a credential.
ALTER TABLE connections
  ADD COLUMN last_test_status text CHECK (last_test_status IN ('healthy', 'unhealthy', 'unknown')),
  ADD COLUMN last_test_at timestamptz,
  ADD COLUMN last_test_message text;
