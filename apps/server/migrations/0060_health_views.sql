-- Health views clients read through the data API (API.md §1 'health'): label keys for filters,
-- checks by component and by config item, and canaries with a roll-up of their checks' health.

-- Every label key used by a live check, for the health page's Group By / Tab By / Pivot By lists.
CREATE VIEW checks_labels_keys WITH (security_invoker = true) AS
SELECT DISTINCT k.key
FROM checks c CROSS JOIN LATERAL jsonb_object_keys(coalesce(c.labels, '{}'::jsonb)) AS k(key)
WHERE c.deleted_at IS NULL;

-- Live checks linked to a component (filter with component_id=eq.<id>).
CREATE VIEW checks_by_component WITH (security_invoker = true) AS
SELECT r.component_id, c.id, c.canary_id, c.type, c.name, c.description, c.icon, c.namespace,
       c.endpoint, c.owner, c.severity, c.labels, c.status, c.last_runtime,
       c.last_transition_time, c.next_runtime, c.agent_id, c.created_at
FROM check_component_relationships r
JOIN checks c ON c.id = r.check_id
WHERE r.deleted_at IS NULL AND c.deleted_at IS NULL;

-- Live checks linked to a config item (filter with config_id=eq.<id>), with the last 24 hours'
-- uptime and latency, for the config item's Checks page.
CREATE VIEW check_summary_for_config WITH (security_invoker = true) AS
SELECT r.config_id, c.id, c.canary_id, c.type, c.name, c.description, c.icon, c.namespace,
       c.endpoint, c.severity, c.labels, c.status, c.last_runtime, c.last_transition_time,
       jsonb_build_object('passed', coalesce(s.passed, 0), 'failed', coalesce(s.failed, 0)) AS uptime,
       jsonb_build_object('p95', s.p95, 'p99', s.p99) AS latency
FROM check_config_relationships r
JOIN checks c ON c.id = r.check_id
LEFT JOIN LATERAL (
  SELECT count(*) FILTER (WHERE st.status)::int AS passed,
         count(*) FILTER (WHERE NOT st.status)::int AS failed,
         percentile_cont(0.95) WITHIN GROUP (ORDER BY st.duration) AS p95,
         percentile_cont(0.99) WITHIN GROUP (ORDER BY st.duration) AS p99
  FROM check_statuses st
  WHERE st.check_id = c.id AND st.time > now() - interval '24 hours'
) s ON true
WHERE r.deleted_at IS NULL AND c.deleted_at IS NULL;

-- Canaries with how many of their live checks are healthy, unhealthy or not yet run, and the
-- canary's own health: unhealthy if any check is, healthy if all ran and passed, else unknown.
CREATE VIEW canaries_with_status WITH (security_invoker = true) AS
SELECT cn.id, cn.name, cn.namespace, cn.icon, cn.schedule, cn.labels, cn.spec, cn.source,
       cn.agent_id, cn.created_by, cn.created_at, cn.updated_at, cn.deleted_at,
       jsonb_build_object('healthy', coalesce(s.healthy, 0), 'unhealthy', coalesce(s.unhealthy, 0),
                          'unknown', coalesce(s.unknown, 0)) AS checks,
       CASE WHEN coalesce(s.unhealthy, 0) > 0 THEN 'unhealthy'
            WHEN coalesce(s.healthy, 0) > 0 AND coalesce(s.unknown, 0) = 0 THEN 'healthy'
            ELSE 'unknown' END AS status,
       s.last_runtime
FROM canaries cn
LEFT JOIN LATERAL (
  SELECT count(*) FILTER (WHERE ch.status = 'healthy')::int AS healthy,
         count(*) FILTER (WHERE ch.status = 'unhealthy')::int AS unhealthy,
         count(*) FILTER (WHERE ch.status IS NULL)::int AS unknown,
         max(ch.last_runtime) AS last_runtime
  FROM checks ch
  WHERE ch.canary_id = cn.id AND ch.deleted_at IS NULL
) s ON true;
