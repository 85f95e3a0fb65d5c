import type { Pool, PoolClient } from '../../platform/db/pool.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The live person a reference names: an id, an email (any case) or a name, the id winning, then
 * a person with an email. Null when nobody matches.
 */
export async function findPersonId(db: Pool | PoolClient, reference: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM people
     WHERE deleted_at IS NULL AND (id = $2::uuid OR lower(email) = lower($1) OR name = $1)
     ORDER BY (id = $2::uuid) IS TRUE DESC, (email IS NULL) LIMIT 1`,
    [reference, UUID.test(reference) ? reference : null],
  );
  return rows[0]?.id ?? null;
}

/** The live team a reference names: an id or a name, the id winning. Null when none matches. */
export async function findTeamId(db: Pool | PoolClient, reference: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM teams WHERE deleted_at IS NULL AND (id = $2::uuid OR name = $1)
     ORDER BY (id = $2::uuid) IS TRUE DESC LIMIT 1`,
    [reference, UUID.test(reference) ? reference : null],
  );
  return rows[0]?.id ?? null;
}
