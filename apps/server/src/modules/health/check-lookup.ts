import type { Pool, PoolClient } from '../../platform/db/pool.js';

type Queryable = Pool | PoolClient;

/** A check as other modules select it (incident rules): its own columns and its canary's name. */
export interface CheckForSelection {
  id: string;
  canary_id: string;
  name: string;
  type: string;
  namespace: string | null;
  labels: unknown;
  severity: string | null;
  status: string | null;
  description: string | null;
  endpoint: string | null;
  agent_id: string;
  last_transition_time: Date | null;
  deleted_at: Date | null;
  canary_name: string | null;
  canary_namespace: string | null;
}

/** One check (deleted ones too, with `deleted_at`), or null. Runs on the caller's transaction. */
export async function loadCheckForSelection(
  db: Queryable,
  checkId: string,
): Promise<CheckForSelection | null> {
  const { rows } = await db.query<CheckForSelection>(
    `SELECT c.id, c.canary_id, c.name, c.type, c.namespace, c.labels, c.severity, c.status,
            c.description, c.endpoint, c.agent_id, c.last_transition_time, c.deleted_at,
            cn.name AS canary_name, cn.namespace AS canary_namespace
     FROM checks c LEFT JOIN canaries cn ON cn.id = c.canary_id WHERE c.id = $1`,
    [checkId],
  );
  return rows[0] ?? null;
}

/** The components a check is related to (live relationships). */
export async function componentIdsOfCheck(db: Queryable, checkId: string): Promise<string[]> {
  const { rows } = await db.query<{ component_id: string }>(
    `SELECT component_id FROM check_component_relationships WHERE check_id = $1 AND deleted_at IS NULL`,
    [checkId],
  );
  return rows.map((row) => row.component_id);
}

/** How many of these checks are live and not healthy (deleted ones do not count). */
export async function countChecksNotHealthy(db: Queryable, checkIds: readonly string[]): Promise<number> {
  if (checkIds.length === 0) return 0;
  const { rows } = await db.query<{ failing: number }>(
    `SELECT count(*)::integer AS failing FROM checks
     WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL AND status IS DISTINCT FROM 'healthy'`,
    [checkIds],
  );
  return rows[0]?.failing ?? 0;
}

/**
 * The previous result of a check, as templated fields see it (`last_result`): `pass`, `message`,
 * `error`, `duration`, `time`, and the recorded details as `results` (and `details`).
 */
export async function readLastResult(
  db: Queryable,
  checkId: string,
): Promise<Record<string, unknown> | undefined> {
  const { rows } = await db.query<{
    time: Date;
    duration: number | null;
    status: boolean;
    message: string | null;
    error: string | null;
    details: unknown;
  }>(
    `SELECT time, duration, status, message, error, details FROM (
       (SELECT time, duration, status, message, error, details FROM check_statuses_recent
         WHERE check_id = $1 ORDER BY time DESC LIMIT 1)
       UNION ALL
       (SELECT time, duration, status, message, error, details FROM check_statuses
         WHERE check_id = $1 ORDER BY time DESC LIMIT 1)
     ) latest ORDER BY time DESC LIMIT 1`,
    [checkId],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    pass: row.status,
    message: row.message ?? '',
    error: row.error ?? '',
    duration: row.duration ?? 0,
    time: row.time.toISOString(),
    results: row.details ?? {},
    details: row.details ?? {},
  };
}
