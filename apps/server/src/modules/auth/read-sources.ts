import type { ReadSource } from '../../data-api/index.js';

/** `teams_with_status` (migration 0090) over the components the caller may read. */
export const teamsWithStatusSource: ReadSource = ({ relation, restrict }) =>
  `SELECT t.id, t.name, t.namespace, t.icon, t.labels, t.spec, t.source, t.agent_id, t.created_by,
       t.created_at, t.updated_at, t.deleted_at,
       (SELECT count(*)::int FROM ${relation('team_members')} m WHERE m.team_id = t.id) AS members,
       jsonb_build_object('healthy', coalesce(c.healthy, 0), 'unhealthy', coalesce(c.unhealthy, 0),
                          'warning', coalesce(c.warning, 0), 'unknown', coalesce(c.unknown, 0)) AS components,
       CASE WHEN coalesce(c.unhealthy, 0) > 0 THEN 'unhealthy'
            WHEN coalesce(c.warning, 0) > 0 THEN 'warning'
            WHEN coalesce(c.healthy, 0) > 0 THEN 'healthy'
            ELSE 'unknown' END AS status
FROM ${relation('teams')} t
LEFT JOIN LATERAL (
  SELECT count(*) FILTER (WHERE co.health = 'healthy')::int AS healthy,
         count(*) FILTER (WHERE co.health = 'unhealthy')::int AS unhealthy,
         count(*) FILTER (WHERE co.health = 'warning')::int AS warning,
         count(*) FILTER (WHERE co.health IS NULL OR co.health NOT IN ('healthy', 'unhealthy', 'warning'))::int AS unknown
  FROM ${relation('team_components')} tc
  JOIN ${relation('components')} co ON co.id = tc.component_id AND co.deleted_at IS NULL${restrict('components', 'co', { optional: true })}
  WHERE tc.team_id = t.id
) c ON true`;
