-- Event fan-out (issue 24, ADR 0021).
--
-- The event queue gives each event name one consumer. A module that wants to react to events
-- another module already consumes (playbooks on check.failed, config.updated, component.unhealthy)
-- no longer writes its own copy trigger: it keeps rows in `event_queue_subscriptions`, and one
-- platform trigger copies each new event, in the same transaction, to `<subscriber>.<event name>`
-- once per matching subscription row. The copy carries the original properties plus `event_id`,
-- `event_name`, `event_created_at` and `subscription_owner` (the subscribing resource's id), so a
-- consumer can make its effect idempotent per (event, owner). Copies are never copied again.
CREATE TABLE event_queue_subscriptions (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- The prefix of the copies' names, consumed as `<subscriber>.*` (e.g. `playbook.trigger`).
  subscriber  text NOT NULL CHECK (subscriber ~ '^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$'),
  -- The exact name of the events copied (e.g. `check.failed`).
  event_name  text NOT NULL CHECK (event_name <> '' AND left(event_name, length(subscriber) + 1) <> subscriber || '.'),
  -- What subscribes (a playbook's id): one copy per owner, so each owner's effect is its own.
  owner_id    uuid NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (event_name, subscriber, owner_id)
);
CREATE INDEX event_queue_subscriptions_owner_idx ON event_queue_subscriptions (subscriber, owner_id);

CREATE FUNCTION event_queue_fan_out() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO event_queue (name, properties, priority, available_at)
  SELECT s.subscriber || '.' || NEW.name,
         NEW.properties || jsonb_build_object(
           'event_id', NEW.id,
           'event_name', NEW.name,
           'event_created_at', NEW.created_at,
           'subscription_owner', s.owner_id),
         NEW.priority, NEW.available_at
  FROM event_queue_subscriptions s
  WHERE s.event_name = NEW.name;
  RETURN NULL;
END;
$$;

CREATE TRIGGER event_queue_subscription_fan_out
  AFTER INSERT ON event_queue
  FOR EACH ROW
  WHEN (NOT (NEW.properties ? 'subscription_owner'))
  EXECUTE FUNCTION event_queue_fan_out();

-- Playbook event triggers: `on.canary[].event` (passed, failed) subscribes to `check.<event>`,
-- `on.config[].event` to `config.<event>`, `on.component[].event` to `component.<event>`. The
-- rows follow the playbook's spec and are gone when it is deleted.
CREATE FUNCTION playbook_event_subscriptions_sync() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM event_queue_subscriptions WHERE subscriber = 'playbook.trigger' AND owner_id = OLD.id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.deleted_at IS NULL AND jsonb_typeof(NEW.spec -> 'on') = 'object' THEN
    INSERT INTO event_queue_subscriptions (subscriber, event_name, owner_id)
    SELECT DISTINCT 'playbook.trigger', kinds.prefix || '.' || (entry ->> 'event'), NEW.id
    FROM (VALUES ('canary', 'check'), ('config', 'config'), ('component', 'component')) AS kinds(key, prefix)
    CROSS JOIN LATERAL jsonb_array_elements(
      CASE WHEN jsonb_typeof(NEW.spec -> 'on' -> kinds.key) = 'array' THEN NEW.spec -> 'on' -> kinds.key
           ELSE '[]'::jsonb END) AS entry
    WHERE jsonb_typeof(entry) = 'object' AND coalesce(entry ->> 'event', '') ~ '^[a-z_]+$'
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER playbooks_event_subscriptions
  AFTER INSERT OR UPDATE OF spec, deleted_at OR DELETE ON playbooks
  FOR EACH ROW EXECUTE FUNCTION playbook_event_subscriptions_sync();

-- Playbooks that exist already.
INSERT INTO event_queue_subscriptions (subscriber, event_name, owner_id)
SELECT DISTINCT 'playbook.trigger', kinds.prefix || '.' || (entry ->> 'event'), p.id
FROM playbooks p
CROSS JOIN (VALUES ('canary', 'check'), ('config', 'config'), ('component', 'component')) AS kinds(key, prefix)
CROSS JOIN LATERAL jsonb_array_elements(
  CASE WHEN jsonb_typeof(p.spec -> 'on' -> kinds.key) = 'array' THEN p.spec -> 'on' -> kinds.key
       ELSE '[]'::jsonb END) AS entry
WHERE p.deleted_at IS NULL AND jsonb_typeof(entry) = 'object' AND coalesce(entry ->> 'event', '') ~ '^[a-z_]+$'
ON CONFLICT DO NOTHING;

-- `config.changed`: a change recorded on a config item, raised only when something subscribes to
-- it (no queue traffic for installations without such a playbook).
CREATE FUNCTION config_changed_event() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM event_queue_subscriptions WHERE event_name = 'config.changed') THEN
    INSERT INTO event_queue (name, properties)
    VALUES ('config.changed', jsonb_build_object('id', NEW.config_id, 'change_id', NEW.id,
                                                 'change_type', NEW.change_type, 'summary', NEW.summary));
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER config_changes_changed_event
  AFTER INSERT ON config_changes
  FOR EACH ROW EXECUTE FUNCTION config_changed_event();

-- A run started by an event exists once per (playbook, event), whichever process handles the
-- copy and however often it is retried.
CREATE UNIQUE INDEX playbook_runs_event_once ON playbook_runs (playbook_id, (request ->> 'event_id'))
  WHERE request ->> 'event_id' IS NOT NULL;
