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
