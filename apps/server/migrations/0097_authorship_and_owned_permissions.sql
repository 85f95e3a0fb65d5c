-- Authorship is the server's word, not the client's (issue: authorship cannot be forged). While a
-- write declares its acting person (`opsdeck.person_id`, set by the data API and the modules'
-- routes for the caller), a new row's created_by is that person whatever the body said, and an
-- update keeps the stored created_by (updated_by, where a table has it, becomes the person).
-- Writes without an acting person (scrapers, YAML apply, jobs, ON DELETE SET NULL) are left as
-- they are. Named `<table>_a_authorship` so it runs before the tables' other BEFORE triggers
-- (which fire in name order and may read created_by).
CREATE FUNCTION set_authorship() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  actor uuid := nullif(current_setting('opsdeck.person_id', true), '')::uuid;
BEGIN
  IF actor IS NULL THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'INSERT' THEN
    NEW.created_by := actor;
  ELSE
    NEW.created_by := OLD.created_by;
    IF TG_ARGV[0] = 'updated_by' THEN
      NEW.updated_by := actor;
    END IF;
  END IF;
  RETURN NEW;
END
$$;

DO $$
DECLARE
  t record;
BEGIN
  FOR t IN
    SELECT c.table_name,
           EXISTS (SELECT 1 FROM information_schema.columns u
                    WHERE u.table_schema = c.table_schema AND u.table_name = c.table_name
                      AND u.column_name = 'updated_by') AS has_updated_by
      FROM information_schema.columns c
      JOIN information_schema.tables tb USING (table_schema, table_name)
     WHERE c.table_schema = current_schema() AND c.column_name = 'created_by'
       AND tb.table_type = 'BASE TABLE'
       AND c.data_type = 'uuid'
  LOOP
    EXECUTE format(
      'CREATE TRIGGER %I BEFORE INSERT OR UPDATE ON %I FOR EACH ROW EXECUTE FUNCTION set_authorship(%L)',
      t.table_name || '_a_authorship', t.table_name,
      CASE WHEN t.has_updated_by THEN 'updated_by' ELSE '' END);
  END LOOP;
END
$$;

-- Permissions owned by a YAML source (a file, a CRD, the demo) are changed by that source only:
-- through the API (a write with an acting person) they are read-only.
CREATE FUNCTION permissions_refuse_owned_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF nullif(current_setting('opsdeck.person_id', true), '') IS NOT NULL
     AND OLD.source IS NOT NULL AND OLD.source <> 'UI' THEN
    RAISE EXCEPTION 'permission % is managed by its source (%) and read-only here', coalesce(OLD.name, OLD.id::text), OLD.source
      USING ERRCODE = '42501',
            HINT = 'Change the YAML it comes from and apply it again.';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END
$$;

CREATE TRIGGER permissions_refuse_owned_change BEFORE UPDATE OR DELETE ON permissions
  FOR EACH ROW EXECUTE FUNCTION permissions_refuse_owned_change();

-- Joining a team, or naming a team, hands over what permissions grant that team: through the API
-- only an admin may do that for a team that has allow permissions (a permission never grants
-- more than its author holds, and nobody but an admin holds everything a grant may name).
CREATE FUNCTION team_grants_need_admin() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  actor uuid := nullif(current_setting('opsdeck.person_id', true), '')::uuid;
  v_team_id   uuid;
  v_team_name text;
BEGIN
  IF actor IS NULL OR EXISTS (SELECT 1 FROM person_roles WHERE person_id = actor AND role = 'admin') THEN
    RETURN NEW;
  END IF;
  IF TG_TABLE_NAME = 'team_members' THEN
    SELECT t.id, t.name INTO v_team_id, v_team_name FROM teams t WHERE t.id = NEW.team_id;
  ELSE
    IF TG_OP = 'UPDATE' AND NEW.name IS NOT DISTINCT FROM OLD.name THEN
      RETURN NEW;
    END IF;
    v_team_id := NEW.id;
    v_team_name := NEW.name;
  END IF;
  IF EXISTS (
    SELECT 1 FROM permissions p
     WHERE p.deleted_at IS NULL AND NOT p.deny AND (p.until IS NULL OR p.until > now())
       AND (p.team_id = v_team_id
            OR (p.subject_type = 'team' AND p.team_id IS NULL AND p.subject IN (v_team_id::text, v_team_name)))
  ) THEN
    RAISE EXCEPTION 'team % has permissions of its own: only an admin may add its members or give it that name', v_team_name
      USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER team_members_grants_need_admin BEFORE INSERT OR UPDATE ON team_members
  FOR EACH ROW EXECUTE FUNCTION team_grants_need_admin();
CREATE TRIGGER teams_grants_need_admin BEFORE INSERT OR UPDATE ON teams
  FOR EACH ROW EXECUTE FUNCTION team_grants_need_admin();
