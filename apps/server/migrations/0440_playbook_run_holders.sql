-- The process holding a run (issue 24, ADR 0042). Each time the runner takes a run from the event
-- queue it writes a fresh holder here, replacing the one before; every action claim and every
-- write of an action's outcome, an artifact or the run's status checks, with the row locked FOR
-- SHARE, that the holder is still its own. A process that stalled past its queue lease and was
-- replaced finds its holder gone and stops instead of running the next action or overwriting the
-- outcome the new holder wrote. Internal to the runner: not exposed through the data API.
CREATE TABLE playbook_run_holders (
  run_id   uuid PRIMARY KEY REFERENCES playbook_runs (id) ON DELETE CASCADE,
  holder   uuid NOT NULL,
  taken_at timestamptz NOT NULL DEFAULT now()
);
