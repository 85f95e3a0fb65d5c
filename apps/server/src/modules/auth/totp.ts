import { generateSecret, generateURI, verify } from 'otplib';
import type { SecretBox } from '../../platform/secrets.js';
import type { Queryable } from './identity-store.js';

/** TOTP authenticator apps (RFC 6238: SHA-1, 6 digits, 30 s), one per person. */

/** A code from the previous or next 30-second step is accepted too (clock drift). */
const TOLERANCE_SECONDS = 30;

export function newTotpSecret(): string {
  return generateSecret();
}

export function totpUri(secret: string, account: string, issuer: string): string {
  return generateURI({ issuer, label: account, secret });
}

/** Checks a code against a secret; `afterTimeStep` refuses codes already used. */
export async function checkTotpCode(
  secret: string,
  code: string,
  afterTimeStep?: number,
): Promise<{ valid: true; timeStep: number } | { valid: false }> {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return { valid: false };
  try {
    const result = await verify({
      secret,
      token,
      epochTolerance: TOLERANCE_SECONDS,
      ...(afterTimeStep !== undefined ? { afterTimeStep } : {}),
    });
    return result.valid && 'timeStep' in result
      ? { valid: true, timeStep: result.timeStep }
      : { valid: false };
  } catch {
    return { valid: false };
  }
}

export async function hasTotp(db: Queryable, personId: string): Promise<boolean> {
  const { rowCount } = await db.query(`SELECT 1 FROM auth_totp WHERE person_id = $1`, [personId]);
  return (rowCount ?? 0) > 0;
}

const SEALED = 'enc:v1:';

/**
 * A TOTP secret as it is stored (auth_totp, and a settings flow's pending secret): sealed with
 * SECRET_KEY when the app has a SecretBox; a plain value is read as it is.
 */
export function sealTotpSecret(secret: string, box: SecretBox | undefined): string {
  return box ? box.seal(secret) : secret;
}

export function openTotpSecret(stored: string, box: SecretBox | undefined): string {
  if (!stored.startsWith(SEALED)) return stored;
  if (!box)
    throw new Error('a TOTP secret is sealed with SECRET_KEY but the auth module was given no SecretBox');
  return box.open(stored);
}

export async function enableTotp(
  db: Queryable,
  personId: string,
  secret: string,
  timeStep: number,
  box?: SecretBox,
): Promise<void> {
  await db.query(
    `INSERT INTO auth_totp (person_id, secret, last_time_step) VALUES ($1, $2, $3)
     ON CONFLICT (person_id) DO UPDATE SET secret = EXCLUDED.secret, last_time_step = EXCLUDED.last_time_step, created_at = now()`,
    [personId, sealTotpSecret(secret, box), timeStep],
  );
}

export async function disableTotp(db: Queryable, personId: string): Promise<void> {
  await db.query(`DELETE FROM auth_totp WHERE person_id = $1`, [personId]);
}

/**
 * Checks a person's code and records its time step in the same statement, so a code cannot
 * be used twice even by two requests at once.
 */
export async function verifyPersonTotp(
  db: Queryable,
  personId: string,
  code: string,
  box?: SecretBox,
): Promise<boolean> {
  const { rows } = await db.query<{ secret: string; last_time_step: number | null }>(
    `SELECT secret, last_time_step FROM auth_totp WHERE person_id = $1`,
    [personId],
  );
  const row = rows[0];
  if (!row) return false;
  const result = await checkTotpCode(openTotpSecret(row.secret, box), code, row.last_time_step ?? undefined);
  if (!result.valid) return false;
  const { rowCount } = await db.query(
    `UPDATE auth_totp SET last_time_step = $2
      WHERE person_id = $1 AND (last_time_step IS NULL OR last_time_step < $2)`,
    [personId, result.timeStep],
  );
  return (rowCount ?? 0) > 0;
}
