-- The catalog summary read config_item_summary in 1 s at a million items, of which the read took
-- 0.2 ms: the rest was JIT compilation. The view's newest-times lookup (a LATERAL over
-- config_items, run only for the rare group whose newest rows may have been removed) is costed
-- by the planner as a scan of the group's items for every group (~5M for 100 groups), above
-- jit_above_cost, so PostgreSQL compiled the statement each time. The lookup is now a function
-- called (in a CASE, so only for those groups; a LATERAL's condition became a join filter that
-- called it for every group): the same answer, costed as the call it is. The fold does the same.

CREATE FUNCTION config_item_group_newest(
  group_type text, group_class text, group_health text, group_status text, group_deleted boolean,
  OUT created_at timestamptz, OUT updated_at timestamptz)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  SELECT max(ci.created_at), max(ci.updated_at) INTO created_at, updated_at
    FROM config_items ci
   WHERE ci.type = group_type
     AND ci.config_class IS NOT DISTINCT FROM group_class
     AND ci.health IS NOT DISTINCT FROM group_health
     AND ci.status IS NOT DISTINCT FROM group_status
     AND (ci.deleted_at IS NOT NULL) = group_deleted;
END;
$$;

CREATE OR REPLACE VIEW config_item_summary WITH (security_invoker = true) AS
WITH groups AS (
  SELECT config_class, type, health, status, deleted, sum(count) AS count,
         sum(cost_per_minute) AS cost_per_minute, sum(cost_per_minute_n) AS cost_per_minute_n,
         sum(cost_total_1d) AS cost_total_1d, sum(cost_total_1d_n) AS cost_total_1d_n,
         sum(cost_total_7d) AS cost_total_7d, sum(cost_total_7d_n) AS cost_total_7d_n,
         sum(cost_total_30d) AS cost_total_30d, sum(cost_total_30d_n) AS cost_total_30d_n,
         max(created_at) AS created_at, max(updated_at) AS updated_at,
         coalesce(max(removed_created_at) >= max(created_at), false)
           OR coalesce(max(removed_updated_at) >= max(updated_at), false) AS uncertain,
         count(*) AS rows
    FROM config_item_summary_deltas
   GROUP BY config_class, type, health, status, deleted
)
SELECT g.config_class, g.type, g.health, g.status, g.deleted, g.count::bigint AS count,
       CASE WHEN g.cost_per_minute_n > 0 THEN g.cost_per_minute END AS cost_per_minute,
       CASE WHEN g.cost_total_1d_n > 0 THEN g.cost_total_1d END AS cost_total_1d,
       CASE WHEN g.cost_total_7d_n > 0 THEN g.cost_total_7d END AS cost_total_7d,
       CASE WHEN g.cost_total_30d_n > 0 THEN g.cost_total_30d END AS cost_total_30d,
       CASE WHEN g.uncertain
            THEN (config_item_group_newest(g.type, g.config_class, g.health, g.status, g.deleted)).created_at
            ELSE g.created_at END AS created_at,
       CASE WHEN g.uncertain
            THEN (config_item_group_newest(g.type, g.config_class, g.health, g.status, g.deleted)).updated_at
            ELSE g.updated_at END AS updated_at,
       g.uncertain, g.rows
  FROM groups g
 WHERE g.count <> 0;

CREATE OR REPLACE FUNCTION fold_config_item_summary() RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  folded bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('fold_config_item_summary'));
  WITH moved AS (
    DELETE FROM config_item_summary_deltas RETURNING *
  ), groups AS (
    SELECT config_class, type, health, status, deleted, sum(count) AS count,
           sum(cost_per_minute) AS cost_per_minute, sum(cost_per_minute_n) AS cost_per_minute_n,
           sum(cost_total_1d) AS cost_total_1d, sum(cost_total_1d_n) AS cost_total_1d_n,
           sum(cost_total_7d) AS cost_total_7d, sum(cost_total_7d_n) AS cost_total_7d_n,
           sum(cost_total_30d) AS cost_total_30d, sum(cost_total_30d_n) AS cost_total_30d_n,
           max(created_at) AS created_at, max(updated_at) AS updated_at,
           coalesce(max(removed_created_at) >= max(created_at), false)
             OR coalesce(max(removed_updated_at) >= max(updated_at), false) AS uncertain,
           count(*) AS rows
      FROM moved
     GROUP BY config_class, type, health, status, deleted
  ), inserted AS (
    INSERT INTO config_item_summary_deltas (config_class, type, health, status, deleted, count,
      cost_per_minute, cost_per_minute_n, cost_total_1d, cost_total_1d_n, cost_total_7d, cost_total_7d_n,
      cost_total_30d, cost_total_30d_n, created_at, updated_at)
    SELECT g.config_class, g.type, g.health, g.status, g.deleted, g.count,
           g.cost_per_minute, g.cost_per_minute_n, g.cost_total_1d, g.cost_total_1d_n,
           g.cost_total_7d, g.cost_total_7d_n, g.cost_total_30d, g.cost_total_30d_n,
           CASE WHEN g.uncertain
                THEN (config_item_group_newest(g.type, g.config_class, g.health, g.status, g.deleted)).created_at
                ELSE g.created_at END,
           CASE WHEN g.uncertain
                THEN (config_item_group_newest(g.type, g.config_class, g.health, g.status, g.deleted)).updated_at
                ELSE g.updated_at END
      FROM groups g
     WHERE g.count <> 0
  )
  SELECT coalesce(sum(rows), 0) INTO folded FROM groups;
  RETURN folded;
END;
$$;
