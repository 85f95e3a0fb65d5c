import type { ReadSource } from '../../data-api/index.js';

/** `config_detail` (migration 0090): counts and scraper of what the caller may read (0 / null otherwise). */
export const configDetailSource: ReadSource = ({ relation, restrict }) => {
  const optional = { optional: true };
  return `SELECT ci.id, ci.scraper_id, ci.agent_id, ci.parent_id, ci.path, ci.external_id, ci.type, ci.config_class,
       ci.name, ci.namespace, ci.description, ci.status, ci.health, ci.ready, ci.labels, ci.tags,
       ci.properties, ci.config, ci.source, ci.cost_per_minute, ci.cost_total_1d, ci.cost_total_7d,
       ci.cost_total_30d, ci.delete_reason, ci.last_scraped_time, ci.created_by, ci.created_at,
       ci.updated_at, ci.deleted_at,
       jsonb_build_object(
         'relationships', (SELECT count(*) FROM ${relation('config_relationships')} r
                            WHERE (r.config_id = ci.id OR r.related_id = ci.id) AND r.deleted_at IS NULL${restrict('config_relationships', 'r', optional)}),
         'analysis', (SELECT count(*) FROM ${relation('config_analysis')} a WHERE a.config_id = ci.id AND a.status = 'open'${restrict('config_analysis', 'a', optional)}),
         'changes', (SELECT count(*) FROM ${relation('config_changes')} c WHERE c.config_id = ci.id${restrict('config_changes', 'c', optional)}),
         'playbook_runs', (SELECT count(*) FROM ${relation('playbook_runs')} p WHERE p.config_id = ci.id${restrict('playbook_runs', 'p', optional)}),
         'checks', (SELECT count(*) FROM ${relation('check_config_relationships')} cc
                     WHERE cc.config_id = ci.id AND cc.deleted_at IS NULL${restrict('check_config_relationships', 'cc', optional)})
       ) AS summary,
       CASE WHEN s.id IS NULL THEN NULL ELSE jsonb_build_object('id', s.id, 'name', s.name) END AS scraper
FROM ${relation('config_items')} ci
LEFT JOIN ${relation('config_scrapers')} s ON s.id = ci.scraper_id${restrict('config_scrapers', 's', optional)}`;
};
