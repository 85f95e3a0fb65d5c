-- Events are copied to `notification.<name>` (0130) only when a live notification subscribes to
-- that event: without one, the copy would only be dequeued and dropped, doubling the queue's
-- work for every check and config event of an installation that sends no notifications. A rule
-- applies to events raised after it exists. (`events @>` uses 0009's GIN index.)
CREATE OR REPLACE FUNCTION notification_event_fan_out() RETURNS trigger
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
  IF NOT EXISTS (SELECT 1 FROM notifications WHERE deleted_at IS NULL AND events @> ARRAY[copy_name]) THEN
    RETURN NULL;
  END IF;
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
