import type { Pool, PoolClient } from '../../platform/db/pool.js';

/** A component as other modules select it (incident rules' `components` selectors). */
export interface ComponentForSelection {
  id: string;
  name: string;
  namespace: string | null;
  type: string | null;
  labels: unknown;
  status: string | null;
}

/** The live components among these ids. Runs on the caller's transaction. */
export async function loadComponentsForSelection(
  db: Pool | PoolClient,
  ids: readonly string[],
): Promise<ComponentForSelection[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<ComponentForSelection>(
    `SELECT id, name, namespace, type, labels, status FROM components
     WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL`,
    [ids],
  );
  return rows;
}
