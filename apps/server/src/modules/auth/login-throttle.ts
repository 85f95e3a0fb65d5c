import type { AuthConfig } from './auth-config.js';
import type { Queryable } from './identity-store.js';
import { normaliseEmail } from './identity-store.js';

/**
 * Failed sign-ins counted per account and per client address in a window; reaching the limit
 * locks that key until the window has passed. The counters live in PostgreSQL so that every
 * replica behind a load balancer enforces the same limit.
 */
export interface ThrottleKeys {
  account?: string;
  address?: string;
}

function keysOf(keys: ThrottleKeys, limits: AuthConfig['throttle']): { key: string; max: number }[] {
  const result: { key: string; max: number }[] = [];
  if (keys.account) result.push({ key: `account:${normaliseEmail(keys.account)}`, max: limits.accountMax });
  if (keys.address) result.push({ key: `address:${keys.address}`, max: limits.addressMax });
  return result;
}

/** Seconds until the caller may try again, or 0 when not locked. */
export async function throttleRetryAfter(
  db: Queryable,
  keys: ThrottleKeys,
  limits: AuthConfig['throttle'],
): Promise<number> {
  const all = keysOf(keys, limits).map((entry) => entry.key);
  if (all.length === 0) return 0;
  const { rows } = await db.query<{ seconds: number | null }>(
    `SELECT ceil(extract(epoch FROM max(locked_until) - now()))::int AS seconds
       FROM auth_login_throttle WHERE key = ANY($1::text[]) AND locked_until > now()`,
    [all],
  );
  return Math.max(0, rows[0]?.seconds ?? 0);
}

/** Counts one failure against each key; returns the lock (seconds) it caused, if any. */
export async function recordLoginFailure(
  db: Queryable,
  keys: ThrottleKeys,
  limits: AuthConfig['throttle'],
): Promise<number> {
  let lockedFor = 0;
  for (const { key, max } of keysOf(keys, limits)) {
    const { rows } = await db.query<{ seconds: number | null }>(
      `INSERT INTO auth_login_throttle AS t (key, failures, window_started_at, locked_until)
       VALUES ($1, 1, now(), CASE WHEN 1 >= $2 THEN now() + make_interval(secs => $3::double precision / 1000) END)
       ON CONFLICT (key) DO UPDATE SET
         failures = CASE WHEN t.window_started_at < now() - make_interval(secs => $3::double precision / 1000)
                         THEN 1 ELSE t.failures + 1 END,
         window_started_at = CASE WHEN t.window_started_at < now() - make_interval(secs => $3::double precision / 1000)
                                  THEN now() ELSE t.window_started_at END,
         locked_until = CASE
           WHEN (CASE WHEN t.window_started_at < now() - make_interval(secs => $3::double precision / 1000)
                      THEN 1 ELSE t.failures + 1 END) >= $2
           THEN now() + make_interval(secs => $3::double precision / 1000)
           ELSE t.locked_until END
       RETURNING ceil(extract(epoch FROM locked_until - now()))::int AS seconds`,
      [key, max, limits.windowMs],
    );
    lockedFor = Math.max(lockedFor, rows[0]?.seconds ?? 0);
  }
  return lockedFor;
}

/** A successful sign-in clears the account's counter (not the address's: one good account must not unlock guessing at others). */
export async function clearAccountFailures(db: Queryable, account: string): Promise<void> {
  await db.query(`DELETE FROM auth_login_throttle WHERE key = $1`, [`account:${normaliseEmail(account)}`]);
}
