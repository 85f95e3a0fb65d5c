-- Every change to components, whichever way it came in (a topology run, the data API, SQL), is
-- announced at commit on 'opsdeck_components' (issue 23, ADR 0044): the topology API keeps the
-- dashboard's filter values (types, teams, label values of all live components) cached and drops
-- them when this fires, instead of recomputing them for every request. One notification per
-- statement, folded per transaction by NOTIFY; a listener that loses its connection stops caching.
CREATE FUNCTION notify_components_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('opsdeck_components', '');
  RETURN NULL;
END;
$$;

CREATE TRIGGER components_notify_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON components
  FOR EACH STATEMENT EXECUTE FUNCTION notify_components_changed();
