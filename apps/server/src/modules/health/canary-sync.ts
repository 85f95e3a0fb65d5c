import type { Queryable } from '../../platform/jobs/index.js';
import { findCheckType, listCanaryChecks, type CanaryCheckEntry } from './checks/index.js';
import { asRecord, stringMap, textOrNull } from './spec-values.js';

/** The columns of a canaries row the health workers use. */
export interface CanaryRow {
  id: string;
  name: string;
  namespace: string;
  icon: string | null;
  schedule: string | null;
  labels: Record<string, string> | null;
  spec: unknown;
  agent_id: string;
  updated_at: Date;
  deleted_at: Date | null;
}

export const CANARY_COLUMNS =
  'id, name, namespace, icon, schedule, labels, spec, agent_id, updated_at, deleted_at';

/** One declared check of a canary with the id of its checks row. */
export interface SyncedCheck {
  id: string;
  entry: CanaryCheckEntry;
}

/** What the checks list shows as the target; empty when the spec does not parse. */
function endpointOf(entry: CanaryCheckEntry): string {
  const checkType = entry.supported ? findCheckType(entry.type) : undefined;
  if (!checkType)
    return textOrNull(asRecord(entry.spec).endpoint) ?? textOrNull(asRecord(entry.spec).url) ?? '';
  try {
    return checkType.endpoint(checkType.parse(entry.spec));
  } catch {
    return '';
  }
}

/**
 * The spec's checks in order, one per (type, name): a second entry with a name already used by
 * its type would overwrite the first's row, so only the first counts.
 */
export function declaredChecks(spec: unknown): CanaryCheckEntry[] {
  const seen = new Set<string>();
  return listCanaryChecks(spec).filter((entry) => {
    const key = `${entry.type}\u0000${entry.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Makes the checks rows of a canary match its spec: upserts one row per declared check
 * (undeleting one that comes back, so it keeps its id and history), and soft-deletes declared
 * checks no longer in the spec. A deleted canary soft-deletes all its checks. Checks produced
 * by transforms are left to the runs that produce them.
 */
export async function syncCanaryChecks(db: Queryable, canary: CanaryRow): Promise<SyncedCheck[]> {
  if (canary.deleted_at !== null) {
    await db.query(`UPDATE checks SET deleted_at = $2 WHERE canary_id = $1 AND deleted_at IS NULL`, [
      canary.id,
      canary.deleted_at,
    ]);
    return [];
  }
  const spec = asRecord(canary.spec);
  const canaryLabels = stringMap(canary.labels);
  const entries = declaredChecks(canary.spec);
  const synced: SyncedCheck[] = [];
  if (entries.length > 0) {
    const rows = entries.map((entry) => {
      const entrySpec = asRecord(entry.spec);
      return {
        type: entry.type,
        name: entry.name,
        description: textOrNull(entrySpec.description),
        icon: textOrNull(entrySpec.icon) ?? textOrNull(spec.icon) ?? canary.icon,
        namespace: textOrNull(entrySpec.namespace) ?? canary.namespace,
        endpoint: endpointOf(entry),
        owner: textOrNull(spec.owner),
        severity: textOrNull(entrySpec.severity) ?? textOrNull(spec.severity),
        labels: { ...canaryLabels, ...stringMap(entrySpec.labels) },
        spec: entry.spec ?? null,
      };
    });
    const { rows: ids } = await db.query<{ id: string; type: string; name: string }>(
      `INSERT INTO checks (canary_id, agent_id, type, name, description, icon, namespace, endpoint, owner,
                           severity, labels, spec, transformed, deleted_at)
       SELECT $1, $2, r.type, r.name, r.description, r.icon, r.namespace, r.endpoint, r.owner,
              r.severity, r.labels, r.spec, false, NULL
       FROM jsonb_to_recordset($3::jsonb) AS r(type text, name text, description text, icon text,
              namespace text, endpoint text, owner text, severity text, labels jsonb, spec jsonb)
       ON CONFLICT (canary_id, type, name) DO UPDATE
       SET description = EXCLUDED.description, icon = EXCLUDED.icon, namespace = EXCLUDED.namespace,
           endpoint = EXCLUDED.endpoint, owner = EXCLUDED.owner, severity = EXCLUDED.severity,
           labels = EXCLUDED.labels, spec = EXCLUDED.spec, agent_id = EXCLUDED.agent_id,
           transformed = false, deleted_at = NULL
       RETURNING id, type, name`,
      [canary.id, canary.agent_id, JSON.stringify(rows)],
    );
    const byKey = new Map(ids.map((row) => [`${row.type}\u0000${row.name}`, row.id]));
    for (const entry of entries) {
      const id = byKey.get(`${entry.type}\u0000${entry.name}`);
      if (id) synced.push({ id, entry });
    }
  }
  await db.query(
    `UPDATE checks SET deleted_at = now()
     WHERE canary_id = $1 AND deleted_at IS NULL AND NOT transformed AND NOT (id = ANY($2::uuid[]))`,
    [canary.id, synced.map((check) => check.id)],
  );
  return synced;
}

/** Loads one canary row (deleted ones too); undefined when there is none. */
export async function loadCanary(db: Queryable, id: string): Promise<CanaryRow | undefined> {
  const { rows } = await db.query<CanaryRow>(`SELECT ${CANARY_COLUMNS} FROM canaries WHERE id = $1`, [id]);
  return rows[0];
}
