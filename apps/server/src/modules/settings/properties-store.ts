import type { Property } from '@opsdeck/contracts';
import type { Pool } from '../../platform/db/pool.js';

export type { Property };

/** Every property not deleted, by name: the body of `GET /api/properties` (contracts settings.ts). */
export async function listProperties(pool: Pool): Promise<Property[]> {
  const { rows } = await pool.query<Property>(
    `SELECT name, value, 'db' AS source, type, description FROM properties WHERE deleted_at IS NULL ORDER BY name`,
  );
  return rows;
}

type Queryable = Pick<Pool, 'query'>;

/** Whether any of these properties is set (not deleted) to 'true' (any case, trimmed). */
export async function anyPropertyTrue(db: Queryable, names: readonly string[]): Promise<boolean> {
  const { rows } = await db.query<{ set: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM properties
        WHERE name = ANY($1::text[]) AND deleted_at IS NULL AND lower(trim(value)) = 'true'
     ) AS set`,
    [names],
  );
  return rows[0]?.set ?? false;
}

/** Whether a property row exists with this name (deleted or not). */
export async function propertyExists(db: Queryable, name: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM properties WHERE name = $1', [name]);
  return (rowCount ?? 0) > 0;
}

/** Adds a property unless one with that name exists (the first writer wins across processes). */
export async function addPropertyIfAbsent(
  db: Queryable,
  property: { name: string; value: string; type: string; description: string },
): Promise<void> {
  await db.query(
    `INSERT INTO properties (name, value, type, description) VALUES ($1, $2, $3, $4)
     ON CONFLICT (name) DO NOTHING`,
    [property.name, property.value, property.type, property.description],
  );
}
