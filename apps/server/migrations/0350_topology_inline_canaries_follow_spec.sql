-- Inline checks of a topology (issue 23) are canaries with source 'topology:<id>', created by the
-- topology's runs. They follow the topology at once, whichever way it changes (API, editor, apply,
-- SQL), instead of at its next run:
-- * the topology soft-deleted (or deleted): its inline canaries are soft-deleted;
-- * its spec edited: an inline canary whose declaring path (label 'opsdeck.io/topology-check', a
--   dotted JSON path into the spec: the inline check, or the lookup that made its component) is no
--   longer in the spec is soft-deleted. Canaries without the label (made before it) wait for the run.
-- Soft-deleting a canary unschedules it (the canary schedulers wake on the change, 0180), so its
-- checks stop.
CREATE FUNCTION topology_inline_canaries_follow() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR (NEW.deleted_at IS NOT NULL AND OLD.deleted_at IS NULL) THEN
    UPDATE canaries SET deleted_at = now(), updated_at = now()
     WHERE source = 'topology:' || OLD.id::text AND deleted_at IS NULL;
  ELSIF NEW.spec IS DISTINCT FROM OLD.spec AND NEW.deleted_at IS NULL THEN
    UPDATE canaries SET deleted_at = now(), updated_at = now()
     WHERE source = 'topology:' || OLD.id::text AND deleted_at IS NULL
       AND labels ? 'opsdeck.io/topology-check'
       AND (coalesce(NEW.spec, '{}'::jsonb) #> string_to_array(labels ->> 'opsdeck.io/topology-check', '.')) IS NULL;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER topologies_inline_canaries_follow
  AFTER UPDATE OF deleted_at, spec OR DELETE ON topologies
  FOR EACH ROW EXECUTE FUNCTION topology_inline_canaries_follow();
