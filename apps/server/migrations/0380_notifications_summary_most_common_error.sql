-- notifications_summary gains upstream's `most_common_error` (issue 21 wire compatibility): the
-- error text a notification's failed sends carried most often (ties: the most recent such error),
-- NULL when none failed. Every column of 0090's definition is kept, in its order; the new column
-- comes last, as CREATE OR REPLACE VIEW requires.
CREATE OR REPLACE VIEW notifications_summary WITH (security_invoker = true) AS
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
       h.avg_duration_ms, h.last_sent_at, h.last_failed_at,
       e.most_common_error
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
) h ON true
LEFT JOIN LATERAL (
  SELECT s.error AS most_common_error
  FROM notification_send_history s
  WHERE s.notification_id = n.id AND s.status IN ('error', 'failed') AND s.error IS NOT NULL
  GROUP BY s.error
  ORDER BY count(*) DESC, max(s.created_at) DESC
  LIMIT 1
) e ON true;
