import { actionCovers } from '@opsdeck/contracts';
import type { Pool } from '../../platform/db/pool.js';

/**
 * The property that makes a playbook's connections need a grant (ADR 0038). Off by default: a
 * playbook may use any connection unless a Deny row whose subject is the playbook covers it.
 */
export const PLAYBOOK_CONNECTION_PERMISSION_PROPERTY = 'playbooks.connection.require_permission';

export type ServiceDecision = { allowed: true } | { allowed: false; reason: string };

interface SubjectRow {
  action: string;
  deny: boolean;
  connection_id: string | null;
  object: string | null;
  object_selector: unknown;
}

interface ConnectionSelector {
  name?: unknown;
  namespace?: unknown;
}

/** An `object: {connections: [{name, namespace}]}` selector of a Permission resource (`*` for any). */
function selectorMatches(selector: unknown, connection: { name: string; namespace: string }): boolean {
  if (!selector || typeof selector !== 'object' || Array.isArray(selector)) return false;
  const entries = Object.entries(selector as Record<string, unknown>);
  // Several objects are ANDed; only a selector on connections alone can decide a connection.
  if (entries.length !== 1 || entries[0]![0] !== 'connections' || !Array.isArray(entries[0]![1]))
    return false;
  const fits = (wanted: unknown, actual: string) =>
    wanted === undefined || wanted === null || wanted === '*' || wanted === actual;
  return (entries[0]![1] as ConnectionSelector[]).some(
    (entry) =>
      entry !== null &&
      typeof entry === 'object' &&
      fits(entry.name, connection.name) &&
      fits(entry.namespace, connection.namespace),
  );
}

/**
 * Spec settings §2.2/§3: a playbook is a permission subject (the ecosystem's "playbook service":
 * the runner acting for that playbook). May the playbook's actions open this connection?
 * Rows name the playbook by id (the permissions page), `namespace/name` or name (YAML); they
 * target the connection by id, by the global kinds `connection`/`connection-detail`/`*`, or by a
 * `connections` selector. A Deny covering read wins; an allow grants; without either the
 * answer follows {@link PLAYBOOK_CONNECTION_PERMISSION_PROPERTY}. Rows narrowed by tags or
 * agents, or past `until`, decide nothing here.
 */
export async function playbookMayUseConnection(
  pool: Pool,
  playbookId: string,
  connection: { name: string; namespace: string },
): Promise<ServiceDecision> {
  const { rows: playbooks } = await pool.query<{ name: string; namespace: string }>(
    `SELECT name, namespace FROM playbooks WHERE id = $1`,
    [playbookId],
  );
  const playbook = playbooks[0];
  const { rows: connections } = await pool.query<{ id: string }>(
    `SELECT id FROM connections WHERE namespace = $1 AND name = $2 AND deleted_at IS NULL`,
    [connection.namespace, connection.name],
  );
  const connectionId = connections[0]?.id ?? null;
  const { rows } = await pool.query<SubjectRow>(
    `SELECT p.action, p.deny, p.connection_id, p.object, p.object_selector FROM permissions p
      WHERE p.deleted_at IS NULL AND (p.until IS NULL OR p.until > now())
        AND p.subject_type = 'playbook'
        AND p.subject IN ($1::text, $2, $3)
        AND p.config_id IS NULL AND p.component_id IS NULL AND p.canary_id IS NULL
        AND p.check_id IS NULL AND p.playbook_id IS NULL
        AND (p.tags IS NULL OR p.tags = '{}'::jsonb)
        AND coalesce(cardinality(p.agents), 0) = 0`,
    [playbookId, playbook ? `${playbook.namespace}/${playbook.name}` : null, playbook?.name ?? null],
  );
  const applies = rows.filter((row) => {
    if (row.connection_id) return row.connection_id === connectionId;
    const selector = row.object_selector;
    if (selector && typeof selector === 'object' && Object.keys(selector).length > 0)
      return selectorMatches(selector, connection);
    return row.object === 'connection' || row.object === 'connection-detail' || row.object === '*';
  });
  const label = `${connection.namespace}/${connection.name}`;
  if (applies.some((row) => row.deny && actionCovers(row.action, 'read', 'deny')))
    return { allowed: false, reason: `a permission denies this playbook reading connection ${label}` };
  if (applies.some((row) => !row.deny && actionCovers(row.action, 'read', 'allow'))) return { allowed: true };
  const { rows: required } = await pool.query(
    `SELECT 1 FROM properties WHERE name = $1 AND value = 'true' AND deleted_at IS NULL`,
    [PLAYBOOK_CONNECTION_PERMISSION_PROPERTY],
  );
  return required.length > 0
    ? { allowed: false, reason: `the playbook has no read permission on connection ${label}` }
    : { allowed: true };
}
