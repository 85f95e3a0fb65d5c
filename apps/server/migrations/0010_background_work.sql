-- Background work: the durable event queue, job history, schedule claims and worker liveness.
-- Owned by apps/server/src/platform/jobs/. Relies on `agents` and its nil agent row (0001–0009).

-- Event queue --------------------------------------------------------------------------------
-- A row is written in the same transaction as the change that caused it. Consumers claim rows
-- by moving `available_at` forward by a lease (visibility timeout), so a crashed worker's claim
-- lapses on its own; success deletes the row, failure schedules a retry with backoff, and the
-- last allowed failure leaves the row 'failed' with its error (the dead-letter state).
CREATE TABLE event_queue (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (name <> ''),
  properties jsonb NOT NULL DEFAULT '{}'::jsonb,
  error text,
  attempts integer NOT NULL DEFAULT 0,
  last_attempt timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  priority integer NOT NULL DEFAULT 0,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'failed')),
  available_at timestamptz NOT NULL DEFAULT now(),
  locked_by text
);

-- The claim query: pending rows that are visible now, highest priority first, oldest first.
CREATE INDEX event_queue_claim_idx ON event_queue (priority DESC, available_at, created_at)
  WHERE status = 'pending';
CREATE INDEX event_queue_name_status_idx ON event_queue (name, status);

-- Wakes listening consumers once per statement and event name (the payload is the name only,
-- never the properties). NOTIFY is delivered at commit, so an event enqueued inside a business
-- transaction wakes nobody before it is visible.
CREATE FUNCTION event_queue_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('event_queue_updates', names.name)
  FROM (SELECT DISTINCT name FROM new_events) AS names;
  RETURN NULL;
END;
$$;

CREATE TRIGGER event_queue_notify_insert
  AFTER INSERT ON event_queue
  REFERENCING NEW TABLE AS new_events
  FOR EACH STATEMENT EXECUTE FUNCTION event_queue_notify();

-- One row per event name for the settings "Event Queue" page. `pending` counts rows still to
-- be handled (of which `retrying` have failed at least once), `failed` the dead-lettered ones.
CREATE VIEW event_queue_summary AS
SELECT
  name,
  count(*) FILTER (WHERE status = 'pending')::integer AS pending,
  count(*) FILTER (WHERE status = 'pending' AND attempts > 0)::integer AS retrying,
  count(*) FILTER (WHERE status = 'failed')::integer AS failed,
  round(avg(attempts), 2)::double precision AS average_attempts,
  min(created_at) AS first_created_at,
  max(created_at) AS last_created_at,
  min(last_attempt) FILTER (WHERE error IS NOT NULL) AS first_failure,
  max(last_attempt) FILTER (WHERE error IS NOT NULL) AS last_failure,
  mode() WITHIN GROUP (ORDER BY error) AS most_common_error
FROM event_queue
GROUP BY name;

-- Worker liveness ----------------------------------------------------------------------------
-- Each running jobs service heartbeats here; a RUNNING job whose worker stopped heartbeating
-- belongs to a dead process and is marked STOPPED by any surviving replica.
CREATE TABLE job_workers (
  id text PRIMARY KEY,
  hostname text NOT NULL,
  pid integer NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now()
);

-- Job history (settings spec §2.1, §3 "Job history item", §4 "Job status") -------------------
CREATE TABLE job_history (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  agent_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000'
    REFERENCES agents (id),
  resource_id text,
  resource_type text,
  status text NOT NULL CHECK (status IN ('RUNNING', 'SUCCESS', 'WARNING', 'FAILED', 'STOPPED')),
  time_start timestamptz NOT NULL DEFAULT now(),
  time_end timestamptz,
  duration_millis integer,
  success_count integer NOT NULL DEFAULT 0,
  error_count integer NOT NULL DEFAULT 0,
  details jsonb NOT NULL DEFAULT '{}'::jsonb,
  hostname text,
  worker_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The list is sorted by time_start descending and filtered by name, resource, status and a
-- time range; the resource editors' tab lists one resource.
CREATE INDEX job_history_time_start_idx ON job_history (time_start DESC);
CREATE INDEX job_history_name_idx ON job_history (name, time_start DESC);
CREATE INDEX job_history_resource_idx ON job_history (resource_id, resource_type, time_start DESC);
CREATE INDEX job_history_resource_type_idx ON job_history (resource_type, time_start DESC);
CREATE INDEX job_history_status_idx ON job_history (status, time_start DESC);
CREATE INDEX job_history_agent_idx ON job_history (agent_id);
CREATE INDEX job_history_running_idx ON job_history (worker_id) WHERE status = 'RUNNING';

-- Distinct job names for the "Job Name" filter. The recursive walk hops along
-- job_history_name_idx one name at a time, so it stays cheap with millions of rows.
CREATE VIEW job_history_names AS
WITH RECURSIVE names (name) AS (
  (SELECT name FROM job_history ORDER BY name LIMIT 1)
  UNION ALL
  SELECT (SELECT j.name FROM job_history j WHERE j.name > names.name ORDER BY j.name LIMIT 1)
  FROM names
  WHERE names.name IS NOT NULL
)
SELECT name FROM names WHERE name IS NOT NULL;

-- Schedules ----------------------------------------------------------------------------------
-- One row per named schedule. A replica runs a tick only after moving next_run_at past now()
-- under a row lock, so each tick runs once across replicas; locked_by/locked_until stop the
-- next tick from overlapping a run still in progress and lapse if its process dies.
CREATE TABLE job_schedules (
  name text PRIMARY KEY,
  schedule text NOT NULL,
  next_run_at timestamptz NOT NULL,
  last_run_at timestamptz,
  last_finished_at timestamptz,
  last_status text CHECK (last_status IN ('SUCCESS', 'WARNING', 'FAILED', 'STOPPED')),
  last_duration_millis integer,
  locked_by text,
  locked_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX job_schedules_next_run_at_idx ON job_schedules (next_run_at);
