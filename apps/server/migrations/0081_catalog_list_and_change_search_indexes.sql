-- Catalog list and change search at a million items and ten million changes (issue 9).

-- The per-type list (GET /configs with type, health/status, tag or label filters, a search, live
-- items): the count is an index-only scan of the type's live items, filtering on the included
-- columns without reading the table; the id lets the change search join live items of a type
-- without reading the table either. updated_at stays out, so a scrape's touch of unchanged items
-- remains a HOT update.
CREATE INDEX config_items_live_type_health_status_idx ON config_items (type, health, status)
  INCLUDE (id, name, namespace, description, tags, labels) WHERE deleted_at IS NULL;

-- The list's search is a substring match (ILIKE '%…%') over name, type, description and
-- namespace; name has its trigram index since 0004. Type is left out: the list is per type, so
-- the web drops the type arm when it can decide it (features/catalog/lib/catalog-query.ts), and a
-- trigram index on type answers `type = …` too, which keeps the planner from combining the
-- search's bitmap with the type's.
CREATE INDEX config_items_description_trgm_idx ON config_items USING gin (description gin_trgm_ops);
CREATE INDEX config_items_namespace_trgm_idx ON config_items USING gin (namespace gin_trgm_ops);

-- Change search by change type and severity over a time range, newest first: read in order and
-- counted from the index alone (config_id joins the item).
CREATE INDEX config_changes_type_severity_created_at_idx ON config_changes (change_type, severity, created_at)
  INCLUDE (config_id);
