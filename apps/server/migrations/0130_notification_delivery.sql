-- Notification delivery (issue 25).
--
-- The event queue gives each event name one consumer, and check.* / config.* events already have
-- theirs (incident rules, ...). So every event a notification may subscribe to is copied, in the
-- same transaction as the change that caused it, to `notification.<name>`: the notifications
-- module consumes those, and the original consumers are untouched.
CREATE FUNCTION notification_event_fan_out() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  copy_name text := CASE
    -- The incidents module's names (migration 0031) in the ecosystem's notification terms.
    WHEN NEW.name = 'incident.status_updated' THEN 'incident.status.' || coalesce(NEW.properties ->> 'status', 'unknown')
    WHEN NEW.name = 'responder.created' THEN 'incident.responder.added'
    WHEN NEW.name = 'responder.commented' THEN 'incident.comment.added'
    ELSE NEW.name
  END;
BEGIN
  INSERT INTO event_queue (name, properties, priority, available_at)
  VALUES ('notification.' || copy_name,
          NEW.properties
            || CASE WHEN NEW.name IN ('responder.created', 'responder.commented')
                    THEN jsonb_build_object('id', NEW.properties -> 'incident_id') ELSE '{}'::jsonb END
            || jsonb_build_object('event_id', NEW.id, 'event_created_at', NEW.created_at),
          NEW.priority, NEW.available_at);
  RETURN NULL;
END;
$$;

CREATE TRIGGER event_queue_notification_fan_out
  AFTER INSERT ON event_queue
  FOR EACH ROW
  WHEN (NEW.name ~ '^(check\.(passed|failed)|config\.[a-z]+|component\.[a-z]+|incident\.(created|status_updated|status\.[a-z_]+)|responder\.(created|commented)|playbook\.(run\.[a-z_]+|approval\.inserted))$')
  EXECUTE FUNCTION notification_event_fan_out();

-- One send-history row per (notification, event, recipient): the idempotency key makes a retried
-- or redelivered event update its row instead of sending twice. `attempts` lists each try
-- ({at, status, error}); `recipient` names where it went (never with credentials).
ALTER TABLE notification_send_history
  ADD COLUMN idempotency_key text,
  ADD COLUMN recipient text,
  ADD COLUMN title text,
  ADD COLUMN group_key text,
  ADD COLUMN event_id uuid,
  ADD COLUMN attempts jsonb NOT NULL DEFAULT '[]'::jsonb,
  ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();
CREATE UNIQUE INDEX notification_send_history_idempotency_key
  ON notification_send_history (idempotency_key);
CREATE INDEX notification_send_history_group_idx
  ON notification_send_history (notification_id, group_key, created_at DESC) WHERE group_key IS NOT NULL;
CREATE INDEX notification_send_history_repeat_idx
  ON notification_send_history (notification_id, resource_id, source_event, created_at DESC);

-- The summary view gains the recipient and title (columns appended at the end).
CREATE OR REPLACE VIEW notification_send_history_summary WITH (security_invoker = true) AS
SELECT s.id, s.notification_id, s.parent_id, s.status, s.source_event, s.resource_id, s.resource_type,
       s.count, s.first_observed, s.error, s.duration_millis, s.person_id, s.team_id, s.connection_id,
       s.playbook_run_id, s.silenced_by, s.created_at,
       CASE WHEN n.id IS NULL THEN NULL
            ELSE jsonb_build_object('id', n.id, 'name', n.name, 'namespace', n.namespace) END AS notification,
       coalesce(
         (SELECT jsonb_build_object('id', ci.id, 'name', ci.name, 'type', ci.type, 'config_class', ci.config_class)
            FROM config_items ci WHERE s.resource_type IN ('config', 'config_item') AND ci.id = s.resource_id),
         (SELECT jsonb_build_object('id', co.id, 'name', co.name, 'type', co.type, 'icon', co.icon)
            FROM components co WHERE s.resource_type = 'component' AND co.id = s.resource_id),
         (SELECT jsonb_build_object('id', ck.id, 'name', ck.name, 'type', ck.type, 'canary_id', ck.canary_id)
            FROM checks ck WHERE s.resource_type = 'check' AND ck.id = s.resource_id),
         (SELECT jsonb_build_object('id', ca.id, 'name', ca.name)
            FROM canaries ca WHERE s.resource_type = 'canary' AND ca.id = s.resource_id)
       ) AS resource,
       s.recipient, s.title
FROM notification_send_history s
LEFT JOIN notifications n ON n.id = s.notification_id;
