import { isRole, type Role } from '@opsdeck/contracts';
import type { Queryable } from './identity-store.js';
import { randomSecret, sha256 } from './secrets.js';

import type { Aal } from '@opsdeck/contracts';

export type { Aal };

export interface AuthenticationMethod {
  method: string;
  aal: Aal;
  completed_at: string;
}

export interface SessionRecord {
  id: string;
  personId: string;
  aal: Aal;
  methods: AuthenticationMethod[];
  authenticatedAt: Date;
  issuedAt: Date;
  expiresAt: Date;
  rotateRequired: boolean;
  person: { id: string; name: string; email: string | null; avatar: string | null };
  roles: Role[];
  /** The person has TOTP or WebAuthn: an aal1 session is not enough for them. */
  needsAal2: boolean;
}

/** A session and the cookie value that proves it: the value itself is never stored. */
export interface IssuedSession {
  token: string;
  record: SessionRecord;
}

/** Grace period during which a rotated-away cookie still works, for requests already in flight. */
const ROTATION_GRACE_MS = 60_000;

/** The anti-CSRF token of a session: derived from the cookie, so it is bound to it. */
export function sessionCsrfToken(sessionToken: string): string {
  return sha256(`csrf:${sessionToken}`);
}

interface SessionRow {
  id: string;
  person_id: string;
  aal: Aal;
  methods: AuthenticationMethod[];
  authenticated_at: Date;
  issued_at: Date;
  expires_at: Date;
  rotate_required: boolean;
  name: string;
  email: string | null;
  avatar: string | null;
  roles: string[];
  needs_aal2: boolean;
}

const SESSION_SELECT = `
  SELECT s.id, s.person_id, s.aal, s.methods, s.authenticated_at, s.issued_at, s.expires_at, s.rotate_required,
         p.name, p.email, p.avatar,
         ARRAY(SELECT r.role FROM person_roles r WHERE r.person_id = p.id ORDER BY r.role) AS roles,
         (EXISTS (SELECT 1 FROM auth_totp t WHERE t.person_id = p.id)
           OR EXISTS (SELECT 1 FROM auth_webauthn_credentials w WHERE w.person_id = p.id)) AS needs_aal2
    FROM auth_sessions s
    JOIN people p ON p.id = s.person_id AND p.deleted_at IS NULL
    LEFT JOIN identities i ON i.id = p.id
   WHERE s.revoked_at IS NULL AND s.expires_at > now() AND coalesce(i.state, 'active') = 'active'`;

function toRecord(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    personId: row.person_id,
    aal: row.aal,
    methods: row.methods,
    authenticatedAt: row.authenticated_at,
    issuedAt: row.issued_at,
    expiresAt: row.expires_at,
    rotateRequired: row.rotate_required,
    person: { id: row.person_id, name: row.name, email: row.email, avatar: row.avatar },
    roles: row.roles.filter(isRole),
    needsAal2: row.needs_aal2,
  };
}

/** The active session a cookie value proves, if any. */
export async function findSession(db: Queryable, token: string): Promise<SessionRecord | undefined> {
  const { rows } = await db.query<SessionRow>(`${SESSION_SELECT} AND s.token_hash = $1`, [sha256(token)]);
  return rows[0] ? toRecord(rows[0]) : undefined;
}

export async function findSessionById(db: Queryable, id: string): Promise<SessionRecord | undefined> {
  const { rows } = await db.query<SessionRow>(`${SESSION_SELECT} AND s.id = $1`, [id]);
  return rows[0] ? toRecord(rows[0]) : undefined;
}

export interface NewSession {
  personId: string;
  aal: Aal;
  methods: AuthenticationMethod[];
  authenticatedAt?: Date;
  lifespanMs: number;
  ip?: string;
  userAgent?: string;
}

export async function createSession(db: Queryable, session: NewSession): Promise<IssuedSession> {
  const token = randomSecret(32);
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO auth_sessions (token_hash, person_id, aal, methods, authenticated_at, expires_at, ip, user_agent)
     VALUES ($1, $2, $3, $4, coalesce($5, now()), now() + make_interval(secs => $6::double precision / 1000), $7, $8)
     RETURNING id`,
    [
      sha256(token),
      session.personId,
      session.aal,
      JSON.stringify(session.methods),
      session.authenticatedAt ?? null,
      session.lifespanMs,
      session.ip ?? null,
      session.userAgent?.slice(0, 512) ?? null,
    ],
  );
  await db.query(`UPDATE people SET last_login = now() WHERE id = $1`, [session.personId]);
  const record = await findSessionById(db, rows[0]?.id as string);
  if (!record) throw new Error('a session created a moment ago could not be read back');
  return { token, record };
}

/**
 * Replaces a session with a new one (new cookie value) carrying `changes`; the old value keeps
 * working for a minute so that requests already sent with it do not fail.
 */
export async function rotateSession(
  db: Queryable,
  old: SessionRecord,
  changes: Partial<Pick<NewSession, 'aal' | 'methods' | 'authenticatedAt'>> & { lifespanMs: number },
  client: { ip?: string; userAgent?: string } = {},
): Promise<IssuedSession> {
  const issued = await createSession(db, {
    personId: old.personId,
    aal: changes.aal ?? old.aal,
    methods: changes.methods ?? old.methods,
    authenticatedAt: changes.authenticatedAt ?? old.authenticatedAt,
    lifespanMs: changes.lifespanMs,
    ...client,
  });
  await db.query(
    `UPDATE auth_sessions
        SET expires_at = least(expires_at, now() + make_interval(secs => $2::double precision / 1000)),
            rotate_required = false
      WHERE id = $1`,
    [old.id, ROTATION_GRACE_MS],
  );
  return issued;
}

/**
 * Claims a pending rotation: true for exactly one of several requests that arrive at once with
 * the same cookie, so that only one of them swaps it.
 */
export async function claimRotation(db: Queryable, sessionId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE auth_sessions SET rotate_required = false WHERE id = $1 AND rotate_required`,
    [sessionId],
  );
  return (rowCount ?? 0) > 0;
}

export async function revokeSession(db: Queryable, sessionId: string): Promise<void> {
  await db.query(`UPDATE auth_sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL`, [
    sessionId,
  ]);
}

/** Revokes every session of a person except `keepSessionId`. */
export async function revokeOtherSessions(
  db: Queryable,
  personId: string,
  keepSessionId?: string,
): Promise<void> {
  await db.query(
    `UPDATE auth_sessions SET revoked_at = now()
      WHERE person_id = $1 AND revoked_at IS NULL AND ($2::uuid IS NULL OR id <> $2::uuid)`,
    [personId, keepSessionId ?? null],
  );
}

/** Drops sessions, flows, codes and throttle counters that ended more than a day ago. */
export async function deleteExpiredAuthState(db: Queryable): Promise<void> {
  await db.query(
    `DELETE FROM auth_sessions WHERE expires_at < now() - interval '1 day' OR revoked_at < now() - interval '1 day'`,
  );
  await db.query(`DELETE FROM auth_flows WHERE expires_at < now() - interval '1 day'`);
  await db.query(`DELETE FROM auth_codes WHERE expires_at < now() - interval '1 day'`);
  await db.query(
    `DELETE FROM auth_login_throttle
      WHERE window_started_at < now() - interval '1 day' AND (locked_until IS NULL OR locked_until < now())`,
  );
}
