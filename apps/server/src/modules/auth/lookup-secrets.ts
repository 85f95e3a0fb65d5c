import type { Queryable } from './identity-store.js';
import { randomBackupCode, randomSecret, safeEqual, sha256 } from './secrets.js';

/** Backup recovery codes: shown once, stored as salted hashes, each usable once. */

export const BACKUP_CODE_COUNT = 12;

function normalise(code: string): string {
  return code
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '');
}

function hashCode(code: string, salt: string): string {
  return `sha256$${salt}$${sha256(`${salt}:${normalise(code)}`)}`;
}

/** Replaces a person's codes with a new set and returns the plain codes to show once. */
export async function regenerateBackupCodes(db: Queryable, personId: string): Promise<string[]> {
  const codes = Array.from({ length: BACKUP_CODE_COUNT }, () => randomBackupCode());
  await db.query(`DELETE FROM auth_lookup_secrets WHERE person_id = $1`, [personId]);
  for (const code of codes) {
    await db.query(`INSERT INTO auth_lookup_secrets (person_id, code_hash) VALUES ($1, $2)`, [
      personId,
      hashCode(code, randomSecret(12)),
    ]);
  }
  return codes;
}

export async function removeBackupCodes(db: Queryable, personId: string): Promise<void> {
  await db.query(`DELETE FROM auth_lookup_secrets WHERE person_id = $1`, [personId]);
}

export async function countUnusedBackupCodes(db: Queryable, personId: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM auth_lookup_secrets WHERE person_id = $1 AND used_at IS NULL`,
    [personId],
  );
  return rows[0]?.count ?? 0;
}

/** Uses one code: true once per code, marked used in the same statement that checks it is unused. */
export async function consumeBackupCode(db: Queryable, personId: string, code: string): Promise<boolean> {
  if (!normalise(code)) return false;
  const { rows } = await db.query<{ id: string; code_hash: string }>(
    `SELECT id, code_hash FROM auth_lookup_secrets WHERE person_id = $1 AND used_at IS NULL`,
    [personId],
  );
  const match = rows.find((row) => {
    const salt = row.code_hash.split('$')[1] ?? '';
    return safeEqual(hashCode(code, salt), row.code_hash);
  });
  if (!match) return false;
  const { rowCount } = await db.query(
    `UPDATE auth_lookup_secrets SET used_at = now() WHERE id = $1 AND used_at IS NULL`,
    [match.id],
  );
  return (rowCount ?? 0) > 0;
}
