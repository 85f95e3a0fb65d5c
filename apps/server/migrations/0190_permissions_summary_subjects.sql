-- permissions_summary names the subject of a permission however the permission names it: by
-- person_id / team_id / notification_id, or (as YAML and ecosystem clients write them) by
-- `subject` with subject_type 'person' (the person's id or email), 'team' (the team's id or name)
-- or 'notification' (the notification's id, name or namespace/name). Before, `person`, `team`
-- and `notification` were null for the second kind. The columns are unchanged.
CREATE OR REPLACE VIEW permissions_summary WITH (security_invoker = true) AS
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
LEFT JOIN LATERAL (
  SELECT x.id, x.name, x.email, x.avatar FROM people x WHERE x.id = p.person_id
  UNION ALL
  SELECT x.id, x.name, x.email, x.avatar FROM people x
   WHERE p.person_id IS NULL AND p.subject_type = 'person' AND x.deleted_at IS NULL
     AND (x.id::text = lower(p.subject) OR lower(x.email) = lower(p.subject))
  LIMIT 1
) pe ON true
LEFT JOIN LATERAL (
  SELECT x.id, x.name, x.icon FROM teams x WHERE x.id = p.team_id
  UNION ALL
  SELECT x.id, x.name, x.icon FROM teams x
   WHERE p.team_id IS NULL AND p.subject_type = 'team' AND x.deleted_at IS NULL
     AND (x.id::text = lower(p.subject) OR x.name = p.subject)
  LIMIT 1
) tm ON true
LEFT JOIN LATERAL (
  SELECT x.id, x.name, x.namespace FROM notifications x WHERE x.id = p.notification_id
  UNION ALL
  SELECT x.id, x.name, x.namespace FROM notifications x
   WHERE p.notification_id IS NULL AND p.subject_type = 'notification' AND x.deleted_at IS NULL
     AND (x.id::text = lower(p.subject) OR x.name = p.subject OR x.namespace || '/' || x.name = p.subject)
  LIMIT 1
) n ON true
LEFT JOIN playbooks pb ON pb.id = p.playbook_id
LEFT JOIN playbooks sp ON p.subject_type = 'playbook' AND sp.id::text = p.subject
LEFT JOIN config_items ci ON ci.id = p.config_id
LEFT JOIN components co ON co.id = p.component_id
LEFT JOIN canaries ca ON ca.id = p.canary_id
LEFT JOIN checks ck ON ck.id = p.check_id
LEFT JOIN connections cn ON cn.id = p.connection_id
LEFT JOIN people cb ON cb.id = p.created_by;
