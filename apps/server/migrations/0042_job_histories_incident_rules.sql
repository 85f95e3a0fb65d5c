-- Incident rules write their evaluations to job history (resource_type 'incident_rule', see
-- src/modules/incidents/README.md): the Jobs History list names the rule like other resources.
-- Same columns as 0020, one more join.
CREATE OR REPLACE VIEW job_histories WITH (security_invoker = true) AS
SELECT
  jh.id,
  jh.name,
  jh.agent_id,
  jsonb_build_object('id', a.id, 'name', a.name) AS agent,
  jh.resource_id,
  jh.resource_type,
  COALESCE(c.name, s.name, t.name, ci.name, p.name, ir.name) AS resource_name,
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
LEFT JOIN playbooks p ON jh.resource_type = 'playbook' AND p.id::text = jh.resource_id
LEFT JOIN incident_rules ir ON jh.resource_type = 'incident_rule' AND ir.id::text = jh.resource_id;
