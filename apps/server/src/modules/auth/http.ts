import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthConfig } from './auth-config.js';
import type { IssuedSession } from './session-store.js';
import { sessionCsrfToken } from './session-store.js';

/** The HTTP-only session cookie. */
export const SESSION_COOKIE = 'opsdeck_session';
/** Readable by the web app, which sends it back as the CSRF header. */
export const CSRF_COOKIE = 'opsdeck_csrf';
/** The header carrying the session's CSRF token on state-changing cookie requests. */
export const CSRF_HEADER = 'x-csrf-token';
/** HTTP-only random value that self-service flows are bound to (per browser). */
export const FLOW_CSRF_COOKIE = 'opsdeck_flow_csrf';

/**
 * Whether cookies get the Secure flag: always when the public URL is https, else when the
 * request came over https, directly or (X-Forwarded-Proto) through one of TRUSTED_PROXIES —
 * Fastify's trustProxy ignores the header from anyone else.
 */
export function isSecureRequest(request: FastifyRequest, config: Pick<AuthConfig, 'publicUrl'>): boolean {
  return config.publicUrl.startsWith('https:') || request.protocol === 'https';
}

/** The client's IP address: the socket's, or X-Forwarded-For's when the socket is a trusted proxy. */
export function clientAddress(request: FastifyRequest): string {
  return request.ip;
}

/**
 * The path a request is routed by: the matched route's pattern, else the decoded path with
 * repeated slashes collapsed. Never the raw text alone: the router decodes `%61pi` to `api`,
 * so a check on the raw text could be walked around.
 */
export function requestPath(request: FastifyRequest): string {
  const route = request.routeOptions.url;
  if (route) return route;
  const url = request.raw.url ?? request.url;
  const index = url.indexOf('?');
  const raw = index === -1 ? url : url.slice(0, index);
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    decoded = raw;
  }
  return decoded.replace(/\/+/g, '/');
}

export function setSessionCookies(
  request: FastifyRequest,
  reply: FastifyReply,
  config: Pick<AuthConfig, 'publicUrl'>,
  issued: IssuedSession,
): void {
  const common = {
    path: '/',
    sameSite: 'lax' as const,
    secure: isSecureRequest(request, config),
    expires: issued.record.expiresAt,
  };
  reply.setCookie(SESSION_COOKIE, issued.token, { ...common, httpOnly: true });
  reply.setCookie(CSRF_COOKIE, sessionCsrfToken(issued.token), { ...common, httpOnly: false });
}

export function clearSessionCookies(
  request: FastifyRequest,
  reply: FastifyReply,
  config: Pick<AuthConfig, 'publicUrl'>,
): void {
  const common = { path: '/', sameSite: 'lax' as const, secure: isSecureRequest(request, config) };
  reply.clearCookie(SESSION_COOKIE, { ...common, httpOnly: true });
  reply.clearCookie(CSRF_COOKIE, { ...common, httpOnly: false });
}

/** Reads `Authorization: Bearer <token>` or `Basic base64("token:<token>")`. */
export function presentedToken(request: FastifyRequest): { token: string } | { invalid: true } | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, value] = header.split(/\s+/, 2);
  if (!scheme || !value) return { invalid: true };
  if (scheme.toLowerCase() === 'bearer') return { token: value.trim() };
  if (scheme.toLowerCase() === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon === -1) return { invalid: true };
    const user = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    // The ecosystem's clients send the token as the password of user 'token'.
    if (user === 'token' && password) return { token: password };
    return { invalid: true };
  }
  return { invalid: true };
}
