import type { AuthConfig } from './auth-config.js';
import type { Queryable } from './identity-store.js';
import { normaliseEmail } from './identity-store.js';

/**
 * Recovery and verification emails, counted per recipient address and per client address in a
 * fixed window (EMAIL_THROTTLE_WINDOW). The send that reaches a limit is the last one: that key
 * is locked until its window ends. Counters share the table of the login throttle (keys
 * 'email-to:<address>' and 'email-from:<ip>'), so every replica enforces the same limit, and
 * unknown addresses count like known ones (the answer must not tell them apart).
 */
export interface EmailThrottleKeys {
  /** The address the email goes to. */
  recipient: string;
  /** The client IP address asking for it. */
  client: string;
}

type Limits = AuthConfig['emailThrottle'];

function keysOf(keys: EmailThrottleKeys, limits: Limits): { key: string; max: number }[] {
  return [
    { key: `email-to:${normaliseEmail(keys.recipient)}`, max: limits.addressMax },
    { key: `email-from:${keys.client}`, max: limits.clientMax },
  ];
}

/**
 * Counts one email against each key, unless a key is already locked. Returns 0 when the email
 * may be sent, else the seconds until the earliest moment every key allows one again (nothing
 * is counted then).
 */
export async function reserveEmailSend(
  db: Queryable,
  keys: EmailThrottleKeys,
  limits: Limits,
): Promise<number> {
  const entries = keysOf(keys, limits);
  const { rows: locked } = await db.query<{ seconds: number | null }>(
    `SELECT ceil(extract(epoch FROM max(locked_until) - now()))::int AS seconds
       FROM auth_login_throttle WHERE key = ANY($1::text[]) AND locked_until > now()`,
    [entries.map((entry) => entry.key)],
  );
  const seconds = Math.max(0, locked[0]?.seconds ?? 0);
  if (seconds > 0) return seconds;
  for (const { key, max } of entries) {
    // A window older than windowMs starts over; reaching max locks the key until the window ends.
    await db.query(
      `INSERT INTO auth_login_throttle AS t (key, failures, window_started_at, locked_until)
       VALUES ($1, 1, now(), CASE WHEN 1 >= $2 THEN now() + make_interval(secs => $3::double precision / 1000) END)
       ON CONFLICT (key) DO UPDATE SET
         failures = CASE WHEN t.window_started_at <= now() - make_interval(secs => $3::double precision / 1000)
                         THEN 1 ELSE t.failures + 1 END,
         window_started_at = CASE WHEN t.window_started_at <= now() - make_interval(secs => $3::double precision / 1000)
                                  THEN now() ELSE t.window_started_at END,
         locked_until = CASE
           WHEN t.window_started_at <= now() - make_interval(secs => $3::double precision / 1000)
             THEN CASE WHEN 1 >= $2 THEN now() + make_interval(secs => $3::double precision / 1000) END
           WHEN t.failures + 1 >= $2
             THEN t.window_started_at + make_interval(secs => $3::double precision / 1000)
           ELSE NULL END`,
      [key, max, limits.windowMs],
    );
  }
  return 0;
}

/** '45 seconds', '1 minute', '12 minutes': how long to wait, for a message. */
export function waitText(seconds: number): string {
  if (seconds < 120) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}
