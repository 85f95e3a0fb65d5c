import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Pool } from '../../platform/db/pool.js';
import type { Logger } from '../../platform/logger.js';
import { resolveAccessToken } from './access-tokens.js';
import { loadAuthConfig, type AuthConfig } from './auth-config.js';
import {
  clearSessionCookies,
  CSRF_HEADER,
  presentedToken,
  requestPath,
  SESSION_COOKIE,
  setSessionCookies,
} from './http.js';
import type { Queryable } from './identity-store.js';
import { loadGrantedPermissions, type AuthContext, type AuthPerson } from './rbac.js';
import { safeEqual } from './secrets.js';
import {
  claimRotation,
  deleteExpiredAuthState,
  findSession,
  rotateSession,
  sessionCsrfToken,
  type SessionRecord,
} from './session-store.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller, resolved by the auth plugin for /api and /mcp requests; null when nobody. */
    auth: AuthContext | null;
  }
}

export interface AuthPluginOptions {
  pool: Pool;
  logger?: Logger;
  /** Defaults to the environment (see auth-config.ts). */
  config?: AuthConfig;
}

/** Paths where a caller is resolved and, unless exempt, required. */
function isProtectedPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/') || path === '/mcp' || path.startsWith('/mcp/');
}

/** Open to callers who have not signed in: the sign-in screens and version information. */
function isOpenPath(path: string): boolean {
  return (
    path.startsWith('/api/auth/self-service/') ||
    path.startsWith('/api/kratos/') ||
    path === '/api/auth/session' ||
    path === '/api/canary/about' ||
    path === '/api/version' ||
    path === '/api/about'
  );
}

/** Flow submissions carry their own CSRF token in the body; logout its own logout token. */
function isCsrfExempt(path: string): boolean {
  return path.startsWith('/api/auth/self-service/') || path.startsWith('/api/kratos/');
}

/**
 * The session token of a native (Kratos api-flow) client: `X-Session-Token`, honoured only on
 * the Kratos door, where no route changes state on the strength of ambient credentials.
 */
function nativeSessionToken(request: FastifyRequest, path: string): string | undefined {
  if (!path.startsWith('/api/kratos/')) return undefined;
  const header = request.headers['x-session-token'];
  return typeof header === 'string' && header.length > 0 ? header : undefined;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const sessionTokens = new WeakMap<FastifyRequest, string>();
const requestPools = new WeakMap<FastifyRequest, Pool>();

/** The pool of the auth plugin that resolved this request (for feature-flag checks). */
export function authPoolOf(request: FastifyRequest): Pool | undefined {
  return requestPools.get(request);
}
const sessionRecords = new WeakMap<FastifyRequest, SessionRecord>();

/** The session cookie value of a request the plugin resolved to a session. */
export function sessionTokenOf(request: FastifyRequest): string | undefined {
  return sessionTokens.get(request);
}

/** The session record behind `request.auth`, when the caller came with a cookie. */
export function sessionRecordOf(request: FastifyRequest): SessionRecord | undefined {
  return sessionRecords.get(request);
}

const PUBLIC_PERSON_LOCK_KEY = 7_305_041_903;
const publicPeople = new WeakMap<object, Promise<AuthPerson>>();

/** The person every request acts as in public mode, created on first use. */
export function publicPerson(pool: Pool): Promise<AuthPerson> {
  let pending = publicPeople.get(pool);
  if (!pending) {
    pending = (async () => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock($1)', [PUBLIC_PERSON_LOCK_KEY]);
        const existing = await client.query<AuthPerson>(
          `SELECT id, name, email FROM people WHERE type = 'public' AND deleted_at IS NULL ORDER BY created_at LIMIT 1`,
        );
        const person =
          existing.rows[0] ??
          (
            await client.query<AuthPerson>(
              `INSERT INTO people (name, type) VALUES ('Anonymous', 'public') RETURNING id, name, email`,
            )
          ).rows[0];
        await client.query('COMMIT');
        return person as AuthPerson;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        publicPeople.delete(pool);
        throw error;
      } finally {
        client.release();
      }
    })();
    publicPeople.set(pool, pending);
  }
  return pending;
}

export async function contextFromSession(db: Queryable, session: SessionRecord): Promise<AuthContext> {
  const person = { id: session.person.id, name: session.person.name, email: session.person.email };
  return {
    person,
    roles: session.roles,
    permissions: await loadGrantedPermissions(db, person, session.roles),
    session: {
      id: session.id,
      aal: session.aal,
      authenticatedAt: session.authenticatedAt,
      expiresAt: session.expiresAt,
    },
    via: 'session',
  };
}

/** Whether a session is complete: a person with a second factor needs an aal2 session. */
export function sessionSatisfiesAal(session: SessionRecord): boolean {
  return session.aal === 'aal2' || !session.needsAal2;
}

function unauthorized(reply: FastifyReply): FastifyReply {
  // The challenge tells API and MCP clients to send a token (RFC 6750); browsers ignore Bearer.
  return reply
    .status(401)
    .header('www-authenticate', 'Bearer realm="opsdeck"')
    .send({ error: 'Unauthorized' });
}

/**
 * Resolves the caller of every /api and /mcp request (session cookie, Bearer token or Basic
 * `token:<token>`; or the public role in AUTH_MODE=none), checks the CSRF header of cookie
 * requests that change state, and answers 401 where a caller is required and missing.
 */
async function authPluginImpl(app: FastifyInstance, options: AuthPluginOptions): Promise<void> {
  const config = options.config ?? loadAuthConfig();
  const { pool } = options;
  if (!app.hasRequestDecorator('cookies')) await app.register(fastifyCookie);
  app.decorateRequest('auth', null);

  const cleanup = setInterval(() => {
    deleteExpiredAuthState(pool).catch((error: unknown) =>
      options.logger?.warn({ err: error }, 'could not delete expired sessions and flows'),
    );
  }, 3_600_000);
  cleanup.unref();
  app.addHook('onClose', async () => clearInterval(cleanup));

  app.addHook('onRequest', async (request, reply) => {
    const path = requestPath(request);
    if (!isProtectedPath(path)) return;
    requestPools.set(request, pool);
    const open = isOpenPath(path);

    if (config.mode === 'none') {
      const person = await publicPerson(pool);
      const roles = [config.publicRole];
      request.auth = {
        person,
        roles,
        permissions: await loadGrantedPermissions(pool, person, roles),
        via: 'public',
      };
      return;
    }

    const presented = presentedToken(request);
    if (presented) {
      const resolved = 'token' in presented ? await resolveAccessToken(pool, presented.token) : undefined;
      if (!resolved) {
        if (open) return;
        return unauthorized(reply);
      }
      const person = { id: resolved.person.id, name: resolved.person.name, email: resolved.person.email };
      request.auth = {
        person,
        roles: resolved.roles,
        permissions: await loadGrantedPermissions(pool, person, resolved.roles),
        token: { id: resolved.id, scopes: resolved.scopes },
        via: 'token',
      };
      return;
    }

    const native = nativeSessionToken(request, path);
    const cookie = native ?? request.cookies[SESSION_COOKIE];
    let session = cookie ? await findSession(pool, cookie) : undefined;
    if (cookie && !session && !open) clearSessionCookies(request, reply, config);
    if (session && cookie) {
      let token = cookie;
      // A native client's token cannot be replaced behind its back (it reads no cookies).
      if (!native && session.rotateRequired && (await claimRotation(pool, session.id))) {
        const issued = await rotateSession(pool, session, { lifespanMs: config.sessionLifespanMs });
        setSessionCookies(request, reply, config, issued);
        token = issued.token;
        session = issued.record;
      }
      sessionTokens.set(request, token);
      sessionRecords.set(request, session);
      if (sessionSatisfiesAal(session)) request.auth = await contextFromSession(pool, session);
      // The CSRF token of the cookie that came in: a rotation must not fail the request in flight.
      if (request.auth && !SAFE_METHODS.has(request.method) && !isCsrfExempt(path)) {
        const sent = request.headers[CSRF_HEADER];
        if (typeof sent !== 'string' || !safeEqual(sent, sessionCsrfToken(cookie))) {
          return reply.status(403).send({
            error:
              'Missing or invalid CSRF token: send the value of the opsdeck_csrf cookie in the X-CSRF-Token header',
            code: 'security_csrf_violation',
          });
        }
      }
    }
    if (!request.auth && !open) return unauthorized(reply);
  });
}

/** Registered without encapsulation so that its hook and decorator apply to the whole app. */
export const authPlugin = Object.assign(authPluginImpl, {
  [Symbol.for('skip-override')]: true,
  [Symbol.for('fastify.display-name')]: 'opsdeck-auth',
});
