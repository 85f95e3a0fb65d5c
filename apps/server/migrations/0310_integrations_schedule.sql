-- The integrations list shows each integration's schedule (issue 26: "type, status of the last
-- run, schedule and source"; spec settings §3 lists schedule among the managed resources' common
-- fields). Scrapers and topologies keep it in their `schedule` column; logging backends have none.
-- CREATE OR REPLACE keeps every column of 0261 in place and appends `schedule` at the end.
CREATE OR REPLACE VIEW integrations_with_status WITH (security_invoker = true) AS
SELECT i.id, i.name, i.namespace, i.description, i.integration_type, i.source, i.agent_id, i.labels,
       i.created_by, i.created_at, i.updated_at, i.deleted_at,
       j.status AS job_status, j.details AS job_details, j.time_start AS job_time_start,
       j.time_end AS job_time_end, f.time_start AS job_last_failed,
       j.name AS job_name, j.success_count AS job_success_count, j.error_count AS job_error_count,
       j.hostname AS job_hostname, j.duration_millis AS job_duration_millis,
       j.resource_type AS job_resource_type, j.created_at AS job_created_at,
       jsonb_build_object('id', a.id, 'name', a.name) AS agent,
       p.name AS creator_name, p.avatar AS creator_avatar, p.title AS creator_title,
       p.email AS creator_email,
       i.schedule
FROM (
  SELECT s.id, s.name, s.namespace, s.description, 'scrapers'::text AS integration_type, s.source, s.agent_id,
         s.labels, s.created_by, s.created_at, s.updated_at, s.deleted_at,
         ARRAY['config_scraper', 'catalog_scraper'] AS job_types, s.schedule
  FROM config_scrapers s
  UNION ALL
  SELECT t.id, t.name, t.namespace, NULL, 'topologies', t.source, t.agent_id, t.labels, t.created_by,
         t.created_at, t.updated_at, t.deleted_at, ARRAY['topology'], t.schedule
  FROM topologies t
  UNION ALL
  SELECT l.id, l.name, l.namespace, NULL, 'logging_backends', l.source, l.agent_id, l.labels, l.created_by,
         l.created_at, l.updated_at, l.deleted_at, ARRAY['logging_backend'], NULL::text
  FROM logging_backends l
) i
LEFT JOIN LATERAL (
  SELECT jh.status, jh.details, jh.time_start, jh.time_end, jh.name, jh.success_count, jh.error_count,
         jh.hostname, jh.duration_millis, jh.resource_type, jh.created_at
    FROM job_history jh
   WHERE jh.resource_id = i.id::text AND jh.resource_type = ANY (i.job_types)
   ORDER BY jh.time_start DESC LIMIT 1
) j ON true
LEFT JOIN LATERAL (
  SELECT jh.time_start FROM job_history jh
   WHERE jh.resource_id = i.id::text AND jh.resource_type = ANY (i.job_types) AND jh.status = 'FAILED'
   ORDER BY jh.time_start DESC LIMIT 1
) f ON true
LEFT JOIN agents a ON a.id = i.agent_id
LEFT JOIN people p ON p.id = i.created_by;
