-- Playbook specs hold credentials (webhook authentication, http/sql action passwords): they are
-- sealed at rest like connections' and canaries' (resources/sealed-specs.ts), read as the mask,
-- and an update that sends the mask back keeps the stored secret (0098's function).
CREATE TRIGGER playbooks_keep_masked_secrets BEFORE UPDATE ON playbooks
  FOR EACH ROW EXECUTE FUNCTION spec_keep_masked_secrets();
