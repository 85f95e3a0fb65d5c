-- Columns the ecosystem's clients select by name on relations API.md §1 lists, found missing by
-- the audit of issue 21 (docs/upstream-schema-audit.md lists every relation compared, what this
-- adds and what it leaves out and why). Views only gain columns at their end (CREATE OR REPLACE
-- may not drop or reorder), so every earlier reader keeps its columns.

-- configs.changes and configs.analysis ------------------------------------------------------------

-- Per item, as the ecosystem's `configs` view carries them: `changes` counts the item's changes
-- per (change_type, severity) as [{change_type, severity, total}], `analysis` lists its open
-- findings as [{analyzer, analysis_type, severity}]; both null for an item with none. Correlated
-- subqueries, so a page of configs reads only its own items' rows (config_changes_config_id and
-- config_analysis_config_id indexes), never the whole change table.
CREATE OR REPLACE VIEW configs WITH (security_invoker = true) AS
SELECT
  ci.id, ci.scraper_id, ci.agent_id, ci.parent_id, ci.path, ci.external_id, ci.type, ci.config_class,
  ci.name, ci.namespace, ci.description, ci.status, ci.health, ci.ready, ci.labels, ci.tags,
  ci.properties, ci.source, ci.cost_per_minute, ci.cost_total_1d, ci.cost_total_7d,
  ci.cost_total_30d, ci.delete_reason, ci.last_scraped_time, ci.created_by, ci.created_at,
  ci.updated_at, ci.deleted_at,
  (SELECT jsonb_agg(jsonb_build_object('change_type', g.change_type, 'severity', g.severity,
                                       'total', g.total)
                    ORDER BY g.change_type, g.severity)
   FROM (SELECT cc.change_type, cc.severity, count(*)::integer AS total
         FROM config_changes cc
         WHERE cc.config_id = ci.id
         GROUP BY cc.change_type, cc.severity) g) AS changes,
  (SELECT jsonb_agg(jsonb_build_object('analyzer', ca.analyzer, 'analysis_type', ca.analysis_type,
                                       'severity', ca.severity)
                    ORDER BY ca.analyzer, ca.id)
   FROM config_analysis ca
   WHERE ca.config_id = ci.id AND ca.status = 'open') AS analysis
FROM config_items ci;

COMMENT ON COLUMN configs.changes IS
  'Change counts of the item per change_type and severity: [{change_type, severity, total}]; null when none';
COMMENT ON COLUMN configs.analysis IS
  'Open analyses of the item: [{analyzer, analysis_type, severity}]; null when none';

-- canaries_with_status: the last job of the canary --------------------------------------------

-- The canary runner records each run in job_history with resource_type 'canary'. The ecosystem's
-- view carries the newest one as job_* columns, the newest failure as job_last_failed, the
-- deprecated spec.interval as `interval` and the agent as {id, name}. Keep in step with the
-- health module's read source (modules/health/read-sources.ts); default-allowlist.int.test.ts
-- compares both.
CREATE OR REPLACE VIEW canaries_with_status WITH (security_invoker = true) AS
SELECT
  cn.id, cn.name, cn.namespace, cn.icon, cn.schedule, cn.labels, cn.spec, cn.source, cn.agent_id,
  cn.created_by, cn.created_at, cn.updated_at, cn.deleted_at,
  jsonb_build_object('healthy', coalesce(s.healthy, 0), 'unhealthy', coalesce(s.unhealthy, 0),
                     'unknown', coalesce(s.unknown, 0)) AS checks,
  CASE WHEN coalesce(s.unhealthy, 0) > 0 THEN 'unhealthy'
       WHEN coalesce(s.healthy, 0) > 0 AND coalesce(s.unknown, 0) = 0 THEN 'healthy'
       ELSE 'unknown' END AS status,
  s.last_runtime,
  cn.spec ->> 'interval' AS "interval",
  j.name AS job_name,
  j.success_count AS job_success_count,
  j.error_count AS job_error_count,
  j.details AS job_details,
  j.hostname AS job_hostname,
  j.duration_millis AS job_duration_millis,
  j.resource_type AS job_resource_type,
  j.status AS job_status,
  j.time_start AS job_time_start,
  j.time_end AS job_time_end,
  j.created_at AS job_created_at,
  f.time_start AS job_last_failed,
  jsonb_build_object('id', a.id, 'name', a.name) AS agent
FROM canaries cn
LEFT JOIN LATERAL (
  SELECT count(*) FILTER (WHERE ch.status = 'healthy')::integer AS healthy,
         count(*) FILTER (WHERE ch.status = 'unhealthy')::integer AS unhealthy,
         count(*) FILTER (WHERE ch.status IS NULL)::integer AS unknown,
         max(ch.last_runtime) AS last_runtime
  FROM checks ch
  WHERE ch.canary_id = cn.id AND ch.deleted_at IS NULL
) s ON true
LEFT JOIN LATERAL (
  SELECT jh.name, jh.success_count, jh.error_count, jh.details, jh.hostname, jh.duration_millis,
         jh.resource_type, jh.status, jh.time_start, jh.time_end, jh.created_at
  FROM job_history jh
  WHERE jh.resource_id = cn.id::text AND jh.resource_type = 'canary'
  ORDER BY jh.time_start DESC, jh.id DESC
  LIMIT 1
) j ON true
LEFT JOIN LATERAL (
  SELECT max(jh.time_start) AS time_start
  FROM job_history jh
  WHERE jh.resource_id = cn.id::text AND jh.resource_type = 'canary' AND jh.status = 'FAILED'
) f ON true
LEFT JOIN agents a ON a.id = cn.agent_id;

-- config_scrapers_with_status: the rest of the ecosystem's job_* columns ---------------------------

-- Same last finished run as 0030 (RUNNING rows are skipped there, and still are), now with every
-- job_* column the ecosystem's view has, the newest failure and the agent.
CREATE OR REPLACE VIEW config_scrapers_with_status WITH (security_invoker = true) AS
SELECT s.id, s.name, s.namespace, s.description, s.icon, s.schedule, s.labels, s.spec, s.source,
       s.agent_id, s.connection_id, s.created_by, s.created_at, s.updated_at, s.deleted_at,
       last_run.status AS job_status,
       last_run.time_start AS job_time_start,
       last_run.details AS job_details,
       last_run.success_count AS job_success_count,
       last_run.error_count AS job_error_count,
       last_run.name AS job_name,
       last_run.hostname AS job_hostname,
       last_run.duration_millis AS job_duration_millis,
       last_run.resource_type AS job_resource_type,
       last_run.time_end AS job_time_end,
       last_run.created_at AS job_created_at,
       failed.time_start AS job_last_failed,
       jsonb_build_object('id', a.id, 'name', a.name) AS agent
FROM config_scrapers s
LEFT JOIN LATERAL (
  SELECT h.status, h.time_start, h.details, h.success_count, h.error_count, h.name, h.hostname,
         h.duration_millis, h.resource_type, h.time_end, h.created_at
  FROM job_history h
  WHERE h.resource_type = 'config_scraper' AND h.resource_id = s.id::text AND h.status <> 'RUNNING'
  ORDER BY h.time_start DESC
  LIMIT 1
) last_run ON true
LEFT JOIN LATERAL (
  SELECT max(h.time_start) AS time_start
  FROM job_history h
  WHERE h.resource_type = 'config_scraper' AND h.resource_id = s.id::text AND h.status = 'FAILED'
) failed ON true
LEFT JOIN agents a ON a.id = s.agent_id;

-- playbooks.icon and playbooks.category -----------------------------------------------------------

-- The ecosystem's playbooks table has icon (null when none) and category ('' when none) columns;
-- Opsdeck keeps both in the spec (spec.icon, spec.category), as playbook_names already shows
-- them. The columns follow the spec however the row is written. A write that sets a column to
-- something other than its spec's value is refused with the field named, instead of being
-- silently replaced: on insert a value other than the default, on update a changed value.
ALTER TABLE playbooks
  ADD COLUMN icon text,
  ADD COLUMN category text NOT NULL DEFAULT '';

CREATE FUNCTION playbook_icon_from_spec(spec jsonb) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_typeof(spec -> 'icon') = 'string' THEN nullif(spec ->> 'icon', '') END
$$;

CREATE FUNCTION playbook_category_from_spec(spec jsonb) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_typeof(spec -> 'category') = 'string' THEN spec ->> 'category' ELSE '' END
$$;

CREATE FUNCTION playbooks_columns_from_spec() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  icon_given boolean;
  category_given boolean;
BEGIN
  IF TG_OP = 'INSERT' THEN
    icon_given := NEW.icon IS NOT NULL;
    category_given := NEW.category IS DISTINCT FROM '';
  ELSE
    icon_given := NEW.icon IS DISTINCT FROM OLD.icon;
    category_given := NEW.category IS DISTINCT FROM OLD.category;
  END IF;
  IF icon_given AND NEW.icon IS DISTINCT FROM playbook_icon_from_spec(NEW.spec) THEN
    RAISE EXCEPTION 'icon is derived from spec.icon: write the spec instead'
      USING ERRCODE = 'P0001', DETAIL = 'field: icon';
  END IF;
  IF category_given AND NEW.category IS DISTINCT FROM playbook_category_from_spec(NEW.spec) THEN
    RAISE EXCEPTION 'category is derived from spec.category: write the spec instead'
      USING ERRCODE = 'P0001', DETAIL = 'field: category';
  END IF;
  NEW.icon := playbook_icon_from_spec(NEW.spec);
  NEW.category := playbook_category_from_spec(NEW.spec);
  RETURN NEW;
END;
$$;

CREATE TRIGGER playbooks_columns_from_spec BEFORE INSERT OR UPDATE ON playbooks
  FOR EACH ROW EXECUTE FUNCTION playbooks_columns_from_spec();

ALTER TABLE playbooks DISABLE TRIGGER playbooks_set_updated_at;
UPDATE playbooks
   SET icon = playbook_icon_from_spec(spec), category = playbook_category_from_spec(spec)
 WHERE playbook_icon_from_spec(spec) IS NOT NULL OR playbook_category_from_spec(spec) <> '';
ALTER TABLE playbooks ENABLE TRIGGER playbooks_set_updated_at;

COMMENT ON COLUMN playbooks.icon IS 'spec.icon (null when none); follows the spec';
COMMENT ON COLUMN playbooks.category IS 'spec.category ('''' when none); follows the spec';

-- people.organization -----------------------------------------------------------------------------

-- The ecosystem's people rows carry the organization a person belongs to (free text, as an
-- identity provider or a team sync reports it); written and read like title and phone.
ALTER TABLE people ADD COLUMN organization text;
COMMENT ON COLUMN people.organization IS 'Organization the person belongs to (free text)';
