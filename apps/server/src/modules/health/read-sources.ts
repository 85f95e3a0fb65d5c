import type { ReadSource } from '../../data-api/index.js';

/**
 * `canaries_with_status` (migrations 0060, 0260) with the checks roll-up over the caller's
 * visible checks, and the canary's newest job (the ecosystem's job_* columns). Keep in step with
 * the view: `default-allowlist.int.test.ts` compares both.
 */
export const canariesWithStatusSource: ReadSource = ({ relation, restrict }) =>
  `SELECT cn.id, cn.name, cn.namespace, cn.icon, cn.schedule, cn.labels, cn.spec, cn.source,
       cn.agent_id, cn.created_by, cn.created_at, cn.updated_at, cn.deleted_at,
       jsonb_build_object('healthy', coalesce(s.healthy, 0), 'unhealthy', coalesce(s.unhealthy, 0),
                          'unknown', coalesce(s.unknown, 0)) AS checks,
       CASE WHEN coalesce(s.unhealthy, 0) > 0 THEN 'unhealthy'
            WHEN coalesce(s.healthy, 0) > 0 AND coalesce(s.unknown, 0) = 0 THEN 'healthy'
            ELSE 'unknown' END AS status,
       s.last_runtime,
       cn.spec ->> 'interval' AS "interval",
       j.name AS job_name, j.success_count AS job_success_count, j.error_count AS job_error_count,
       j.details AS job_details, j.hostname AS job_hostname, j.duration_millis AS job_duration_millis,
       j.resource_type AS job_resource_type, j.status AS job_status, j.time_start AS job_time_start,
       j.time_end AS job_time_end, j.created_at AS job_created_at, f.time_start AS job_last_failed,
       jsonb_build_object('id', a.id, 'name', a.name) AS agent
FROM ${relation('canaries')} cn
LEFT JOIN LATERAL (
  SELECT count(*) FILTER (WHERE ch.status = 'healthy')::int AS healthy,
         count(*) FILTER (WHERE ch.status = 'unhealthy')::int AS unhealthy,
         count(*) FILTER (WHERE ch.status IS NULL)::int AS unknown,
         max(ch.last_runtime) AS last_runtime
  FROM ${relation('checks')} ch
  WHERE ch.canary_id = cn.id AND ch.deleted_at IS NULL${restrict('checks', 'ch')}
) s ON true
LEFT JOIN LATERAL (
  SELECT jh.name, jh.success_count, jh.error_count, jh.details, jh.hostname, jh.duration_millis,
         jh.resource_type, jh.status, jh.time_start, jh.time_end, jh.created_at
  FROM ${relation('job_history')} jh
  WHERE jh.resource_id = cn.id::text AND jh.resource_type = 'canary'
  ORDER BY jh.time_start DESC, jh.id DESC
  LIMIT 1
) j ON true
LEFT JOIN LATERAL (
  SELECT max(jh.time_start) AS time_start
  FROM ${relation('job_history')} jh
  WHERE jh.resource_id = cn.id::text AND jh.resource_type = 'canary' AND jh.status = 'FAILED'
) f ON true
LEFT JOIN ${relation('agents')} a ON a.id = cn.agent_id`;
