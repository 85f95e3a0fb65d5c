import type { OpsdeckConfig } from '../../config.js';
import { withTransaction, type Pool } from '../../platform/db/pool.js';
import { generatePassword, hashPassword } from './password.js';

/**
 * Serialises first-admin creation across processes starting at once, and every change that
 * could leave no admin (role changes, deletions).
 */
export const ADMIN_ROLES_LOCK_KEY = 7_305_041_902;
const DEFAULT_ADMIN_EMAIL = 'admin@opsdeck.local';

export interface CreatedAdmin {
  email: string;
  /** Set when no ADMIN_PASSWORD was given: print it once, it is stored only as a hash. */
  generatedPassword?: string;
}

/**
 * Creates the first admin account when nobody holds the admin role yet, from ADMIN_EMAIL and
 * ADMIN_PASSWORD or with a generated password. Returns undefined when an admin already exists.
 */
export async function ensureFirstAdmin(
  pool: Pool,
  config: Pick<OpsdeckConfig, 'adminEmail' | 'adminPassword'>,
): Promise<CreatedAdmin | undefined> {
  return withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [ADMIN_ROLES_LOCK_KEY]);
    const existing = await client.query(
      `SELECT 1 FROM person_roles r JOIN people p ON p.id = r.person_id
        WHERE r.role = 'admin' AND p.deleted_at IS NULL LIMIT 1`,
    );
    if (existing.rowCount) return undefined;
    const email = (config.adminEmail ?? DEFAULT_ADMIN_EMAIL).toLowerCase();
    const generatedPassword = config.adminPassword ? undefined : generatePassword();
    const passwordHash = await hashPassword(config.adminPassword ?? (generatedPassword as string));
    const person = await client.query<{ id: string }>(
      `INSERT INTO people (name, email) VALUES ('Admin', $1)
       ON CONFLICT (lower(email)) WHERE deleted_at IS NULL DO UPDATE SET updated_at = now()
       RETURNING id`,
      [email],
    );
    const personId = person.rows[0]?.id;
    await client.query(
      `INSERT INTO person_roles (person_id, role) VALUES ($1, 'admin') ON CONFLICT DO NOTHING`,
      [personId],
    );
    await client.query(
      `INSERT INTO identity_credentials (person_id, password_hash) VALUES ($1, $2)
       ON CONFLICT (person_id) DO UPDATE SET password_hash = EXCLUDED.password_hash, updated_at = now()`,
      [personId, passwordHash],
    );
    // The users screen lists identities: the first admin needs one like everybody else.
    await client.query(`INSERT INTO identities (id, traits) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`, [
      personId,
      JSON.stringify({ email, name: { first: 'Admin', last: '' } }),
    ]);
    await client.query(
      `INSERT INTO auth_verifiable_addresses (person_id, value) VALUES ($1, $2) ON CONFLICT (person_id) DO NOTHING`,
      [personId, email],
    );
    return { email, ...(generatedPassword ? { generatedPassword } : {}) };
  });
}
