import { isRole, tokenScopeSchema, type Role, type TokenScope } from '@opsdeck/contracts';
import type { Pool } from '../../platform/db/pool.js';
import { isTimeInRange, parseDuration, TIME_RANGE_TEXT, TimeParseError } from '../../platform/time/index.js';
import { findActivePersonByEmail, type Queryable } from './identity-store.js';
import { hashPassword, verifyPassword } from './password.js';
import { randomSecret, safeEqual, sha256 } from './secrets.js';

/**
 * API tokens: `opsdeck_<id>_<secret>`. The id (the row's uuid without dashes) is public and
 * finds the row; the secret is checked against a slow scrypt hash, the only thing stored.
 */
const TOKEN_FORMAT = /^opsdeck_([0-9a-f]{32})_([A-Za-z0-9_-]{40,})$/;

export class TokenInputError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = 'TokenInputError';
  }
}

function uuidFromHex(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function parseTokenString(token: string): { id: string; secret: string } | undefined {
  const match = TOKEN_FORMAT.exec(token.trim());
  if (!match) return undefined;
  return { id: uuidFromHex(match[1] as string), secret: match[2] as string };
}

/**
 * scrypt costs ≈ 50 ms, too much for every API call. A token verified once is remembered for a
 * few minutes as a fast digest of its secret, keyed by the stored hash: the row is still read on
 * every request, so a revoked or expired token stops working at once.
 */
const VERIFIED_CACHE_MS = 5 * 60_000;
const VERIFIED_CACHE_MAX = 5000;
const verifiedTokens = new Map<string, { storedHash: string; secretDigest: string; until: number }>();

function rememberVerified(id: string, storedHash: string, secret: string): void {
  if (verifiedTokens.size >= VERIFIED_CACHE_MAX) {
    const oldest = verifiedTokens.keys().next().value;
    if (oldest !== undefined) verifiedTokens.delete(oldest);
  }
  verifiedTokens.set(id, { storedHash, secretDigest: sha256(secret), until: Date.now() + VERIFIED_CACHE_MS });
}

function recentlyVerified(id: string, storedHash: string, secret: string): boolean {
  const entry = verifiedTokens.get(id);
  if (!entry) return false;
  if (entry.until < Date.now() || entry.storedHash !== storedHash) {
    verifiedTokens.delete(id);
    return false;
  }
  return safeEqual(entry.secretDigest, sha256(secret));
}

export interface ResolvedToken {
  id: string;
  scopes: TokenScope[];
  person: { id: string; name: string; email: string | null; avatar: string | null };
  roles: Role[];
}

/** The token a presented string proves, if it exists, has not expired and its owner is active. */
export async function resolveAccessToken(db: Queryable, token: string): Promise<ResolvedToken | undefined> {
  const parsed = parseTokenString(token);
  if (!parsed) return undefined;
  const { rows } = await db.query<{
    id: string;
    value: string;
    scope: unknown;
    person_id: string;
    name: string;
    email: string | null;
    avatar: string | null;
    roles: string[];
  }>(
    `SELECT t.id, t.value, t.scope, p.id AS person_id, p.name, p.email, p.avatar,
            ARRAY(SELECT r.role FROM person_roles r WHERE r.person_id = p.id ORDER BY r.role) AS roles
       FROM access_tokens t
       JOIN people p ON p.id = t.person_id AND p.deleted_at IS NULL
       LEFT JOIN identities i ON i.id = p.id
      WHERE t.id = $1 AND (t.expires_at IS NULL OR t.expires_at > now()) AND coalesce(i.state, 'active') = 'active'`,
    [parsed.id],
  );
  const row = rows[0];
  if (!row) return undefined;
  if (!recentlyVerified(row.id, row.value, parsed.secret)) {
    if (!(await verifyPassword(parsed.secret, row.value))) return undefined;
    rememberVerified(row.id, row.value, parsed.secret);
  }
  return {
    id: row.id,
    scopes: parseStoredScopes(row.scope),
    person: { id: row.person_id, name: row.name, email: row.email, avatar: row.avatar },
    roles: row.roles.filter(isRole),
  };
}

function parseStoredScopes(value: unknown): TokenScope[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) => {
    const parsed = tokenScopeSchema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

/** 'never' (or nothing) means no expiry; otherwise a duration such as 24h, 7d or 30d (`platform/time`). */
export function parseExpiry(expiry: string | undefined, now = new Date()): Date | null {
  const value = (expiry ?? '').trim();
  if (value === '' || value === 'never') return null;
  let ms: number;
  try {
    ms = Math.round(parseDuration(value));
  } catch (error) {
    if (!(error instanceof TimeParseError)) throw error;
    throw new TokenInputError(
      `Expiry must be 'never' or a duration such as 24h, 7d or 30d: ${error.message}`,
      'expiry',
    );
  }
  if (ms <= 0)
    throw new TokenInputError("Expiry must be 'never' or a duration such as 24h, 7d or 30d", 'expiry');
  const expiresAt = new Date(now.getTime() + ms);
  if (!isTimeInRange(expiresAt))
    throw new TokenInputError(
      `Expiry is too long: the token would expire after ${TIME_RANGE_TEXT}`,
      'expiry',
    );
  return expiresAt;
}

/** Scopes from the CLI (`catalog:read`, `playbooks:playbook:run`) or from the API. */
export function parseScopes(
  scopes: ReadonlyArray<string | { subject?: string; object: string; action: string }>,
): TokenScope[] {
  return scopes.map((scope, index) => {
    const candidate =
      typeof scope === 'string'
        ? {
            subject: '',
            object: scope.slice(0, scope.indexOf(':')),
            action: scope.slice(scope.indexOf(':') + 1),
          }
        : scope;
    if (typeof scope === 'string' && !scope.includes(':')) {
      throw new TokenInputError(
        `Scope '${scope}' must look like OBJECT:ACTION, e.g. catalog:read`,
        `scope.${index}`,
      );
    }
    const parsed = tokenScopeSchema.safeParse(candidate);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new TokenInputError(
        `Scope ${candidate.object}:${candidate.action}: ${issue?.message ?? 'invalid'}`,
        `scope.${index}`,
      );
    }
    return parsed.data;
  });
}

export interface NewAccessToken {
  name: string;
  personId: string;
  createdBy: string;
  expiresAt: Date | null;
  scopes: TokenScope[];
}

/** Stores a new token and returns the string to hand out once. */
export async function createAccessToken(
  db: Queryable,
  token: NewAccessToken,
): Promise<{ id: string; token: string }> {
  const secret = randomSecret(32);
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO access_tokens (name, value, person_id, created_by, scope, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [
      token.name,
      await hashPassword(secret),
      token.personId,
      token.createdBy,
      JSON.stringify(token.scopes),
      token.expiresAt,
    ],
  );
  const id = rows[0]?.id as string;
  return { id, token: `opsdeck_${id.replace(/-/g, '')}_${secret}` };
}

export interface AccessTokenView {
  id: string;
  name: string;
  scope: TokenScope[];
  created_at: string;
  expires_at: string | null;
  person: { id: string; name: string; email: string | null; avatar: string | null } | null;
  created_by: { id: string; name: string; email: string | null; avatar: string | null } | null;
}

/** Token rows without their hash; all of them, or one person's. */
export async function listAccessTokens(db: Queryable, personId?: string): Promise<AccessTokenView[]> {
  const { rows } = await db.query<{
    id: string;
    name: string;
    scope: unknown;
    created_at: Date;
    expires_at: Date | null;
    person: AccessTokenView['person'];
    created_by: AccessTokenView['created_by'];
  }>(
    `SELECT t.id, t.name, t.scope, t.created_at, t.expires_at,
            CASE WHEN p.id IS NULL THEN NULL
                 ELSE json_build_object('id', p.id, 'name', p.name, 'email', p.email, 'avatar', p.avatar) END AS person,
            CASE WHEN c.id IS NULL THEN NULL
                 ELSE json_build_object('id', c.id, 'name', c.name, 'email', c.email, 'avatar', c.avatar) END AS created_by
       FROM access_tokens t
       LEFT JOIN people p ON p.id = t.person_id
       LEFT JOIN people c ON c.id = t.created_by
      WHERE ($1::uuid IS NULL OR t.person_id = $1::uuid)
      ORDER BY t.created_at DESC`,
    [personId ?? null],
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    scope: parseStoredScopes(row.scope),
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at?.toISOString() ?? null,
    person: row.person,
    created_by: row.created_by,
  }));
}

export async function getAccessToken(
  db: Queryable,
  id: string,
): Promise<{ id: string; personId: string; scopes: TokenScope[] } | undefined> {
  const { rows } = await db.query<{ id: string; person_id: string; scope: unknown }>(
    `SELECT id, person_id, scope FROM access_tokens WHERE id = $1`,
    [id],
  );
  const row = rows[0];
  return row ? { id: row.id, personId: row.person_id, scopes: parseStoredScopes(row.scope) } : undefined;
}

export async function deleteAccessToken(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query(`DELETE FROM access_tokens WHERE id = $1`, [id]);
  verifiedTokens.delete(id);
  return (rowCount ?? 0) > 0;
}

export interface CreateTokenForUserOptions {
  email: string;
  name: string;
  /** `OBJECT:ACTION` strings (as `--scope` takes them) or scope objects; none means the person's rights. */
  scopes?: ReadonlyArray<string | { subject?: string; object: string; action: string }>;
  /** 'never' (default) or a duration such as 30d. */
  expiry?: string;
}

/**
 * For `opsdeck token create --user EMAIL --name NAME [--scope OBJECT:ACTION …]`: a token acting
 * as the person with that email. Throws TokenInputError with a message for the terminal.
 */
export async function createTokenForUser(pool: Pool, options: CreateTokenForUserOptions): Promise<string> {
  const name = options.name.trim();
  if (!name) throw new TokenInputError('Name is required', 'name');
  const person = await findActivePersonByEmail(pool, options.email);
  if (!person) throw new TokenInputError(`No active person has the email ${options.email}`, 'user');
  const scopes = parseScopes(options.scopes ?? []);
  const { token } = await createAccessToken(pool, {
    name,
    personId: person.id,
    createdBy: person.id,
    expiresAt: parseExpiry(options.expiry),
    scopes,
  });
  return token;
}
