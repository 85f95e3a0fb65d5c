-- Views (issue 28): a view's rows live in its own table `view_<namespace>_<name>`, created and
-- refreshed by modules/views. This table records, per view and request fingerprint (a hash of
-- the request's variables), when its rows were last materialised, and which table shape
-- (columns) the view's table was created with, so a changed spec recreates it.
CREATE TABLE view_refreshes (
  view_id             uuid NOT NULL REFERENCES views (id) ON DELETE CASCADE,
  request_fingerprint text NOT NULL,
  variables           jsonb NOT NULL DEFAULT '{}'::jsonb,
  refreshed_at        timestamptz NOT NULL DEFAULT now(),
  row_count           integer NOT NULL DEFAULT 0,
  PRIMARY KEY (view_id, request_fingerprint)
);

CREATE TABLE view_tables (
  view_id    uuid PRIMARY KEY REFERENCES views (id) ON DELETE CASCADE,
  table_name text NOT NULL UNIQUE,
  shape      text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Panels run the view author's SQL over the view's rows. They run as this role, which may read
-- only the view tables (each is granted to it when created), never the product's own tables.
-- Creating a role needs CREATEROLE; without it panels report that they cannot run.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'opsdeck_view_panels') THEN
    CREATE ROLE opsdeck_view_panels NOLOGIN;
  END IF;
  EXECUTE format('GRANT opsdeck_view_panels TO %I', current_user);
EXCEPTION
  WHEN insufficient_privilege OR duplicate_object OR unique_violation THEN NULL;
END
$$;

-- A view's display settings are columns (the sidebar lists views without parsing specs), derived
-- from `spec.display` on every write that carries one, so data-API writes cannot make them
-- disagree. Rows whose spec has no display keep the columns as written.
CREATE FUNCTION views_columns_from_spec() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  display jsonb := NEW.spec -> 'display';
BEGIN
  IF display IS NULL OR jsonb_typeof(display) <> 'object' THEN
    RETURN NEW;
  END IF;
  NEW.title := CASE WHEN jsonb_typeof(display -> 'title') = 'string' THEN nullif(display ->> 'title', '') END;
  NEW.icon := CASE WHEN jsonb_typeof(display -> 'icon') = 'string' THEN nullif(display ->> 'icon', '') END;
  NEW.sidebar := coalesce(jsonb_typeof(display -> 'sidebar') = 'boolean' AND (display ->> 'sidebar')::boolean, false);
  NEW.ordinal := CASE WHEN jsonb_typeof(display -> 'ordinal') = 'number' THEN (display ->> 'ordinal')::numeric::integer END;
  RETURN NEW;
END;
$$;

CREATE TRIGGER views_columns_from_spec BEFORE INSERT OR UPDATE ON views
  FOR EACH ROW EXECUTE FUNCTION views_columns_from_spec();

UPDATE views SET spec = spec WHERE jsonb_typeof(spec -> 'display') = 'object';
