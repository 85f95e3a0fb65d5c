import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Pool } from '../../../platform/db/pool.js';
import type { Logger } from '../../../platform/logger.js';
import type { SecretBox } from '../../../platform/secrets.js';
import type { AuthConfig } from '../auth-config.js';
import { clientAddress, setSessionCookies } from '../http.js';
import { getIdentityView, type IdentityView, type Queryable } from '../identity-store.js';
import type { Mailer } from '../mailer.js';
import { sha256 } from '../secrets.js';
import {
  createSession,
  revokeSession,
  rotateSession,
  sessionCsrfToken,
  type Aal,
  type AuthenticationMethod,
  type IssuedSession,
  type SessionRecord,
} from '../session-store.js';

/** What the flow handlers need from the module. */
export interface FlowDeps {
  pool: Pool;
  config: AuthConfig;
  logger: Logger | undefined;
  mailer: Mailer;
  /** Seals TOTP secrets at rest (SECRET_KEY); without it they are stored as they are. */
  secrets: SecretBox | undefined;
}

/** One HTTP call into a flow: the browser's session (if any) and its flow-binding cookie. */
export interface FlowCall {
  request: FastifyRequest;
  reply: FastifyReply;
  session: SessionRecord | undefined;
  sessionToken: string | undefined;
  csrfCookie: string;
}

/** The web app's screen for each flow type (spec core §2). */
export const FLOW_SCREENS = {
  login: '/login',
  registration: '/registration',
  recovery: '/recovery',
  verification: '/verification',
  settings: '/profile-settings',
} as const;

export function screenUrl(
  screen: keyof typeof FLOW_SCREENS,
  params: Record<string, string | undefined>,
): string {
  const search = new URLSearchParams(
    Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined),
  ).toString();
  return `${FLOW_SCREENS[screen]}${search ? `?${search}` : ''}`;
}

export function logoutToken(sessionToken: string): string {
  return sha256(`logout:${sessionToken}`);
}

export interface SessionView {
  id: string;
  active: true;
  expires_at: string;
  authenticated_at: string;
  issued_at: string;
  authenticator_assurance_level: Aal;
  authentication_methods: AuthenticationMethod[];
  identity: IdentityView | undefined;
  /** Send back as X-CSRF-Token on state-changing calls (also in the opsdeck_csrf cookie). */
  csrf_token: string;
  logout_token: string;
}

export async function sessionView(db: Queryable, record: SessionRecord, token: string): Promise<SessionView> {
  return {
    id: record.id,
    active: true,
    expires_at: record.expiresAt.toISOString(),
    authenticated_at: record.authenticatedAt.toISOString(),
    issued_at: record.issuedAt.toISOString(),
    authenticator_assurance_level: record.aal,
    authentication_methods: record.methods,
    identity: await getIdentityView(db, record.personId),
    csrf_token: sessionCsrfToken(token),
    logout_token: logoutToken(token),
  };
}

function method(name: string, aal: Aal): AuthenticationMethod {
  return { method: name, aal, completed_at: new Date().toISOString() };
}

/**
 * Starts a fresh session for a sign-in: the browser's previous session (if any) ends, so a
 * cookie planted before sign-in can never become an authenticated one.
 */
export async function signIn(
  deps: FlowDeps,
  call: FlowCall,
  personId: string,
  methodName: string,
  aal: Aal,
): Promise<IssuedSession> {
  if (call.session) await revokeSession(deps.pool, call.session.id);
  const issued = await createSession(deps.pool, {
    personId,
    aal,
    methods: [method(methodName, aal)],
    lifespanMs: deps.config.sessionLifespanMs,
    ip: clientAddress(call.request),
    userAgent: call.request.headers['user-agent'],
  });
  setSessionCookies(call.request, call.reply, deps.config, issued);
  call.session = issued.record;
  call.sessionToken = issued.token;
  return issued;
}

/** Replaces the session after a step that changes what it proves (second factor, re-authentication, new credentials). */
export async function elevateSession(
  deps: FlowDeps,
  call: FlowCall,
  session: SessionRecord,
  change: { methodName: string; aal?: Aal; reauthenticated?: boolean },
): Promise<IssuedSession> {
  const aal = change.aal ?? session.aal;
  const issued = await rotateSession(
    deps.pool,
    session,
    {
      aal,
      methods: [...session.methods, method(change.methodName, change.aal ?? 'aal1')],
      ...(change.reauthenticated ? { authenticatedAt: new Date() } : {}),
      lifespanMs: deps.config.sessionLifespanMs,
    },
    { ip: clientAddress(call.request), userAgent: call.request.headers['user-agent'] },
  );
  setSessionCookies(call.request, call.reply, deps.config, issued);
  call.session = issued.record;
  call.sessionToken = issued.token;
  return issued;
}

/** Where to go after a first factor: on, or to the second-factor screen first. */
export function afterSignIn(session: SessionRecord, returnTo: string): string {
  if (session.aal === 'aal1' && session.needsAal2)
    return screenUrl('login', { aal: 'aal2', return_to: returnTo });
  return returnTo;
}

/** Whether a session may change credentials without signing in again. */
export function isPrivileged(deps: FlowDeps, session: SessionRecord, now = new Date()): boolean {
  return now.getTime() - session.authenticatedAt.getTime() <= deps.config.privilegedSessionMaxAgeMs;
}
