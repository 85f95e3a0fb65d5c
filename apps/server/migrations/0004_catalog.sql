-- Catalog: scrapers, configuration items, their changes, analysis and relationships.

CREATE TABLE config_scrapers (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name          text NOT NULL,
  namespace     text NOT NULL DEFAULT 'default',
  description   text,
  icon          text,
  schedule      text,
  labels        jsonb DEFAULT '{}'::jsonb,
  spec          jsonb NOT NULL DEFAULT '{}'::jsonb,
  source        text NOT NULL DEFAULT 'UI',
  agent_id      uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  -- Credentials shared by every scraper of the spec, when it names one.
  connection_id uuid REFERENCES connections (id) ON DELETE SET NULL,
  created_by    uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  deleted_at    timestamptz
);
CREATE UNIQUE INDEX config_scrapers_namespace_name_key ON config_scrapers (namespace, name)
  WHERE deleted_at IS NULL;
CREATE INDEX config_scrapers_created_at_idx ON config_scrapers (created_at);
CREATE TRIGGER config_scrapers_set_updated_at BEFORE INSERT OR UPDATE ON config_scrapers
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

CREATE TABLE config_items (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Items outlive a hard-deleted scraper; the scraper's own soft delete marks them deleted.
  scraper_id        uuid REFERENCES config_scrapers (id) ON DELETE SET NULL,
  agent_id          uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  parent_id         uuid REFERENCES config_items (id) ON DELETE SET NULL,
  -- Dot-separated ancestor ids, root first, for subtree queries without recursion.
  path              text,
  external_id       text[],
  -- 'Kubernetes::Pod', 'AWS::EC2::Instance': parts separated by '::'.
  type              text NOT NULL,
  config_class      text,
  name              text,
  namespace         text,
  description       text,
  status            text,
  health            text,
  ready             boolean,
  labels            jsonb DEFAULT '{}'::jsonb,
  tags              jsonb DEFAULT '{}'::jsonb,
  properties        jsonb,
  -- The scraped document itself; the configs view leaves it out because it can be large.
  config            jsonb,
  source            text,
  cost_per_minute   numeric(16, 4),
  cost_total_1d     numeric(16, 4),
  cost_total_7d     numeric(16, 4),
  cost_total_30d    numeric(16, 4),
  delete_reason     text,
  last_scraped_time timestamptz,
  created_by        uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  deleted_at        timestamptz
);
CREATE INDEX config_items_type_name_idx ON config_items (type, name);
CREATE INDEX config_items_name_idx ON config_items (name);
CREATE INDEX config_items_name_trgm_idx ON config_items USING gin (name gin_trgm_ops);
CREATE INDEX config_items_labels_idx ON config_items USING gin (labels);
CREATE INDEX config_items_tags_idx ON config_items USING gin (tags);
CREATE INDEX config_items_external_id_idx ON config_items USING gin (external_id);
CREATE INDEX config_items_config_class_idx ON config_items (config_class);
CREATE INDEX config_items_status_idx ON config_items (status);
CREATE INDEX config_items_health_idx ON config_items (health);
CREATE INDEX config_items_parent_id_idx ON config_items (parent_id);
CREATE INDEX config_items_path_idx ON config_items (path text_pattern_ops);
CREATE INDEX config_items_scraper_id_idx ON config_items (scraper_id);
CREATE INDEX config_items_agent_id_idx ON config_items (agent_id);
CREATE INDEX config_items_deleted_at_idx ON config_items (deleted_at);
CREATE TRIGGER config_items_set_updated_at BEFORE INSERT OR UPDATE ON config_items
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- The biggest table after check_statuses: every list over it is by item and recency.
CREATE TABLE config_changes (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  config_id           uuid NOT NULL REFERENCES config_items (id) ON DELETE CASCADE,
  external_change_id  text,
  external_created_by text,
  change_type         text,
  severity            text,
  source              text,
  summary             text,
  diff                text,
  details             jsonb,
  patches             jsonb,
  -- Identical changes seen again bump count instead of adding rows.
  count               integer NOT NULL DEFAULT 1,
  first_observed      timestamptz,
  created_by          uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX config_changes_config_id_created_at_idx ON config_changes (config_id, created_at DESC);
CREATE INDEX config_changes_created_at_idx ON config_changes (created_at);
CREATE INDEX config_changes_change_type_idx ON config_changes (change_type);
CREATE INDEX config_changes_created_by_idx ON config_changes (created_by);
-- Scrapers re-read the same external events; this makes the re-read an upsert.
CREATE UNIQUE INDEX config_changes_config_id_external_change_id_key
  ON config_changes (config_id, external_change_id) WHERE external_change_id IS NOT NULL;

CREATE TABLE config_analysis (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  config_id      uuid NOT NULL REFERENCES config_items (id) ON DELETE CASCADE,
  scraper_id     uuid REFERENCES config_scrapers (id) ON DELETE SET NULL,
  analyzer       text NOT NULL,
  analysis_type  text,
  severity       text,
  status         text,
  summary        text,
  message        text,
  analysis       jsonb,
  source         text,
  first_observed timestamptz NOT NULL DEFAULT now(),
  last_observed  timestamptz,
  created_by     uuid REFERENCES people (id) ON DELETE SET NULL
);
-- A finding is one analyzer's verdict on one item, observed again and again (first/last
-- observed); re-observing it is an upsert on this key.
CREATE UNIQUE INDEX config_analysis_config_id_analyzer_key ON config_analysis (config_id, analyzer);
CREATE INDEX config_analysis_analyzer_idx ON config_analysis (analyzer);
CREATE INDEX config_analysis_analysis_type_idx ON config_analysis (analysis_type);
CREATE INDEX config_analysis_first_observed_idx ON config_analysis (first_observed);
CREATE INDEX config_analysis_last_observed_idx ON config_analysis (last_observed);

-- Directed edges between items; clients embed both ends with the named foreign keys.
CREATE TABLE config_relationships (
  config_id   uuid NOT NULL,
  related_id  uuid NOT NULL,
  relation    text NOT NULL DEFAULT '',
  -- Which relationship rule produced the edge, so a rescan can retract what it no longer sees.
  selector_id text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz,
  PRIMARY KEY (config_id, related_id, relation),
  CONSTRAINT config_relationships_config_id_fkey
    FOREIGN KEY (config_id) REFERENCES config_items (id) ON DELETE CASCADE,
  CONSTRAINT config_relationships_related_id_fkey
    FOREIGN KEY (related_id) REFERENCES config_items (id) ON DELETE CASCADE,
  CONSTRAINT config_relationships_not_self CHECK (config_id <> related_id)
);
CREATE INDEX config_relationships_related_id_idx ON config_relationships (related_id);
CREATE TRIGGER config_relationships_set_updated_at BEFORE INSERT OR UPDATE ON config_relationships
  FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Read views: plain projections clients query by name.

-- Everything but the raw scraped document.
CREATE VIEW configs WITH (security_invoker = true) AS
SELECT
  id, scraper_id, agent_id, parent_id, path, external_id, type, config_class, name, namespace,
  description, status, health, ready, labels, tags, properties, source, cost_per_minute,
  cost_total_1d, cost_total_7d, cost_total_30d, delete_reason, last_scraped_time, created_by,
  created_at, updated_at, deleted_at
FROM config_items;

CREATE VIEW config_names WITH (security_invoker = true) AS
SELECT id, name, type, config_class, agent_id
FROM config_items
WHERE deleted_at IS NULL;

CREATE VIEW config_types WITH (security_invoker = true) AS
SELECT DISTINCT type
FROM config_items
WHERE deleted_at IS NULL;

CREATE VIEW config_statuses WITH (security_invoker = true) AS
SELECT DISTINCT status
FROM config_items
WHERE deleted_at IS NULL AND status IS NOT NULL;

-- config_changes grows to millions of rows with a handful of types: walk the change_type
-- index one distinct value at a time instead of reading the whole table.
CREATE VIEW change_types WITH (security_invoker = true) AS
WITH RECURSIVE walk (change_type) AS (
  (SELECT c.change_type FROM config_changes c
   WHERE c.change_type IS NOT NULL ORDER BY c.change_type LIMIT 1)
  UNION ALL
  SELECT (SELECT c.change_type FROM config_changes c
          WHERE c.change_type > walk.change_type ORDER BY c.change_type LIMIT 1)
  FROM walk
  WHERE walk.change_type IS NOT NULL
)
SELECT change_type FROM walk WHERE change_type IS NOT NULL;

CREATE VIEW analysis_types WITH (security_invoker = true) AS
SELECT DISTINCT analysis_type
FROM config_analysis
WHERE analysis_type IS NOT NULL;

CREATE VIEW config_analysis_analyzers WITH (security_invoker = true) AS
SELECT DISTINCT analyzer
FROM config_analysis;
