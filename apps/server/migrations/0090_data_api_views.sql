-- Views and functions API.md §1 names that no earlier migration created, read through the data
-- API (allowlist.ts; row scopes in modules/auth/authorization.ts). Columns follow what the
-- screens show (spec core §7, the settings document) and the ecosystem's clients read.

-- Catalog: one config item with its scraper and counts for the detail page's tabs.
CREATE VIEW config_detail WITH (security_invoker = true) AS
SELECT ci.id, ci.scraper_id, ci.agent_id, ci.parent_id, ci.path, ci.external_id, ci.type, ci.config_class,
       ci.name, ci.namespace, ci.description, ci.status, ci.health, ci.ready, ci.labels, ci.tags,
       ci.properties, ci.config, ci.source, ci.cost_per_minute, ci.cost_total_1d, ci.cost_total_7d,
       ci.cost_total_30d, ci.delete_reason, ci.last_scraped_time, ci.created_by, ci.created_at,
       ci.updated_at, ci.deleted_at,
       jsonb_build_object(
         'relationships', (SELECT count(*) FROM config_relationships r
                            WHERE (r.config_id = ci.id OR r.related_id = ci.id) AND r.deleted_at IS NULL),
         'analysis', (SELECT count(*) FROM config_analysis a WHERE a.config_id = ci.id AND a.status = 'open'),
         'changes', (SELECT count(*) FROM config_changes c WHERE c.config_id = ci.id),
         'playbook_runs', (SELECT count(*) FROM playbook_runs p WHERE p.config_id = ci.id),
         'checks', (SELECT count(*) FROM check_config_relationships cc
                     WHERE cc.config_id = ci.id AND cc.deleted_at IS NULL)
       ) AS summary,
       CASE WHEN s.id IS NULL THEN NULL ELSE jsonb_build_object('id', s.id, 'name', s.name) END AS scraper
FROM config_items ci
LEFT JOIN config_scrapers s ON s.id = ci.scraper_id;

-- Topology: topologies with the health of their live components and their last run. The data
-- API reads it through a read source that counts only the components the caller may see.
CREATE VIEW topologies_with_status WITH (security_invoker = true) AS
SELECT t.id, t.name, t.namespace, t.icon, t.schedule, t.labels, t.spec, t.source, t.agent_id,
       t.created_by, t.created_at, t.updated_at, t.deleted_at,
       jsonb_build_object('healthy', coalesce(c.healthy, 0), 'unhealthy', coalesce(c.unhealthy, 0),
                          'warning', coalesce(c.warning, 0), 'unknown', coalesce(c.unknown, 0)) AS summary,
       coalesce(c.total, 0) AS components,
       CASE WHEN coalesce(c.unhealthy, 0) > 0 THEN 'unhealthy'
            WHEN coalesce(c.warning, 0) > 0 THEN 'warning'
            WHEN coalesce(c.healthy, 0) > 0 AND coalesce(c.unknown, 0) = 0 THEN 'healthy'
            ELSE 'unknown' END AS status,
       j.status AS job_status, j.time_start AS job_time_start, j.time_end AS job_time_end,
       j.details AS job_details
FROM topologies t
LEFT JOIN LATERAL (
  SELECT count(*)::int AS total,
         count(*) FILTER (WHERE co.health = 'healthy')::int AS healthy,
         count(*) FILTER (WHERE co.health = 'unhealthy')::int AS unhealthy,
         count(*) FILTER (WHERE co.health = 'warning')::int AS warning,
         count(*) FILTER (WHERE co.health IS NULL OR co.health NOT IN ('healthy', 'unhealthy', 'warning'))::int AS unknown
  FROM components co
  WHERE co.topology_id = t.id AND co.deleted_at IS NULL
) c ON true
LEFT JOIN LATERAL (
  SELECT jh.status, jh.time_start, jh.time_end, jh.details
  FROM job_history jh
  WHERE jh.resource_type = 'topology' AND jh.resource_id = t.id::text
  ORDER BY jh.time_start DESC
  LIMIT 1
) j ON true;

-- Every label pair (and key) used by a live component, for the topology filters.
CREATE VIEW component_labels WITH (security_invoker = true) AS
SELECT DISTINCT l.key, l.value
FROM components c CROSS JOIN LATERAL jsonb_each_text(coalesce(c.labels, '{}'::jsonb)) AS l(key, value)
WHERE c.deleted_at IS NULL;

CREATE VIEW component_labels_keys WITH (security_invoker = true) AS
SELECT DISTINCT k.key
FROM components c CROSS JOIN LATERAL jsonb_object_keys(coalesce(c.labels, '{}'::jsonb)) AS k(key)
WHERE c.deleted_at IS NULL;

-- Live components that say where their logs are (the logs page's component picker).
CREATE VIEW components_with_logs WITH (security_invoker = true) AS
SELECT c.id, c.name, c.type, c.icon, c.namespace, c.topology_id, c.agent_id, c.external_id, c.log_selectors
FROM components c
WHERE c.deleted_at IS NULL AND c.log_selectors IS NOT NULL AND jsonb_typeof(c.log_selectors) <> 'null'
  AND c.log_selectors <> '[]'::jsonb;

-- Analyses and changes of the config items linked to a component (filter with component_id).
CREATE VIEW analysis_by_component WITH (security_invoker = true) AS
SELECT a.id, a.id AS analysis_id, r.component_id, a.config_id, ci.name, ci.config_class, ci.type,
       a.analyzer, a.analysis_type, a.severity, a.status, a.summary, a.message, a.source,
       a.first_observed, a.last_observed, a.created_by
FROM config_analysis a
JOIN config_component_relationships r ON r.config_id = a.config_id AND r.deleted_at IS NULL
JOIN config_items ci ON ci.id = a.config_id
WHERE ci.deleted_at IS NULL;

CREATE VIEW changes_by_component WITH (security_invoker = true) AS
SELECT ch.id, r.component_id, ch.config_id, ci.name, ci.type AS config_type, ci.config_class,
       ch.change_type, ch.severity, ch.source, ch.summary, ch.count, ch.external_created_by,
       ch.created_by, ch.first_observed, ch.created_at
FROM config_changes ch
JOIN config_component_relationships r ON r.config_id = ch.config_id AND r.deleted_at IS NULL
JOIN config_items ci ON ci.id = ch.config_id
WHERE ci.deleted_at IS NULL;

-- The analyses of every live config item linked to the component: config_analysis rows, so the
-- caller's config_analysis permissions and row scopes apply to them.
CREATE FUNCTION lookup_analysis_by_component(id uuid)
RETURNS SETOF config_analysis
LANGUAGE sql STABLE AS $fn$
  SELECT a.*
  FROM config_analysis a
  WHERE a.config_id IN (
    SELECT r.config_id FROM config_component_relationships r
     WHERE r.component_id = lookup_analysis_by_component.id AND r.deleted_at IS NULL
  )
$fn$;

-- Teams with their member count and the health of the components they own.
CREATE VIEW teams_with_status WITH (security_invoker = true) AS
SELECT t.id, t.name, t.namespace, t.icon, t.labels, t.spec, t.source, t.agent_id, t.created_by,
       t.created_at, t.updated_at, t.deleted_at,
       (SELECT count(*)::int FROM team_members m WHERE m.team_id = t.id) AS members,
       jsonb_build_object('healthy', coalesce(c.healthy, 0), 'unhealthy', coalesce(c.unhealthy, 0),
                          'warning', coalesce(c.warning, 0), 'unknown', coalesce(c.unknown, 0)) AS components,
       CASE WHEN coalesce(c.unhealthy, 0) > 0 THEN 'unhealthy'
            WHEN coalesce(c.warning, 0) > 0 THEN 'warning'
            WHEN coalesce(c.healthy, 0) > 0 THEN 'healthy'
            ELSE 'unknown' END AS status
FROM teams t
LEFT JOIN LATERAL (
  SELECT count(*) FILTER (WHERE co.health = 'healthy')::int AS healthy,
         count(*) FILTER (WHERE co.health = 'unhealthy')::int AS unhealthy,
         count(*) FILTER (WHERE co.health = 'warning')::int AS warning,
         count(*) FILTER (WHERE co.health IS NULL OR co.health NOT IN ('healthy', 'unhealthy', 'warning'))::int AS unknown
  FROM team_components tc JOIN components co ON co.id = tc.component_id AND co.deleted_at IS NULL
  WHERE tc.team_id = t.id
) c ON true;

-- Permissions with the names of their subject, target and author (the permissions table:
-- Subject, Resource, Action, Description, Updated, Created, Created By). `playbook` is the target
-- playbook (playbook_id); a playbook subject (subject_type 'playbook') names subject_name.
CREATE VIEW permissions_summary WITH (security_invoker = true) AS
SELECT p.id, p.name, p.namespace, p.labels, p.source, p.agent_id, p.subject, p.subject_type, p.team_id,
       p.person_id, p.notification_id, p.action, p.deny, p.object, p.config_id, p.component_id,
       p.canary_id, p.check_id, p.playbook_id, p.connection_id, p.object_selector, p.tags, p.agents,
       p.description, p.until, p.created_by, p.updated_by, p.created_at, p.updated_at, p.deleted_at,
       CASE WHEN pe.id IS NULL THEN NULL
            ELSE jsonb_build_object('id', pe.id, 'name', pe.name, 'email', pe.email, 'avatar', pe.avatar) END AS person,
       CASE WHEN tm.id IS NULL THEN NULL ELSE jsonb_build_object('id', tm.id, 'name', tm.name, 'icon', tm.icon) END AS team,
       CASE WHEN n.id IS NULL THEN NULL
            ELSE jsonb_build_object('id', n.id, 'name', n.name, 'namespace', n.namespace) END AS notification,
       CASE WHEN pb.id IS NULL THEN NULL
            ELSE jsonb_build_object('id', pb.id, 'name', pb.name, 'namespace', pb.namespace) END AS playbook,
       CASE WHEN ci.id IS NULL THEN NULL ELSE jsonb_build_object('id', ci.id, 'name', ci.name, 'type', ci.type) END AS config,
       CASE WHEN co.id IS NULL THEN NULL ELSE jsonb_build_object('id', co.id, 'name', co.name, 'icon', co.icon) END AS component,
       CASE WHEN ca.id IS NULL THEN NULL ELSE jsonb_build_object('id', ca.id, 'name', ca.name) END AS canary,
       CASE WHEN ck.id IS NULL THEN NULL ELSE jsonb_build_object('id', ck.id, 'name', ck.name, 'type', ck.type) END AS "check",
       CASE WHEN cn.id IS NULL THEN NULL ELSE jsonb_build_object('id', cn.id, 'name', cn.name, 'type', cn.type) END AS connection,
       CASE WHEN cb.id IS NULL THEN NULL
            ELSE jsonb_build_object('id', cb.id, 'name', cb.name, 'avatar', cb.avatar) END AS created_by_person,
       coalesce(pe.name, tm.name, n.name, sp.name, p.subject) AS subject_name
FROM permissions p
LEFT JOIN people pe ON pe.id = p.person_id
LEFT JOIN teams tm ON tm.id = p.team_id
LEFT JOIN notifications n ON n.id = p.notification_id
LEFT JOIN playbooks pb ON pb.id = p.playbook_id
LEFT JOIN playbooks sp ON p.subject_type = 'playbook' AND sp.id::text = p.subject
LEFT JOIN config_items ci ON ci.id = p.config_id
LEFT JOIN components co ON co.id = p.component_id
LEFT JOIN canaries ca ON ca.id = p.canary_id
LEFT JOIN checks ck ON ck.id = p.check_id
LEFT JOIN connections cn ON cn.id = p.connection_id
LEFT JOIN people cb ON cb.id = p.created_by;

-- Playbook runs: the actions of a run and of the runs it started, in the order they ran.
CREATE FUNCTION get_playbook_run_actions(run_id uuid)
RETURNS SETOF playbook_run_actions
LANGUAGE sql STABLE AS $fn$
  SELECT a.*
  FROM playbook_run_actions a
  WHERE a.playbook_run_id = get_playbook_run_actions.run_id
     OR a.playbook_run_id IN (SELECT r.id FROM playbook_runs r WHERE r.parent_id = get_playbook_run_actions.run_id)
  ORDER BY a.start_time NULLS LAST, a.created_at
$fn$;

-- Notification rules with their recipients and what their send history says.
CREATE VIEW notifications_summary WITH (security_invoker = true) AS
SELECT n.id, n.name, n.namespace, n.labels, n.source, n.agent_id, n.title, n.events, n.filter,
       n.person_id, n.team_id, n.playbook_id, n.custom_services, n.repeat_interval, n.group_by, n.wait_for,
       n.error, n.error_at, n.created_by, n.created_at, n.updated_at, n.deleted_at,
       CASE WHEN pe.id IS NULL THEN NULL
            ELSE jsonb_build_object('id', pe.id, 'name', pe.name, 'email', pe.email, 'avatar', pe.avatar) END AS person,
       CASE WHEN tm.id IS NULL THEN NULL ELSE jsonb_build_object('id', tm.id, 'name', tm.name, 'icon', tm.icon) END AS team,
       CASE WHEN pb.id IS NULL THEN NULL
            ELSE jsonb_build_object('id', pb.id, 'name', pb.name, 'namespace', pb.namespace) END AS playbook,
       coalesce(h.sent, 0) AS sent, coalesce(h.failed, 0) AS failed, coalesce(h.pending, 0) AS pending,
       coalesce(h.silenced, 0) AS silenced, coalesce(h.total, 0) AS total,
       h.avg_duration_ms, h.last_sent_at, h.last_failed_at
FROM notifications n
LEFT JOIN people pe ON pe.id = n.person_id
LEFT JOIN teams tm ON tm.id = n.team_id
LEFT JOIN playbooks pb ON pb.id = n.playbook_id
LEFT JOIN LATERAL (
  SELECT count(*)::int AS total,
         count(*) FILTER (WHERE s.status = 'sent')::int AS sent,
         count(*) FILTER (WHERE s.status IN ('error', 'failed'))::int AS failed,
         count(*) FILTER (WHERE s.status IN ('pending', 'pending_playbook_run', 'pending_playbook_completion', 'evaluating-waitfor'))::int AS pending,
         count(*) FILTER (WHERE s.status = 'silenced' OR s.silenced_by IS NOT NULL)::int AS silenced,
         round(avg(s.duration_millis))::int AS avg_duration_ms,
         max(s.created_at) FILTER (WHERE s.status = 'sent') AS last_sent_at,
         max(s.created_at) FILTER (WHERE s.status IN ('error', 'failed')) AS last_failed_at
  FROM notification_send_history s
  WHERE s.notification_id = n.id
) h ON true;

-- Send history rows with their rule and the resource they were about (without the bodies).
CREATE VIEW notification_send_history_summary WITH (security_invoker = true) AS
SELECT s.id, s.notification_id, s.parent_id, s.status, s.source_event, s.resource_id, s.resource_type,
       s.count, s.first_observed, s.error, s.duration_millis, s.person_id, s.team_id, s.connection_id,
       s.playbook_run_id, s.silenced_by, s.created_at,
       CASE WHEN n.id IS NULL THEN NULL
            ELSE jsonb_build_object('id', n.id, 'name', n.name, 'namespace', n.namespace) END AS notification,
       coalesce(
         (SELECT jsonb_build_object('id', ci.id, 'name', ci.name, 'type', ci.type, 'config_class', ci.config_class)
            FROM config_items ci WHERE s.resource_type IN ('config', 'config_item') AND ci.id = s.resource_id),
         (SELECT jsonb_build_object('id', co.id, 'name', co.name, 'type', co.type, 'icon', co.icon)
            FROM components co WHERE s.resource_type = 'component' AND co.id = s.resource_id),
         (SELECT jsonb_build_object('id', ck.id, 'name', ck.name, 'type', ck.type, 'canary_id', ck.canary_id)
            FROM checks ck WHERE s.resource_type = 'check' AND ck.id = s.resource_id),
         (SELECT jsonb_build_object('id', ca.id, 'name', ca.name)
            FROM canaries ca WHERE s.resource_type = 'canary' AND ca.id = s.resource_id)
       ) AS resource
FROM notification_send_history s
LEFT JOIN notifications n ON n.id = s.notification_id;

-- Agents with how much they report.
CREATE VIEW agents_summary WITH (security_invoker = true) AS
SELECT a.id, a.name, a.hostname, a.description, a.ip, a.version, a.username, a.person_id, a.properties,
       a.cleanup, a.last_seen, a.last_received, a.created_by, a.created_at, a.updated_at, a.deleted_at,
       (SELECT count(*)::int FROM config_items ci WHERE ci.agent_id = a.id AND ci.deleted_at IS NULL) AS config_count,
       (SELECT count(*)::int FROM checks ck WHERE ck.agent_id = a.id AND ck.deleted_at IS NULL) AS checks_count,
       (SELECT count(*)::int FROM config_scrapers cs WHERE cs.agent_id = a.id AND cs.deleted_at IS NULL) AS config_scrapers_count,
       (SELECT count(*)::int FROM playbook_runs pr WHERE pr.agent_id = a.id) AS playbook_runs_count
FROM agents a;

-- Integrations (catalog scrapers, topologies, logging backends) with their last job.
CREATE VIEW integrations_with_status WITH (security_invoker = true) AS
SELECT i.id, i.name, i.namespace, i.description, i.integration_type, i.source, i.agent_id, i.labels,
       i.created_by, i.created_at, i.updated_at, i.deleted_at,
       j.status AS job_status, j.details AS job_details, j.time_start AS job_time_start,
       j.time_end AS job_time_end, f.time_start AS job_last_failed
FROM (
  SELECT s.id, s.name, s.namespace, s.description, 'scrapers'::text AS integration_type, s.source, s.agent_id,
         s.labels, s.created_by, s.created_at, s.updated_at, s.deleted_at,
         ARRAY['config_scraper', 'catalog_scraper'] AS job_types
  FROM config_scrapers s
  UNION ALL
  SELECT t.id, t.name, t.namespace, NULL, 'topologies', t.source, t.agent_id, t.labels, t.created_by,
         t.created_at, t.updated_at, t.deleted_at, ARRAY['topology']
  FROM topologies t
  UNION ALL
  SELECT l.id, l.name, l.namespace, NULL, 'logging_backends', l.source, l.agent_id, l.labels, l.created_by,
         l.created_at, l.updated_at, l.deleted_at, ARRAY['logging_backend']
  FROM logging_backends l
) i
LEFT JOIN LATERAL (
  SELECT jh.status, jh.details, jh.time_start, jh.time_end FROM job_history jh
   WHERE jh.resource_id = i.id::text AND jh.resource_type = ANY (i.job_types)
   ORDER BY jh.time_start DESC LIMIT 1
) j ON true
LEFT JOIN LATERAL (
  SELECT jh.time_start FROM job_history jh
   WHERE jh.resource_id = i.id::text AND jh.resource_type = ANY (i.job_types) AND jh.status = 'FAILED'
   ORDER BY jh.time_start DESC LIMIT 1
) f ON true;

-- Views for the sidebar and the views list, without their specs.
CREATE VIEW views_summary WITH (security_invoker = true) AS
SELECT v.id, v.name, v.namespace, v.title, v.icon, v.ordinal, v.sidebar, v.labels, v.source, v.agent_id,
       v.error, v.last_ran, v.created_by, v.created_at, v.updated_at, v.deleted_at
FROM views v;
