import type { Pool } from '../../platform/db/pool.js';

export interface Property {
  name: string;
  value: string;
  source: string;
  type: string | null;
  description: string | null;
}

export async function listProperties(pool: Pool): Promise<Property[]> {
  const { rows } = await pool.query<Property>(
    `SELECT name, value, 'db' AS source, type, description FROM properties WHERE deleted_at IS NULL ORDER BY name`,
  );
  return rows;
}
