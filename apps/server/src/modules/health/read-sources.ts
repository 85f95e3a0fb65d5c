import type { ReadSource } from '../../data-api/index.js';

/**
 * `canaries_with_status` (migration 0060) with the checks roll-up over the caller's visible
 * checks. Keep in step with the view: `default-allowlist.int.test.ts` compares both.
 */
export const canariesWithStatusSource: ReadSource = ({ relation, restrict }) =>
  `SELECT cn.id, cn.name, cn.namespace, cn.icon, cn.schedule, cn.labels, cn.spec, cn.source,
       cn.agent_id, cn.created_by, cn.created_at, cn.updated_at, cn.deleted_at,
       jsonb_build_object('healthy', coalesce(s.healthy, 0), 'unhealthy', coalesce(s.unhealthy, 0),
                          'unknown', coalesce(s.unknown, 0)) AS checks,
       CASE WHEN coalesce(s.unhealthy, 0) > 0 THEN 'unhealthy'
            WHEN coalesce(s.healthy, 0) > 0 AND coalesce(s.unknown, 0) = 0 THEN 'healthy'
            ELSE 'unknown' END AS status,
       s.last_runtime
FROM ${relation('canaries')} cn
LEFT JOIN LATERAL (
  SELECT count(*) FILTER (WHERE ch.status = 'healthy')::int AS healthy,
         count(*) FILTER (WHERE ch.status = 'unhealthy')::int AS unhealthy,
         count(*) FILTER (WHERE ch.status IS NULL)::int AS unknown,
         max(ch.last_runtime) AS last_runtime
  FROM ${relation('checks')} ch
  WHERE ch.canary_id = cn.id AND ch.deleted_at IS NULL${restrict('checks', 'ch')}
) s ON true`;
