import type { FlowType } from '@opsdeck/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthConfig } from '../auth-config.js';
import { FLOW_CSRF_COOKIE, isSecureRequest } from '../http.js';
import type { Queryable } from '../identity-store.js';
import { randomSecret, safeEqual, sha256 } from '../secrets.js';
import type { Aal } from '../session-store.js';

/**
 * What every self-service flow shares: its record, the UI it renders (Kratos-like: nodes with
 * name, type, value, required and messages), its errors and its CSRF binding to one browser.
 */

// The flow types are the contracts' (auth.ts), which also describe the flow the screens render.
export { FLOW_TYPES, type FlowType } from '@opsdeck/contracts';

export interface UiText {
  id: string;
  text: string;
  type: 'info' | 'error' | 'success';
}

export type UiNodeType =
  'hidden' | 'text' | 'email' | 'password' | 'submit' | 'button' | 'checkbox' | 'script';

export interface UiNode {
  /** The method the node belongs to: default, password, oidc, passkey, totp, lookup_secret, webauthn, code, profile. */
  group: string;
  name: string;
  type: UiNodeType;
  value?: unknown;
  required?: boolean;
  disabled?: boolean;
  label?: string;
  autocomplete?: string;
  messages: UiText[];
}

export interface FlowUi {
  action: string;
  method: 'POST';
  nodes: UiNode[];
  messages: UiText[];
}

/** Server-side secrets of a flow (challenges, pending TOTP secret, OIDC state); never sent out. */
export interface FlowData {
  passkeyChallenge?: string;
  webauthnChallenge?: string;
  webauthnRegisterChallenge?: string;
  /** Sealed with SECRET_KEY when the module has a SecretBox (see totp.ts sealTotpSecret). */
  pendingTotpSecret?: string;
  oidc?: { state: string; nonce: string; verifier: string; purpose: 'login' | 'registration' | 'link' };
  /** Address a recovery or verification code was sent to. */
  address?: string;
  /** Values typed before a 400, so the form keeps them (never passwords). */
  values?: Record<string, string>;
}

export interface FlowRecord {
  id: string;
  type: FlowType;
  state: string | null;
  personId: string | null;
  returnTo: string | null;
  requestUrl: string;
  refresh: boolean;
  requestedAal: Aal;
  csrfBinding: string;
  ui: FlowUi;
  data: FlowData;
  issuedAt: Date;
  expiresAt: Date;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  410: 'Gone',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
};

/** A flow error with one of the ids of spec core §8; rendered as `{error: {...}, redirect_browser_to?, use_flow_id?}`. */
export class FlowError extends Error {
  constructor(
    readonly status: number,
    readonly id: string,
    message: string,
    readonly extras: {
      redirect_browser_to?: string;
      use_flow_id?: string;
      reason?: string;
      retryAfter?: number;
    } = {},
  ) {
    super(message);
    this.name = 'FlowError';
  }

  toBody(): Record<string, unknown> {
    const { redirect_browser_to, use_flow_id, reason } = this.extras;
    return {
      error: {
        id: this.id,
        code: this.status,
        status: STATUS_TEXT[this.status] ?? 'Error',
        message: this.message,
        ...(reason ? { reason } : {}),
      },
      ...(redirect_browser_to ? { redirect_browser_to } : {}),
      ...(use_flow_id ? { use_flow_id } : {}),
    };
  }
}

/** The exact texts of spec core §8 where the spec gives them. */
export const FLOW_MESSAGES = {
  returnToForbidden: 'The return_to address is not allowed.',
  expired: 'Your interaction expired, please fill out the form again.',
  csrf: 'A security violation was detected, please fill out the form again.',
} as const;

export const flowErrors = {
  returnToForbidden: () =>
    new FlowError(400, 'self_service_flow_return_to_forbidden', FLOW_MESSAGES.returnToForbidden),
  expired: (useFlowId?: string) =>
    new FlowError(
      410,
      'self_service_flow_expired',
      FLOW_MESSAGES.expired,
      useFlowId ? { use_flow_id: useFlowId } : {},
    ),
  csrf: () => new FlowError(403, 'security_csrf_violation', FLOW_MESSAGES.csrf),
  aal2Required: (redirect: string) =>
    new FlowError(
      403,
      'session_aal2_required',
      'A second factor is required: confirm with your authenticator app, a backup code or a security key.',
      {
        redirect_browser_to: redirect,
      },
    ),
  alreadySignedIn: () => new FlowError(400, 'session_already_available', 'You are already signed in.'),
  refreshRequired: (redirect: string) =>
    new FlowError(
      403,
      'session_refresh_required',
      'Please confirm it is you by signing in again before changing this.',
      {
        redirect_browser_to: redirect,
      },
    ),
  identityMismatch: () =>
    new FlowError(
      403,
      'security_identity_mismatch',
      'This form was started for another account, please start again.',
    ),
  locationChange: (redirect: string) =>
    new FlowError(422, 'browser_location_change_required', 'Continue in the browser at the given address.', {
      redirect_browser_to: redirect,
    }),
  inactive: () => new FlowError(401, 'session_inactive', 'You are not signed in.'),
  notFound: () =>
    new FlowError(404, 'self_service_flow_not_found', 'This form does not exist, please start again.'),
  disabled: (what: string) =>
    new FlowError(400, 'self_service_flow_disabled', `${what} is not available on this server.`),
  /** 429 with Retry-After; the message defaults to the one for failed sign-ins. */
  throttled: (seconds: number, message?: string) =>
    new FlowError(
      429,
      'self_service_flow_throttled',
      message ?? `Too many failed attempts. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
      { retryAfter: seconds },
    ),
};

export function sendFlowError(reply: FastifyReply, error: FlowError): FastifyReply {
  if (error.extras.retryAfter !== undefined) reply.header('Retry-After', String(error.extras.retryAfter));
  return reply.status(error.status).send(error.toBody());
}

// ---------------------------------------------------------------------------------------------
// CSRF binding

/** The browser's flow-binding cookie, set when missing. */
export function ensureFlowCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  config: Pick<AuthConfig, 'publicUrl'>,
): string {
  const existing = request.cookies[FLOW_CSRF_COOKIE];
  if (existing && existing.length >= 32) return existing;
  const value = randomSecret(32);
  reply.setCookie(FLOW_CSRF_COOKIE, value, {
    // /api: the web app's door (/api/auth) and the Kratos-shaped one (/api/kratos) share flows.
    path: '/api',
    httpOnly: true,
    sameSite: 'lax',
    secure: isSecureRequest(request, config),
  });
  // Later code in the same request must see it too (a flow created and bound right away).
  request.cookies[FLOW_CSRF_COOKIE] = value;
  return value;
}

/**
 * The binding of a flow started by a native client (Kratos's `/self-service/<flow>/api`): no
 * cookie can ever hash to it, so browsers cannot submit such a flow, and the session token the
 * client presents authenticates it instead.
 */
export const API_FLOW_BINDING = 'api';

export function isApiFlow(flow: FlowRecord): boolean {
  return flow.csrfBinding === API_FLOW_BINDING;
}

export async function markApiFlow(db: Queryable, flow: FlowRecord): Promise<void> {
  await db.query(`UPDATE auth_flows SET csrf_binding = $2 WHERE id = $1`, [flow.id, API_FLOW_BINDING]);
  flow.csrfBinding = API_FLOW_BINDING;
}

export function flowCsrfToken(cookieValue: string, flowId: string): string {
  return sha256(`flow:${flowId}:${cookieValue}`);
}

/** The browser presenting the request is the one the flow was started in. */
export function flowBoundToBrowser(request: FastifyRequest, flow: FlowRecord): boolean {
  const cookie = request.cookies[FLOW_CSRF_COOKIE];
  return Boolean(cookie) && safeEqual(sha256(cookie as string), flow.csrfBinding);
}

export function assertCsrf(request: FastifyRequest, flow: FlowRecord, submitted: unknown): void {
  const cookie = request.cookies[FLOW_CSRF_COOKIE];
  if (!cookie || !flowBoundToBrowser(request, flow)) throw flowErrors.csrf();
  if (typeof submitted !== 'string' || !safeEqual(submitted, flowCsrfToken(cookie, flow.id)))
    throw flowErrors.csrf();
}

// ---------------------------------------------------------------------------------------------
// return_to

/**
 * Accepts a path on this site, or an absolute address on the public URL's origin or an origin in
 * ALLOWED_RETURN_URLS. Anything else (other sites, `//host`, `javascript:`) is refused.
 */
export function validateReturnTo(raw: unknown, config: AuthConfig): string {
  if (raw === undefined || raw === null || raw === '') return '/';
  if (typeof raw !== 'string') throw flowErrors.returnToForbidden();
  const value = raw.trim();
  if (value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')) {
    // A path must stay a path once resolved (no scheme smuggled in through encodings).
    const resolved = new URL(value, 'http://opsdeck.invalid');
    if (resolved.origin !== 'http://opsdeck.invalid') throw flowErrors.returnToForbidden();
    return value;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw flowErrors.returnToForbidden();
  }
  const allowed = [new URL(config.publicUrl).origin, ...config.allowedReturnOrigins];
  if (!['http:', 'https:'].includes(url.protocol) || !allowed.includes(url.origin))
    throw flowErrors.returnToForbidden();
  return url.toString();
}

// ---------------------------------------------------------------------------------------------
// Store

interface FlowRow {
  id: string;
  type: FlowType;
  state: string | null;
  person_id: string | null;
  return_to: string | null;
  request_url: string;
  refresh: boolean;
  requested_aal: Aal;
  csrf_binding: string;
  ui: FlowUi;
  data: FlowData;
  issued_at: Date;
  expires_at: Date;
}

function toRecord(row: FlowRow): FlowRecord {
  return {
    id: row.id,
    type: row.type,
    state: row.state,
    personId: row.person_id,
    returnTo: row.return_to,
    requestUrl: row.request_url,
    refresh: row.refresh,
    requestedAal: row.requested_aal,
    csrfBinding: row.csrf_binding,
    ui: row.ui,
    data: row.data,
    issuedAt: row.issued_at,
    expiresAt: row.expires_at,
  };
}

export interface NewFlow {
  type: FlowType;
  state?: string | null;
  personId?: string | null;
  returnTo: string;
  requestUrl: string;
  refresh?: boolean;
  requestedAal?: Aal;
  csrfCookie: string;
  data?: FlowData;
  lifespanMs: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function insertFlow(db: Queryable, flow: NewFlow): Promise<FlowRecord> {
  const { rows } = await db.query<FlowRow>(
    `INSERT INTO auth_flows (type, state, person_id, return_to, request_url, refresh, requested_aal, csrf_binding, ui, data, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now() + make_interval(secs => $11::double precision / 1000))
     RETURNING *`,
    [
      flow.type,
      flow.state ?? null,
      flow.personId ?? null,
      flow.returnTo,
      flow.requestUrl,
      flow.refresh ?? false,
      flow.requestedAal ?? 'aal1',
      sha256(flow.csrfCookie),
      JSON.stringify({ action: '', method: 'POST', nodes: [], messages: [] }),
      JSON.stringify(flow.data ?? {}),
      flow.lifespanMs,
    ],
  );
  return toRecord(rows[0] as FlowRow);
}

export async function loadFlow(db: Queryable, id: string, type?: FlowType): Promise<FlowRecord | undefined> {
  if (!UUID.test(id)) return undefined;
  const { rows } = await db.query<FlowRow>(`SELECT * FROM auth_flows WHERE id = $1`, [id]);
  const row = rows[0];
  if (!row || (type && row.type !== type)) return undefined;
  return toRecord(row);
}

export async function saveFlow(db: Queryable, flow: FlowRecord): Promise<void> {
  await db.query(`UPDATE auth_flows SET state = $2, person_id = $3, ui = $4, data = $5 WHERE id = $1`, [
    flow.id,
    flow.state,
    flow.personId,
    JSON.stringify(flow.ui),
    JSON.stringify(flow.data),
  ]);
}

/** Ends a flow that has done its work, so that it cannot be submitted twice. */
export async function expireFlow(db: Queryable, flowId: string): Promise<void> {
  await db.query(`UPDATE auth_flows SET expires_at = least(expires_at, now()) WHERE id = $1`, [flowId]);
}

export function isExpired(flow: FlowRecord, now = new Date()): boolean {
  return flow.expiresAt.getTime() <= now.getTime();
}

// ---------------------------------------------------------------------------------------------
// UI helpers

export function text(id: string, message: string, type: UiText['type'] = 'info'): UiText {
  return { id, text: message, type };
}

export function node(
  group: string,
  name: string,
  type: UiNodeType,
  options: Partial<Omit<UiNode, 'group' | 'name' | 'type' | 'messages'>> & { messages?: UiText[] } = {},
): UiNode {
  const { messages, ...rest } = options;
  return { group, name, type, ...rest, messages: messages ?? [] };
}

export const REQUIRED = 'This field is required';

/** Attaches field messages to the nodes they belong to. */
export function withFieldMessages(nodes: UiNode[], messages: Record<string, UiText[]>): UiNode[] {
  return nodes.map((entry) =>
    messages[entry.name]
      ? { ...entry, messages: [...entry.messages, ...(messages[entry.name] ?? [])] }
      : entry,
  );
}

/** The JSON a flow is sent as, with the CSRF token of the browser asking for it. */
export interface FlowView {
  id: string;
  type: FlowType;
  state: string | null;
  issued_at: string;
  expires_at: string;
  request_url: string;
  return_to: string | null;
  refresh: boolean;
  requested_aal: Aal;
  csrf_token: string;
  ui: FlowUi;
  [extra: string]: unknown;
}

export function flowView(
  flow: FlowRecord,
  csrfCookie: string,
  extra: Record<string, unknown> = {},
): FlowView {
  const csrf = flowCsrfToken(csrfCookie, flow.id);
  return {
    id: flow.id,
    type: flow.type,
    state: flow.state,
    issued_at: flow.issuedAt.toISOString(),
    expires_at: flow.expiresAt.toISOString(),
    request_url: flow.requestUrl,
    return_to: flow.returnTo,
    refresh: flow.refresh,
    requested_aal: flow.requestedAal,
    csrf_token: csrf,
    ui: {
      ...flow.ui,
      nodes: flow.ui.nodes.map((entry) => (entry.name === 'csrf_token' ? { ...entry, value: csrf } : entry)),
    },
    ...extra,
  };
}

export function csrfNode(): UiNode {
  return node('default', 'csrf_token', 'hidden', { required: true });
}

/** A string field of a submitted body ('' when absent or not a string). */
export function field(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  return typeof value === 'string' ? value : '';
}

/** A nested string field such as traits.name.first, from nested objects or dotted keys. */
export function nestedField(body: Record<string, unknown>, path: string): string {
  if (typeof body[path] === 'string') return body[path] as string;
  let current: unknown = body;
  for (const part of path.split('.')) {
    if (typeof current !== 'object' || current === null) return '';
    current = (current as Record<string, unknown>)[part];
  }
  return typeof current === 'string' ? current : '';
}

export function truthy(value: unknown): boolean {
  return value === true || value === 'true' || value === '1' || value === 'on';
}
