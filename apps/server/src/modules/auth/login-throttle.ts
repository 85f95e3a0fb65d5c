import type { AuthConfig } from './auth-config.js';
import type { Queryable } from './identity-store.js';
import { normaliseEmail } from './identity-store.js';

/**
 * Sign-in throttling that slows the attacker, never locks the owner out.
 *
 * Failed sign-ins (wrong password, second factor or passkey) are counted under three keys:
 *
 * - the (account, client address) pair: after `freeAttempts` failures that client waits
 *   `baseDelayMs`, and each further failure doubles the wait, up to `maxDelayMs`;
 * - the client address, across accounts: the same after `addressFreeAttempts` failures
 *   (guessing one password on many accounts);
 * - the account, across addresses: after `accountFreeAttempts` failures the same doubling, but
 *   capped at `accountMaxDelayMs` and applied only to clients that have themselves failed on this
 *   account in the window. A client that has not been failing (the owner on their own machine)
 *   is never refused because someone else is hammering the account.
 *
 * A waiting client is refused before its credential is even checked (429 with Retry-After), so
 * it cannot keep guessing while it waits. Counters are forgotten after `windowMs` without a
 * failure, counted from the end of the last wait. A successful sign-in clears its own pair, not
 * the address (one good account must not unlock guessing at others) nor the account.
 *
 * Counters live in PostgreSQL (`auth_login_throttle`, keys `pair:`, `address:`, `account:`) so
 * every replica behind a load balancer applies the same waits. For these keys
 * `window_started_at` is the time of the latest failure.
 */
export interface ThrottleKeys {
  account?: string;
  address?: string;
}

type Limits = AuthConfig['throttle'];

interface ThrottleKey {
  key: string;
  kind: 'pair' | 'address' | 'account';
  free: number;
  capMs: number;
}

function keysOf(keys: ThrottleKeys, limits: Limits): ThrottleKey[] {
  const account = keys.account ? normaliseEmail(keys.account) : undefined;
  const result: ThrottleKey[] = [];
  if (account && keys.address) {
    result.push({
      key: `pair:${account}|${keys.address}`,
      kind: 'pair',
      free: limits.freeAttempts,
      capMs: limits.maxDelayMs,
    });
  }
  if (keys.address) {
    result.push({
      key: `address:${keys.address}`,
      kind: 'address',
      free: limits.addressFreeAttempts,
      capMs: limits.maxDelayMs,
    });
  }
  if (account) {
    result.push({
      key: `account:${account}`,
      kind: 'account',
      free: limits.accountFreeAttempts,
      capMs: limits.accountMaxDelayMs,
    });
  }
  return result;
}

/** The wait after the `failures`-th failure: none while free, then base, 2×base, 4×base … up to the cap. */
export function penaltyMs(failures: number, free: number, baseMs: number, capMs: number): number {
  if (failures < free) return 0;
  const exponent = Math.min(failures - free, 40);
  return Math.min(baseMs * 2 ** exponent, capMs);
}

/** Seconds until this client may try again, or 0 when it may try now. */
export async function throttleRetryAfter(db: Queryable, keys: ThrottleKeys, limits: Limits): Promise<number> {
  const all = keysOf(keys, limits);
  if (all.length === 0) return 0;
  const { rows } = await db.query<{
    key: string;
    failures: number;
    remaining_ms: number | null;
    active: boolean;
  }>(
    `SELECT key, failures,
            extract(epoch FROM locked_until - now()) * 1000 AS remaining_ms,
            greatest(locked_until, window_started_at)
              >= now() - make_interval(secs => $2::double precision / 1000) AS active
       FROM auth_login_throttle WHERE key = ANY($1::text[])`,
    [all.map((entry) => entry.key), limits.windowMs],
  );
  const byKey = new Map(rows.map((row) => [row.key, row]));
  const pair = all.find((entry) => entry.kind === 'pair');
  const pairRow = pair ? byKey.get(pair.key) : undefined;
  // Only a client that has itself failed on this account waits for the account.
  const clientHasFailed = pairRow !== undefined && pairRow.active && pairRow.failures > 0;
  let remainingMs = 0;
  for (const entry of all) {
    if (entry.kind === 'account' && !clientHasFailed) continue;
    const row = byKey.get(entry.key);
    if (row?.remaining_ms && row.remaining_ms > 0) remainingMs = Math.max(remainingMs, row.remaining_ms);
  }
  return Math.ceil(remainingMs / 1000);
}

/**
 * Counts one failure against each key and starts the wait it earns; returns the seconds this
 * client now has to wait (0 while its attempts are still free).
 */
export async function recordLoginFailure(db: Queryable, keys: ThrottleKeys, limits: Limits): Promise<number> {
  for (const entry of keysOf(keys, limits)) {
    const { rows } = await db.query<{ failures: number }>(
      `INSERT INTO auth_login_throttle AS t (key, failures, window_started_at, locked_until)
       VALUES ($1, 1, now(), NULL)
       ON CONFLICT (key) DO UPDATE SET
         failures = CASE
           WHEN greatest(t.locked_until, t.window_started_at)
                < now() - make_interval(secs => $2::double precision / 1000)
           THEN 1 ELSE t.failures + 1 END,
         window_started_at = now()
       RETURNING failures`,
      [entry.key, limits.windowMs],
    );
    const failures = rows[0]?.failures ?? 1;
    const waitMs = penaltyMs(failures, entry.free, limits.baseDelayMs, entry.capMs);
    if (waitMs > 0) {
      await db.query(
        `UPDATE auth_login_throttle
            SET locked_until = greatest(locked_until, now() + make_interval(secs => $2::double precision / 1000))
          WHERE key = $1`,
        [entry.key, waitMs],
      );
    }
  }
  return throttleRetryAfter(db, keys, limits);
}

/** A successful sign-in clears this client's record for the account (not the address's, not the account's). */
export async function clearLoginFailures(db: Queryable, keys: Required<ThrottleKeys>): Promise<void> {
  await db.query(`DELETE FROM auth_login_throttle WHERE key = $1`, [
    `pair:${normaliseEmail(keys.account)}|${keys.address}`,
  ]);
}
