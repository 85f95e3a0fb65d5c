-- related_configs_recursive, same answer: the related ids of every node are aggregated once
-- instead of by a subquery per node over all edges (1,341 nodes at depth 5 took seconds).
CREATE OR REPLACE FUNCTION related_configs_recursive(
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
  ),
  -- Once for all nodes: a subquery per node over the edges was quadratic in the nodes found.
  related AS (
    SELECT e.src, array_agg(DISTINCT e.dst::text) AS ids
    FROM edges e JOIN config_items t ON t.id = e.dst
    WHERE include_deleted_configs OR t.deleted_at IS NULL
    GROUP BY e.src
  )
  SELECT
    ci.id, ci.name, ci.type,
    related.ids,
    ci.tags,
    config_item_change_count(ci.id),
    config_item_analysis_counts(ci.id),
    ci.cost_per_minute, ci.cost_total_1d, ci.cost_total_7d, ci.cost_total_30d,
    ci.created_at, ci.updated_at, ci.deleted_at, ci.agent_id, ci.health, ci.ready, ci.status, ci.path
  FROM ranked
  JOIN config_items ci ON ci.id = ranked.node
  LEFT JOIN related ON related.src = ci.id
  WHERE include_deleted_configs OR ci.deleted_at IS NULL
  ORDER BY ranked.depth, ci.name;
END;
$$;
