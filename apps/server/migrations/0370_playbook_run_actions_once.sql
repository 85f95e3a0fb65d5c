-- One row per action of a run (issue 24): the runner starts an action by inserting its row, or by
-- moving an existing one out of scheduled/sleeping, and only the statement that did so runs it.
-- With this key two processes that both hold a run (a lease that lapsed under load) cannot both
-- start the same action. The runner only ever made one row per (run, action name); rows a race
-- duplicated before this migration keep the newest under the name, older ones get their id
-- appended so the key can be built.
UPDATE playbook_run_actions a
   SET name = a.name || ' (' || a.id || ')'
 WHERE EXISTS (
   SELECT 1 FROM playbook_run_actions b
    WHERE b.playbook_run_id = a.playbook_run_id AND b.name = a.name
      AND (b.created_at, b.id) > (a.created_at, a.id)
 );
CREATE UNIQUE INDEX playbook_run_actions_run_name_key ON playbook_run_actions (playbook_run_id, name);
