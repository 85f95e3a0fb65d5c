-- View tables made before migration 0420 (layout 3) have no `view_id` column, which the views
-- selector of a permission reaches their rows through (ADR 0040): until their next refresh
-- rebuilt them, a caller narrowed by such a selector got an error instead of rows. Each existing
-- table gets the column now, filled with its view's id (a constant default: no table rewrite).
DO $$
DECLARE
  t record;
BEGIN
  FOR t IN
    SELECT vt.view_id, vt.table_name
    FROM view_tables vt
    JOIN pg_class c ON c.relname = vt.table_name AND c.relkind IN ('r', 'p')
    JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
    WHERE NOT EXISTS (
      SELECT 1 FROM pg_attribute a
      WHERE a.attrelid = c.oid AND a.attname = 'view_id' AND NOT a.attisdropped
    )
  LOOP
    EXECUTE format('ALTER TABLE %I ADD COLUMN view_id uuid NOT NULL DEFAULT %L::uuid', t.table_name, t.view_id);
  END LOOP;
END $$;
