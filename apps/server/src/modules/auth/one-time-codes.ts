import type { Queryable } from './identity-store.js';
import { randomDigits, randomSecret, safeEqual, sha256 } from './secrets.js';

/**
 * Codes and links sent by email (recovery, verification) and invite links. A code is six digits
 * typed into the flow that asked for it, tried at most MAX_CODE_ATTEMPTS times; a link carries a
 * long random token. Only hashes are stored.
 */

export const MAX_CODE_ATTEMPTS = 5;

export type CodeKind = 'recovery' | 'verification';

function codeHash(flowId: string, code: string): string {
  return sha256(`code:${flowId}:${code.trim()}`);
}

export interface IssuedCode {
  code: string;
  token: string;
  expiresAt: Date;
}

export async function issueCode(
  db: Queryable,
  options: {
    kind: CodeKind;
    flowId: string | null;
    personId: string | null;
    address: string;
    lifespanMs: number;
  },
): Promise<IssuedCode> {
  const code = randomDigits(6);
  const token = randomSecret(32);
  // A new code replaces the flow's earlier ones.
  if (options.flowId) {
    await db.query(`UPDATE auth_codes SET used_at = now() WHERE flow_id = $1 AND used_at IS NULL`, [
      options.flowId,
    ]);
  }
  const { rows } = await db.query<{ expires_at: Date }>(
    `INSERT INTO auth_codes (kind, flow_id, person_id, address, code_hash, token_hash, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7::double precision / 1000))
     RETURNING expires_at`,
    [
      options.kind,
      options.flowId,
      options.personId,
      options.address,
      options.flowId ? codeHash(options.flowId, code) : null,
      sha256(token),
      options.lifespanMs,
    ],
  );
  return { code, token, expiresAt: rows[0]?.expires_at as Date };
}

export interface RedeemedCode {
  personId: string | null;
  address: string;
}

/**
 * Uses the flow's current code if `code` matches it. Counts a wrong attempt; after
 * MAX_CODE_ATTEMPTS wrong ones the code is spent. 'exhausted' tells the flow to ask for a new one.
 */
export async function redeemFlowCode(
  db: Queryable,
  kind: CodeKind,
  flowId: string,
  code: string,
): Promise<RedeemedCode | 'invalid' | 'exhausted'> {
  const { rows } = await db.query<{
    id: string;
    code_hash: string;
    person_id: string | null;
    address: string;
    attempts: number;
  }>(
    `SELECT id, code_hash, person_id, address, attempts FROM auth_codes
      WHERE flow_id = $1 AND kind = $2 AND used_at IS NULL AND expires_at > now()
      ORDER BY created_at DESC LIMIT 1`,
    [flowId, kind],
  );
  const row = rows[0];
  if (!row) return 'exhausted';
  if (!safeEqual(row.code_hash, codeHash(flowId, code))) {
    const { rows: updated } = await db.query<{ attempts: number }>(
      `UPDATE auth_codes SET attempts = attempts + 1,
              used_at = CASE WHEN attempts + 1 >= $2 THEN now() END
        WHERE id = $1 RETURNING attempts`,
      [row.id, MAX_CODE_ATTEMPTS],
    );
    return (updated[0]?.attempts ?? MAX_CODE_ATTEMPTS) >= MAX_CODE_ATTEMPTS ? 'exhausted' : 'invalid';
  }
  const { rowCount } = await db.query(
    `UPDATE auth_codes SET used_at = now() WHERE id = $1 AND used_at IS NULL`,
    [row.id],
  );
  if ((rowCount ?? 0) === 0) return 'exhausted';
  return { personId: row.person_id, address: row.address };
}

/** Uses a link token once. */
export async function redeemLinkToken(
  db: Queryable,
  kind: CodeKind,
  token: string,
): Promise<(RedeemedCode & { flowId: string | null }) | undefined> {
  if (!token) return undefined;
  const { rows } = await db.query<{ person_id: string | null; address: string; flow_id: string | null }>(
    `UPDATE auth_codes SET used_at = now()
      WHERE token_hash = $1 AND kind = $2 AND used_at IS NULL AND expires_at > now()
      RETURNING person_id, address, flow_id`,
    [sha256(token), kind],
  );
  const row = rows[0];
  return row ? { personId: row.person_id, address: row.address, flowId: row.flow_id } : undefined;
}
