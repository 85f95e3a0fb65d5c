-- Catalog functions and read views: the recursive relationship walk and the location-based
-- parent lookup clients call through rpc/, plus the list views of the catalog pages.
-- Owned by apps/server/src/modules/catalog/.

-- Where an item lives, as the external ids of the things containing it (a scraper's
-- `locations`): a parent is any item whose external_id holds one of these strings.
CREATE TABLE config_locations (
  id         uuid NOT NULL REFERENCES config_items (id) ON DELETE CASCADE,
  location   text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (id, location)
);
CREATE INDEX config_locations_location_idx ON config_locations (location text_pattern_ops);

-- Open findings per analysis type, and changes of the last 7 days, per item: the `analysis`
-- and `changes` columns of the relationship graph.
CREATE FUNCTION config_item_change_count(item uuid) RETURNS bigint
LANGUAGE sql STABLE AS $$
  SELECT count(*) FROM config_changes c
  WHERE c.config_id = item AND c.created_at > now() - interval '7 days'
$$;

CREATE FUNCTION config_item_analysis_counts(item uuid) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT coalesce(jsonb_object_agg(t.analysis_type, t.n), '{}'::jsonb)
  FROM (
    SELECT coalesce(a.analysis_type, 'other') AS analysis_type, count(*) AS n
    FROM config_analysis a
    WHERE a.config_id = item AND coalesce(a.status, 'open') = 'open'
    GROUP BY 1
  ) t
$$;

-- Items reachable from config_id along config_relationships, up to max_depth hops:
-- 'outgoing' follows config_id → related_id, 'incoming' the reverse, 'all' both. A relation
-- argument of 'hard' keeps only edges whose relation is 'hard'; 'both' keeps every edge. The
-- item's own ancestors (parent_id chain) are always part of the graph, as incoming edges.
-- Each row carries related_ids: the items it points to within the walked graph (those shown).
CREATE FUNCTION related_configs_recursive(
  config_id uuid,
  type_filter text DEFAULT 'outgoing',
  include_deleted_configs boolean DEFAULT false,
  max_depth integer DEFAULT 10,
  incoming_relation text DEFAULT 'both',
  outgoing_relation text DEFAULT 'both'
) RETURNS TABLE (
  id uuid,
  name text,
  type text,
  related_ids text[],
  tags jsonb,
  changes bigint,
  analysis jsonb,
  cost_per_minute numeric(16, 4),
  cost_total_1d numeric(16, 4),
  cost_total_7d numeric(16, 4),
  cost_total_30d numeric(16, 4),
  created_at timestamptz,
  updated_at timestamptz,
  deleted_at timestamptz,
  agent_id uuid,
  health text,
  ready boolean,
  status text,
  path text
)
LANGUAGE plpgsql STABLE AS $$
DECLARE
  direction text := coalesce(nullif(type_filter, ''), 'all');
  depth_limit integer := coalesce(max_depth, 10);
BEGIN
  IF direction NOT IN ('incoming', 'outgoing', 'all') THEN
    RAISE EXCEPTION 'Invalid type_filter value. Allowed values are: ''incoming'', ''outgoing'', ''all'''
      USING ERRCODE = '22023';
  END IF;
  IF coalesce(incoming_relation, 'both') NOT IN ('both', 'hard', 'soft')
     OR coalesce(outgoing_relation, 'both') NOT IN ('both', 'hard', 'soft') THEN
    RAISE EXCEPTION 'Invalid relation value. Allowed values are: ''both'', ''hard'''
      USING ERRCODE = '22023';
  END IF;
  IF depth_limit < 0 THEN depth_limit := 10; END IF;

  RETURN QUERY
  WITH RECURSIVE
  outgoing (src, dst, depth, visited) AS (
    SELECT r.config_id, r.related_id, 1, ARRAY[r.config_id, r.related_id]
    FROM config_relationships r
    WHERE direction IN ('outgoing', 'all') AND depth_limit > 0
      AND r.config_id = related_configs_recursive.config_id AND r.deleted_at IS NULL
      AND (coalesce(outgoing_relation, 'both') <> 'hard' OR r.relation = 'hard')
    UNION ALL
    SELECT r.config_id, r.related_id, o.depth + 1, o.visited || r.related_id
    FROM outgoing o
    JOIN config_relationships r ON r.config_id = o.dst AND r.deleted_at IS NULL
    WHERE o.depth < depth_limit AND NOT r.related_id = ANY (o.visited)
      AND (coalesce(outgoing_relation, 'both') <> 'hard' OR r.relation = 'hard')
  ),
  incoming (src, dst, depth, visited) AS (
    SELECT r.config_id, r.related_id, 1, ARRAY[r.related_id, r.config_id]
    FROM config_relationships r
    WHERE direction IN ('incoming', 'all') AND depth_limit > 0
      AND r.related_id = related_configs_recursive.config_id AND r.deleted_at IS NULL
      AND (coalesce(incoming_relation, 'both') <> 'hard' OR r.relation = 'hard')
    UNION ALL
    SELECT r.config_id, r.related_id, i.depth + 1, i.visited || r.config_id
    FROM incoming i
    JOIN config_relationships r ON r.related_id = i.src AND r.deleted_at IS NULL
    WHERE i.depth < depth_limit AND NOT r.config_id = ANY (i.visited)
      AND (coalesce(incoming_relation, 'both') <> 'hard' OR r.relation = 'hard')
  ),
  ancestors (src, dst, depth) AS (
    SELECT p.parent_id, p.id, 1
    FROM config_items p
    WHERE p.id = related_configs_recursive.config_id AND p.parent_id IS NOT NULL AND depth_limit > 0
    UNION ALL
    SELECT p.parent_id, p.id, a.depth + 1
    FROM ancestors a
    JOIN config_items p ON p.id = a.src
    WHERE p.parent_id IS NOT NULL AND a.depth < depth_limit
  ),
  edges (src, dst, depth) AS (
    SELECT o.src, o.dst, o.depth FROM outgoing o
    UNION SELECT i.src, i.dst, i.depth FROM incoming i
    UNION SELECT a.src, a.dst, a.depth FROM ancestors a
  ),
  nodes (node, depth) AS (
    SELECT related_configs_recursive.config_id, 0
    UNION ALL SELECT e.src, e.depth FROM edges e
    UNION ALL SELECT e.dst, e.depth FROM edges e
  ),
  ranked AS (
    SELECT n.node, min(n.depth) AS depth FROM nodes n GROUP BY n.node
  )
  SELECT
    ci.id, ci.name, ci.type,
    (SELECT array_agg(DISTINCT e.dst::text) FROM edges e JOIN config_items t ON t.id = e.dst
     WHERE e.src = ci.id AND (include_deleted_configs OR t.deleted_at IS NULL)),
    ci.tags,
    config_item_change_count(ci.id),
    config_item_analysis_counts(ci.id),
    ci.cost_per_minute, ci.cost_total_1d, ci.cost_total_7d, ci.cost_total_30d,
    ci.created_at, ci.updated_at, ci.deleted_at, ci.agent_id, ci.health, ci.ready, ci.status, ci.path
  FROM ranked
  JOIN config_items ci ON ci.id = ranked.node
  WHERE include_deleted_configs OR ci.deleted_at IS NULL
  ORDER BY ranked.depth, ci.name;
END;
$$;

-- Parents of an item by location: the items whose external_id holds one of its locations,
-- outermost first (the shortest location is the widest container). alias_prefix keeps only
-- locations starting with it.
CREATE FUNCTION get_parents_by_location(
  config_id uuid,
  alias_prefix text DEFAULT NULL,
  include_deleted boolean DEFAULT false
) RETURNS TABLE (id uuid, name text, type text)
LANGUAGE sql STABLE AS $$
  SELECT p.id, p.name, p.type
  FROM (
    SELECT ci.id, min(length(l.location)) AS depth
    FROM config_locations l
    JOIN config_items ci ON l.location = ANY (ci.external_id)
    WHERE l.id = get_parents_by_location.config_id
      AND ci.id <> get_parents_by_location.config_id
      AND (alias_prefix IS NULL OR alias_prefix = '' OR l.location LIKE alias_prefix || '%')
    GROUP BY ci.id
  ) found
  JOIN config_items p ON p.id = found.id
  WHERE include_deleted OR p.deleted_at IS NULL
  ORDER BY found.depth, p.name
$$;

-- Children by location: items with a location under one of this item's external ids.
CREATE FUNCTION get_children_by_location(
  config_id uuid,
  alias_prefix text DEFAULT NULL,
  include_deleted boolean DEFAULT false
) RETURNS TABLE (id uuid, name text, type text)
LANGUAGE sql STABLE AS $$
  SELECT c.id, c.name, c.type
  FROM config_items c
  WHERE c.id IN (
      SELECT l.id
      FROM config_items parent
      CROSS JOIN LATERAL unnest(parent.external_id) AS ext(value)
      JOIN config_locations l ON l.location LIKE ext.value || '%'
      WHERE parent.id = get_children_by_location.config_id
        AND (alias_prefix IS NULL OR alias_prefix = '' OR ext.value LIKE alias_prefix || '%')
    )
    AND c.id <> get_children_by_location.config_id
    AND (include_deleted OR c.deleted_at IS NULL)
  ORDER BY c.name
$$;

-- List views of the catalog pages ---------------------------------------------------------

CREATE VIEW config_tags WITH (security_invoker = true) AS
SELECT DISTINCT t.key, t.value
FROM config_items ci CROSS JOIN LATERAL jsonb_each_text(coalesce(ci.tags, '{}'::jsonb)) AS t
WHERE ci.deleted_at IS NULL;

CREATE VIEW config_labels WITH (security_invoker = true) AS
SELECT DISTINCT l.key, l.value
FROM config_items ci CROSS JOIN LATERAL jsonb_each_text(coalesce(ci.labels, '{}'::jsonb)) AS l
WHERE ci.deleted_at IS NULL;

CREATE VIEW config_tags_labels_keys WITH (security_invoker = true) AS
SELECT DISTINCT 'tag:' || k.key AS key
FROM config_items ci CROSS JOIN LATERAL jsonb_object_keys(coalesce(ci.tags, '{}'::jsonb)) AS k(key)
WHERE ci.deleted_at IS NULL
UNION
SELECT DISTINCT 'label:' || k.key
FROM config_items ci CROSS JOIN LATERAL jsonb_object_keys(coalesce(ci.labels, '{}'::jsonb)) AS k(key)
WHERE ci.deleted_at IS NULL;

CREATE VIEW config_analysis_items WITH (security_invoker = true) AS
SELECT a.*, ci.type AS config_type, ci.config_class
FROM config_analysis a
LEFT JOIN config_items ci ON ci.id = a.config_id;

-- Scrapers with the outcome of their last run, for /catalog/scrapers.
CREATE VIEW config_scrapers_with_status WITH (security_invoker = true) AS
SELECT s.*,
       last_run.status AS job_status,
       last_run.time_start AS job_time_start,
       last_run.details AS job_details,
       last_run.success_count AS job_success_count,
       last_run.error_count AS job_error_count
FROM config_scrapers s
LEFT JOIN LATERAL (
  SELECT h.status, h.time_start, h.details, h.success_count, h.error_count
  FROM job_history h
  WHERE h.resource_type = 'config_scraper' AND h.resource_id = s.id::text AND h.status <> 'RUNNING'
  ORDER BY h.time_start DESC
  LIMIT 1
) last_run ON true;
