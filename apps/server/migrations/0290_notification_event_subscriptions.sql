-- Notifications move onto the platform's event fan-out (ADR 0021, issue 25).
--
-- Until now migrations 0130/0131 kept a trigger of their own that copied every notifiable event to
-- `notification.<name>`. Instead, each live notification now keeps one `event_queue_subscriptions`
-- row per queue event its `events` need (subscriber `notification`, owner the notification's id),
-- and the platform trigger (0210) makes one copy per notification, `notification.<queue name>`,
-- with `subscription_owner`. The module maps the queue's names to the ecosystem's notification
-- names (incident.status_updated → incident.status.<status>, responder.created →
-- incident.responder.added, responder.commented → incident.comment.added) when it consumes a copy.

-- The queue event a notification event name is raised as (NULL: not a notifiable event).
CREATE FUNCTION notification_queue_event_name(event text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN event ~ '^incident\.status\.[a-z_]+$' THEN 'incident.status_updated'
    WHEN event = 'incident.responder.added' THEN 'responder.created'
    WHEN event = 'incident.comment.added' THEN 'responder.commented'
    WHEN event ~ '^(check\.(passed|failed)|config\.[a-z]+|component\.[a-z]+|incident\.created|playbook\.(run\.[a-z_]+|approval\.inserted))$'
      THEN event
  END
$$;

CREATE FUNCTION notification_event_subscriptions_sync() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM event_queue_subscriptions WHERE subscriber = 'notification' AND owner_id = OLD.id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.deleted_at IS NULL THEN
    INSERT INTO event_queue_subscriptions (subscriber, event_name, owner_id)
    SELECT DISTINCT 'notification', notification_queue_event_name(event), NEW.id
    FROM unnest(coalesce(NEW.events, ARRAY[]::text[])) AS event
    WHERE notification_queue_event_name(event) IS NOT NULL
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER notifications_event_subscriptions
  AFTER INSERT OR UPDATE OF events, deleted_at OR DELETE ON notifications
  FOR EACH ROW EXECUTE FUNCTION notification_event_subscriptions_sync();

-- Notifications that exist already.
INSERT INTO event_queue_subscriptions (subscriber, event_name, owner_id)
SELECT DISTINCT 'notification', notification_queue_event_name(event), n.id
FROM notifications n CROSS JOIN LATERAL unnest(coalesce(n.events, ARRAY[]::text[])) AS event
WHERE n.deleted_at IS NULL AND notification_queue_event_name(event) IS NOT NULL
ON CONFLICT DO NOTHING;

-- The old copy trigger goes. Copies it made that are still queued keep being consumed (the
-- module handles a copy without `subscription_owner` for every notification of its name).
DROP TRIGGER event_queue_notification_fan_out ON event_queue;
DROP FUNCTION notification_event_fan_out();
