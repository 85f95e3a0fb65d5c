-- The catalog summary (POST /api/catalog/summary by class, type, health and status) without
-- reading every item: statement triggers on config_items append, per statement, one row per
-- (config_class, type, health, status, deleted) group with what the statement changed there:
-- the row count, the cost sums and how many rows carry each cost, the newest created_at and
-- updated_at among the rows it added and among the rows it removed. Writers only ever append
-- (no row is shared between transactions, so concurrent scrapes never wait on one another or
-- deadlock here); the summary sums the rows of a group and folds them now and then
-- (`fold_config_item_summary()`).
--
-- A newest time cannot be taken back by a removal: when a group's removed rows reach its newest
-- added time, the newest rows may be gone and the fold reads that group's items again.

CREATE TABLE config_item_summary_deltas (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  config_class        text,
  type                text NOT NULL,
  health              text,
  status              text,
  deleted             boolean NOT NULL,
  count               bigint NOT NULL,
  cost_per_minute     numeric,
  cost_per_minute_n   bigint NOT NULL DEFAULT 0,
  cost_total_1d       numeric,
  cost_total_1d_n     bigint NOT NULL DEFAULT 0,
  cost_total_7d       numeric,
  cost_total_7d_n     bigint NOT NULL DEFAULT 0,
  cost_total_30d      numeric,
  cost_total_30d_n    bigint NOT NULL DEFAULT 0,
  -- Newest created_at / updated_at of the rows added to the group.
  created_at          timestamptz,
  updated_at          timestamptz,
  -- Newest created_at / updated_at of the rows removed from the group.
  removed_created_at  timestamptz,
  removed_updated_at  timestamptz
);

-- One statement's rows, signed: +1 for the new images, -1 for the old ones.
CREATE FUNCTION config_items_summary_track() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO config_item_summary_deltas (config_class, type, health, status, deleted, count,
      cost_per_minute, cost_per_minute_n, cost_total_1d, cost_total_1d_n, cost_total_7d, cost_total_7d_n,
      cost_total_30d, cost_total_30d_n, created_at, updated_at)
    SELECT config_class, type, health, status, deleted_at IS NOT NULL, count(*),
           sum(cost_per_minute), count(cost_per_minute), sum(cost_total_1d), count(cost_total_1d),
           sum(cost_total_7d), count(cost_total_7d), sum(cost_total_30d), count(cost_total_30d),
           max(created_at), max(updated_at)
      FROM config_items_added
     GROUP BY 1, 2, 3, 4, 5;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO config_item_summary_deltas (config_class, type, health, status, deleted, count,
      cost_per_minute, cost_per_minute_n, cost_total_1d, cost_total_1d_n, cost_total_7d, cost_total_7d_n,
      cost_total_30d, cost_total_30d_n, removed_created_at, removed_updated_at)
    SELECT config_class, type, health, status, deleted_at IS NOT NULL, -count(*),
           -sum(cost_per_minute), -count(cost_per_minute), -sum(cost_total_1d), -count(cost_total_1d),
           -sum(cost_total_7d), -count(cost_total_7d), -sum(cost_total_30d), -count(cost_total_30d),
           max(created_at), max(updated_at)
      FROM config_items_removed
     GROUP BY 1, 2, 3, 4, 5;
  ELSE
    INSERT INTO config_item_summary_deltas (config_class, type, health, status, deleted, count,
      cost_per_minute, cost_per_minute_n, cost_total_1d, cost_total_1d_n, cost_total_7d, cost_total_7d_n,
      cost_total_30d, cost_total_30d_n, created_at, updated_at, removed_created_at, removed_updated_at)
    SELECT config_class, type, health, status, deleted, sum(sign),
           sum(sign * cost_per_minute), sum(sign * (cost_per_minute IS NOT NULL)::int),
           sum(sign * cost_total_1d), sum(sign * (cost_total_1d IS NOT NULL)::int),
           sum(sign * cost_total_7d), sum(sign * (cost_total_7d IS NOT NULL)::int),
           sum(sign * cost_total_30d), sum(sign * (cost_total_30d IS NOT NULL)::int),
           max(created_at) FILTER (WHERE sign > 0), max(updated_at) FILTER (WHERE sign > 0),
           max(created_at) FILTER (WHERE sign < 0), max(updated_at) FILTER (WHERE sign < 0)
      FROM (SELECT 1 AS sign, config_class, type, health, status, deleted_at IS NOT NULL AS deleted,
                   cost_per_minute, cost_total_1d, cost_total_7d, cost_total_30d, created_at, updated_at
              FROM config_items_added
            UNION ALL
            SELECT -1, config_class, type, health, status, deleted_at IS NOT NULL,
                   cost_per_minute, cost_total_1d, cost_total_7d, cost_total_30d, created_at, updated_at
              FROM config_items_removed) AS changed
     GROUP BY 1, 2, 3, 4, 5;
  END IF;
  RETURN NULL;
END;
$$;

CREATE FUNCTION config_items_summary_truncated() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM config_item_summary_deltas;
  RETURN NULL;
END;
$$;

CREATE TRIGGER config_items_summary_insert AFTER INSERT ON config_items
  REFERENCING NEW TABLE AS config_items_added
  FOR EACH STATEMENT EXECUTE FUNCTION config_items_summary_track();
CREATE TRIGGER config_items_summary_update AFTER UPDATE ON config_items
  REFERENCING OLD TABLE AS config_items_removed NEW TABLE AS config_items_added
  FOR EACH STATEMENT EXECUTE FUNCTION config_items_summary_track();
CREATE TRIGGER config_items_summary_delete AFTER DELETE ON config_items
  REFERENCING OLD TABLE AS config_items_removed
  FOR EACH STATEMENT EXECUTE FUNCTION config_items_summary_track();
CREATE TRIGGER config_items_summary_truncate AFTER TRUNCATE ON config_items
  FOR EACH STATEMENT EXECUTE FUNCTION config_items_summary_truncated();
-- Bulk loads that switch session_replication_role to replica (restores, the benchmark's seed)
-- skip ordinary triggers; the summary must follow them too.
ALTER TABLE config_items ENABLE ALWAYS TRIGGER config_items_summary_insert;
ALTER TABLE config_items ENABLE ALWAYS TRIGGER config_items_summary_update;
ALTER TABLE config_items ENABLE ALWAYS TRIGGER config_items_summary_delete;
ALTER TABLE config_items ENABLE ALWAYS TRIGGER config_items_summary_truncate;

-- Folds every delta row this snapshot sees into one row per group; groups left without items
-- disappear, and a group whose newest rows may have been removed gets its newest times from its
-- items. Rows appended meanwhile by other transactions stay as they are. Returns the number of
-- rows folded. One fold at a time (a transaction advisory lock); writers are never blocked.
CREATE FUNCTION fold_config_item_summary() RETURNS bigint
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
           CASE WHEN g.uncertain THEN newest.created_at ELSE g.created_at END,
           CASE WHEN g.uncertain THEN newest.updated_at ELSE g.updated_at END
      FROM groups g
      LEFT JOIN LATERAL (
        SELECT max(ci.created_at) AS created_at, max(ci.updated_at) AS updated_at
          FROM config_items ci
         WHERE g.uncertain AND ci.type = g.type
           AND ci.config_class IS NOT DISTINCT FROM g.config_class
           AND ci.health IS NOT DISTINCT FROM g.health
           AND ci.status IS NOT DISTINCT FROM g.status
           AND (ci.deleted_at IS NOT NULL) = g.deleted
      ) AS newest ON true
     WHERE g.count <> 0
  )
  SELECT coalesce(sum(rows), 0) INTO folded FROM groups;
  RETURN folded;
END;
$$;

-- Per group: the item count, cost sums (null when no item of the group has that cost) and newest
-- times, as the GROUP BY over config_items would give them. What the summary reads.
CREATE VIEW config_item_summary WITH (security_invoker = true) AS
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
       CASE WHEN g.uncertain THEN newest.created_at ELSE g.created_at END AS created_at,
       CASE WHEN g.uncertain THEN newest.updated_at ELSE g.updated_at END AS updated_at,
       g.uncertain, g.rows
  FROM groups g
  LEFT JOIN LATERAL (
    SELECT max(ci.created_at) AS created_at, max(ci.updated_at) AS updated_at
      FROM config_items ci
     WHERE g.uncertain AND ci.type = g.type
       AND ci.config_class IS NOT DISTINCT FROM g.config_class
       AND ci.health IS NOT DISTINCT FROM g.health
       AND ci.status IS NOT DISTINCT FROM g.status
       AND (ci.deleted_at IS NOT NULL) = g.deleted
  ) AS newest ON true
 WHERE g.count <> 0;

INSERT INTO config_item_summary_deltas (config_class, type, health, status, deleted, count,
  cost_per_minute, cost_per_minute_n, cost_total_1d, cost_total_1d_n, cost_total_7d, cost_total_7d_n,
  cost_total_30d, cost_total_30d_n, created_at, updated_at)
SELECT config_class, type, health, status, deleted_at IS NOT NULL, count(*),
       sum(cost_per_minute), count(cost_per_minute), sum(cost_total_1d), count(cost_total_1d),
       sum(cost_total_7d), count(cost_total_7d), sum(cost_total_30d), count(cost_total_30d),
       max(created_at), max(updated_at)
  FROM config_items
 GROUP BY 1, 2, 3, 4, 5;
