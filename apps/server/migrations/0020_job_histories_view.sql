-- The Jobs History page reads `job_histories`: job_history rows with the name of the resource
-- they ran for and their agent (settings spec §3 "Job history item").
CREATE VIEW job_histories WITH (security_invoker = true) AS
SELECT
  jh.id,
  jh.name,
  jh.agent_id,
  jsonb_build_object('id', a.id, 'name', a.name) AS agent,
  jh.resource_id,
  jh.resource_type,
  COALESCE(c.name, s.name, t.name, ci.name, p.name) AS resource_name,
  jh.status,
  jh.time_start,
  jh.time_end,
  jh.duration_millis,
  jh.success_count,
  jh.error_count,
  jh.details,
  jh.hostname,
  jh.created_at
FROM job_history jh
JOIN agents a ON a.id = jh.agent_id
LEFT JOIN canaries c ON jh.resource_type = 'canary' AND c.id::text = jh.resource_id
LEFT JOIN config_scrapers s ON jh.resource_type IN ('config_scraper', 'catalog_scraper') AND s.id::text = jh.resource_id
LEFT JOIN topologies t ON jh.resource_type = 'topology' AND t.id::text = jh.resource_id
LEFT JOIN config_items ci ON jh.resource_type = 'config' AND ci.id::text = jh.resource_id
LEFT JOIN playbooks p ON jh.resource_type = 'playbook' AND p.id::text = jh.resource_id;
