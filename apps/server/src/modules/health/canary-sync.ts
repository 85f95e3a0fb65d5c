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

/** The checks row a declared check should have: what syncing writes. */
function checkRowOf(canary: CanaryRow, entry: CanaryCheckEntry) {
  const spec = asRecord(canary.spec);
  const entrySpec = asRecord(entry.spec);
  return {
    canary_id: canary.id,
    agent_id: canary.agent_id,
    type: entry.type,
    name: entry.name,
    description: textOrNull(entrySpec.description),
    icon: textOrNull(entrySpec.icon) ?? textOrNull(spec.icon) ?? canary.icon,
    namespace: textOrNull(entrySpec.namespace) ?? canary.namespace,
    endpoint: endpointOf(entry),
    owner: textOrNull(spec.owner),
    severity: textOrNull(entrySpec.severity) ?? textOrNull(spec.severity),
    labels: { ...stringMap(canary.labels), ...stringMap(entrySpec.labels) },
    spec: entry.spec ?? null,
  };
}

/**
 * Makes the checks rows of a canary match its spec: upserts one row per declared check
 * (undeleting one that comes back, so it keeps its id and history), and soft-deletes declared
 * checks no longer in the spec. A deleted canary soft-deletes all its checks. Checks produced
 * by transforms are left to the runs that produce them.
 */
export async function syncCanaryChecks(db: Queryable, canary: CanaryRow): Promise<SyncedCheck[]> {
  return (await syncCanariesChecks(db, [canary]))[0];
}

/**
 * syncCanaryChecks for many canaries in three statements whatever their number (a process
 * starting with thousands of canaries paid three round trips per canary, issue 22). A row that
 * already matches its declared check is not written again, so a restart or an unchanged
 * re-apply leaves the checks table alone. Answers each canary's synced checks, in input order.
 */
export async function syncCanariesChecks(
  db: Queryable,
  canaries: readonly CanaryRow[],
): Promise<SyncedCheck[][]> {
  const deleted = canaries.filter((canary) => canary.deleted_at !== null);
  if (deleted.length > 0) {
    await db.query(
      `UPDATE checks SET deleted_at = d.deleted_at
       FROM unnest($1::uuid[], $2::timestamptz[]) AS d(canary_id, deleted_at)
       WHERE checks.canary_id = d.canary_id AND checks.deleted_at IS NULL`,
      [deleted.map((canary) => canary.id), deleted.map((canary) => canary.deleted_at)],
    );
  }
  // One row per canary id (a canary twice would upsert its checks twice in one statement).
  const live = [
    ...new Map(
      canaries.filter((canary) => canary.deleted_at === null).map((canary) => [canary.id, canary]),
    ).values(),
  ];
  const entriesOf = new Map(live.map((canary) => [canary.id, declaredChecks(canary.spec)]));
  const rows = live.flatMap((canary) => entriesOf.get(canary.id)!.map((entry) => checkRowOf(canary, entry)));
  const ids = new Map<string, string>();
  if (rows.length > 0) {
    // Rows written (new, changed or undeleted) come from the upsert; rows already as declared
    // are read as they were (the same snapshot), and not written.
    const { rows: found } = await db.query<{ id: string; canary_id: string; type: string; name: string }>(
      `WITH r AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(canary_id uuid, agent_id uuid, type text,
                name text, description text, icon text, namespace text, endpoint text, owner text,
                severity text, labels jsonb, spec jsonb)
       ),
       written AS (
         INSERT INTO checks (canary_id, agent_id, type, name, description, icon, namespace, endpoint, owner,
                             severity, labels, spec, transformed, deleted_at)
         SELECT r.canary_id, r.agent_id, r.type, r.name, r.description, r.icon, r.namespace, r.endpoint,
                r.owner, r.severity, r.labels, r.spec, false, NULL
         FROM r
         ON CONFLICT (canary_id, type, name) DO UPDATE
         SET description = EXCLUDED.description, icon = EXCLUDED.icon, namespace = EXCLUDED.namespace,
             endpoint = EXCLUDED.endpoint, owner = EXCLUDED.owner, severity = EXCLUDED.severity,
             labels = EXCLUDED.labels, spec = EXCLUDED.spec, agent_id = EXCLUDED.agent_id,
             transformed = false, deleted_at = NULL
         WHERE (checks.description, checks.icon, checks.namespace, checks.endpoint, checks.owner,
                checks.severity, checks.labels, checks.spec, checks.agent_id, checks.transformed,
                checks.deleted_at)
               IS DISTINCT FROM
               (EXCLUDED.description, EXCLUDED.icon, EXCLUDED.namespace, EXCLUDED.endpoint, EXCLUDED.owner,
                EXCLUDED.severity, EXCLUDED.labels, EXCLUDED.spec, EXCLUDED.agent_id, false,
                NULL::timestamptz)
         RETURNING id, canary_id, type, name
       )
       SELECT id, canary_id, type, name FROM written
       UNION ALL
       SELECT c.id, c.canary_id, c.type, c.name FROM checks c JOIN r USING (canary_id, type, name)
       WHERE NOT EXISTS (SELECT 1 FROM written WHERE written.id = c.id)`,
      [JSON.stringify(rows)],
    );
    for (const row of found) ids.set(`${row.canary_id}\u0000${row.type}\u0000${row.name}`, row.id);
    // A row another process inserted while this upsert waited on it is neither written here nor
    // in this statement's snapshot: read it in a new statement, or the delete below would take
    // the other process's fresh row for one no longer declared.
    const missing = rows.filter((row) => !ids.has(`${row.canary_id}\u0000${row.type}\u0000${row.name}`));
    if (missing.length > 0) {
      const { rows: late } = await db.query<{ id: string; canary_id: string; type: string; name: string }>(
        `SELECT c.id, c.canary_id, c.type, c.name FROM checks c
         JOIN unnest($1::uuid[], $2::text[], $3::text[]) AS m(canary_id, type, name) USING (canary_id, type, name)`,
        [missing.map((row) => row.canary_id), missing.map((row) => row.type), missing.map((row) => row.name)],
      );
      for (const row of late) ids.set(`${row.canary_id}\u0000${row.type}\u0000${row.name}`, row.id);
    }
  }
  const synced = new Map<string, SyncedCheck[]>();
  for (const canary of live) {
    const checks: SyncedCheck[] = [];
    for (const entry of entriesOf.get(canary.id)!) {
      const id = ids.get(`${canary.id}\u0000${entry.type}\u0000${entry.name}`);
      if (id) checks.push({ id, entry });
    }
    synced.set(canary.id, checks);
  }
  if (live.length > 0) {
    const kept = [...synced.values()].flatMap((checks) => checks.map((check) => check.id));
    await db.query(
      `UPDATE checks SET deleted_at = now()
       WHERE canary_id = ANY($1::uuid[]) AND deleted_at IS NULL AND NOT transformed
         AND NOT (id = ANY($2::uuid[]))`,
      [live.map((canary) => canary.id), kept],
    );
  }
  return canaries.map((canary) => synced.get(canary.id) ?? []);
}

/** Loads one canary row (deleted ones too); undefined when there is none. */
export async function loadCanary(db: Queryable, id: string): Promise<CanaryRow | undefined> {
  const { rows } = await db.query<CanaryRow>(`SELECT ${CANARY_COLUMNS} FROM canaries WHERE id = $1`, [id]);
  return rows[0];
}
