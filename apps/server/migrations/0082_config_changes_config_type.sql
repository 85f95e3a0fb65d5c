-- Change search by config type (POST /api/catalog/changes with config_type) at ten million
-- changes: the item's type is kept on each change, so the counts and the page read one index
-- range (type, change type, severity, time) instead of joining every candidate change to its item
-- (0081's index gave the candidates of a change type and severity, 175k in a week at the bench's
-- size, each looked up in config_items for its type: 150 ms for the count alone).
--
-- config_type always equals the type of the change's item: set from config_items when a change is
-- written (whatever the writer sent), and carried to the item's changes when an item's type is
-- updated. Bulk loads with session_replication_role = replica (restores, the benchmark's seed) skip
-- the trigger and must write the column themselves, as a dump does.
ALTER TABLE config_changes ADD COLUMN config_type text;

UPDATE config_changes c SET config_type = ci.type FROM config_items ci WHERE ci.id = c.config_id;

CREATE FUNCTION config_changes_set_config_type() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.config_type := (SELECT ci.type FROM config_items ci WHERE ci.id = NEW.config_id);
  RETURN NEW;
END;
$$;

CREATE TRIGGER config_changes_set_config_type BEFORE INSERT OR UPDATE OF config_id, config_type
  ON config_changes FOR EACH ROW EXECUTE FUNCTION config_changes_set_config_type();

CREATE FUNCTION config_items_type_to_changes() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE config_changes SET config_type = NEW.type WHERE config_id = NEW.id;
  RETURN NULL;
END;
$$;

CREATE TRIGGER config_items_type_to_changes AFTER UPDATE OF type ON config_items
  FOR EACH ROW WHEN (OLD.type IS DISTINCT FROM NEW.type) EXECUTE FUNCTION config_items_type_to_changes();

-- The change search of a config type: equality on type, change type and severity, a time range,
-- newest first; config_id (included) tells whether the item is deleted without reading the change.
CREATE INDEX config_changes_config_type_change_type_severity_created_at_idx
  ON config_changes (config_type, change_type, severity, created_at) INCLUDE (config_id);

-- Live items only (the default): the counts leave out the changes of deleted items, read from
-- here (all of them, or a type's), instead of looking up the item of every change.
CREATE INDEX config_items_deleted_type_id_idx ON config_items (type, id) WHERE deleted_at IS NOT NULL;
