import type { ReadSource } from '../../data-api/index.js';

/** `topologies_with_status` (migrations 0090, 0351) over the caller's visible components. */
export const topologiesWithStatusSource: ReadSource = ({ relation, restrict }) =>
  `SELECT t.id, t.name, t.namespace, t.icon, t.schedule, t.labels, t.spec, t.source, t.agent_id,
       t.created_by, t.created_at, t.updated_at, t.deleted_at,
       jsonb_build_object('healthy', coalesce(c.healthy, 0), 'unhealthy', coalesce(c.unhealthy, 0),
                          'warning', coalesce(c.warning, 0), 'unknown', coalesce(c.unknown, 0)) AS summary,
       coalesce(c.total, 0) AS components,
       CASE WHEN coalesce(c.unhealthy, 0) > 0 THEN 'unhealthy'
            WHEN coalesce(c.warning, 0) > 0 THEN 'warning'
            WHEN coalesce(c.healthy, 0) > 0 AND coalesce(c.unknown, 0) = 0 THEN 'healthy'
            ELSE 'unknown' END AS status,
       j.status AS job_status, j.time_start AS job_time_start, j.time_end AS job_time_end,
       j.details AS job_details,
       j.name AS job_name, j.success_count AS job_success_count, j.error_count AS job_error_count,
       j.hostname AS job_hostname, j.duration_millis AS job_duration_millis,
       j.resource_type AS job_resource_type, j.created_at AS job_created_at,
       f.time_start AS job_last_failed,
       jsonb_build_object('id', a.id, 'name', a.name) AS agent
FROM ${relation('topologies')} t
LEFT JOIN LATERAL (
  SELECT count(*)::int AS total,
         count(*) FILTER (WHERE co.health = 'healthy')::int AS healthy,
         count(*) FILTER (WHERE co.health = 'unhealthy')::int AS unhealthy,
         count(*) FILTER (WHERE co.health = 'warning')::int AS warning,
         count(*) FILTER (WHERE co.health IS NULL OR co.health NOT IN ('healthy', 'unhealthy', 'warning'))::int AS unknown
  FROM ${relation('components')} co
  WHERE co.topology_id = t.id AND co.deleted_at IS NULL${restrict('components', 'co')}
) c ON true
LEFT JOIN LATERAL (
  SELECT jh.name, jh.success_count, jh.error_count, jh.details, jh.hostname, jh.duration_millis,
         jh.resource_type, jh.status, jh.time_start, jh.time_end, jh.created_at
  FROM ${relation('job_history')} jh
  WHERE jh.resource_type = 'topology' AND jh.resource_id = t.id::text
  ORDER BY jh.time_start DESC, jh.id DESC
  LIMIT 1
) j ON true
LEFT JOIN LATERAL (
  SELECT max(jh.time_start) AS time_start
  FROM ${relation('job_history')} jh
  WHERE jh.resource_type = 'topology' AND jh.resource_id = t.id::text AND jh.status = 'FAILED'
) f ON true
LEFT JOIN ${relation('agents')} a ON a.id = t.agent_id`;
