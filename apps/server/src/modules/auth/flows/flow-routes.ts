import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { publicPerson, sessionRecordOf, sessionSatisfiesAal, sessionTokenOf } from '../auth-plugin.js';
import { clearSessionCookies } from '../http.js';
import { getIdentityView } from '../identity-store.js';
import { safeEqual } from '../secrets.js';
import { revokeSession } from '../session-store.js';
import {
  assertCsrf,
  ensureFlowCookie,
  FLOW_TYPES,
  FlowError,
  flowBoundToBrowser,
  flowErrors,
  flowView,
  isExpired,
  loadFlow,
  sendFlowError,
  validateReturnTo,
  type FlowRecord,
  type FlowType,
} from './flow-core.js';
import { logoutToken, screenUrl, sessionView, type FlowCall, type FlowDeps } from './flow-context.js';
import { createLoginFlow, submitLoginFlow } from './login-flow.js';
import { handleOidcCallback } from './oidc-callback.js';
import {
  createRecoveryFlow,
  createVerificationFlow,
  followRecoveryLink,
  followVerificationLink,
  submitCodeFlow,
} from './recovery-verification-flows.js';
import { createRegistrationFlow, submitRegistrationFlow } from './registration-flow.js';
import {
  assertSettingsSession,
  createSettingsFlow,
  settingsFlowView,
  submitSettingsFlow,
} from './settings-flow.js';

/** One query parameter as a string (the first when repeated). */
export function queryParam(request: FastifyRequest, name: string): string | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  const value = query?.[name];
  if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** The query parameters a flow is created with. */
export interface FlowQuery {
  return_to?: string;
  refresh?: string;
  aal?: string;
}

/** The query parameters of a create call, as given. */
export function flowQueryOf(request: FastifyRequest): FlowQuery {
  const query: FlowQuery = {};
  for (const name of ['return_to', 'refresh', 'aal'] as const) {
    const value = queryParam(request, name);
    if (value !== undefined) query[name] = value;
  }
  return query;
}

export function callOf(deps: FlowDeps, request: FastifyRequest, reply: FastifyReply): FlowCall {
  return {
    request,
    reply,
    session: sessionRecordOf(request),
    sessionToken: sessionTokenOf(request),
    csrfCookie: ensureFlowCookie(request, reply, deps.config),
  };
}

export async function createFlow(
  deps: FlowDeps,
  call: FlowCall,
  type: FlowType,
  query: FlowQuery,
): Promise<FlowRecord> {
  switch (type) {
    case 'login':
      return createLoginFlow(deps, call, query);
    case 'registration':
      return createRegistrationFlow(deps, call, query);
    case 'recovery':
      return createRecoveryFlow(deps, call, query);
    case 'verification':
      return createVerificationFlow(deps, call, query);
    case 'settings':
      return createSettingsFlow(deps, call, query);
  }
}

/** A replacement for an expired flow, when one can be made for this browser. */
export async function restart(
  deps: FlowDeps,
  call: FlowCall,
  old: FlowRecord,
  create: (type: FlowType, query: FlowQuery) => Promise<FlowRecord> = (type, query) =>
    createFlow(deps, call, type, query),
): Promise<string | undefined> {
  try {
    const flow = await create(old.type, {
      ...(old.returnTo ? { return_to: old.returnTo } : {}),
      ...(old.refresh ? { refresh: 'true' } : {}),
      ...(old.requestedAal === 'aal2' ? { aal: 'aal2' } : {}),
    });
    return flow.id;
  } catch (error) {
    if (error instanceof FlowError) return undefined;
    throw error;
  }
}

/** A submitted body as an object ({} when it is not one). */
export function bodyOf(request: FastifyRequest): Record<string, unknown> {
  return typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body)
    ? (request.body as Record<string, unknown>)
    : {};
}

/** Submits a flow whose CSRF binding has been checked. */
export async function submitFlow(
  deps: FlowDeps,
  call: FlowCall,
  flow: FlowRecord,
  body: Record<string, unknown>,
): Promise<{ status: number; body: unknown }> {
  switch (flow.type) {
    case 'login':
      return submitLoginFlow(deps, call, flow, body);
    case 'registration':
      return submitRegistrationFlow(deps, call, flow, body);
    case 'recovery':
    case 'verification':
      return submitCodeFlow(deps, call, flow, body);
    case 'settings':
      return submitSettingsFlow(deps, call, flow, body);
  }
}

export async function viewOf(deps: FlowDeps, flow: FlowRecord, csrfCookie: string) {
  return flow.type === 'settings' ? settingsFlowView(deps, flow, csrfCookie) : flowView(flow, csrfCookie);
}

async function answer(
  reply: FastifyReply,
  work: () => Promise<{ status: number; body: unknown }>,
): Promise<FastifyReply> {
  try {
    const result = await work();
    return reply.status(result.status).send(result.body);
  } catch (error) {
    if (error instanceof FlowError) return sendFlowError(reply, error);
    throw error;
  }
}

/** `{logout_token, logout_url}` for the signed-in browser; the URL is on the door asked (`base`). */
export function answerLogoutUrl(
  deps: FlowDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  base: string,
): FastifyReply | { logout_token: string; logout_url: string } {
  const token = sessionTokenOf(request);
  if (!token) return sendFlowError(reply, flowErrors.inactive());
  const logout = logoutToken(token);
  return {
    logout_token: logout,
    logout_url: `${deps.config.publicUrl}${base}/logout?token=${encodeURIComponent(logout)}`,
  };
}

/** Ends the session whose logout token is presented: 204 for JSON callers, else 303 to return_to. */
export async function logout(
  deps: FlowDeps,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  let returnTo: string;
  try {
    returnTo = validateReturnTo(queryParam(request, 'return_to'), deps.config);
  } catch (error) {
    if (error instanceof FlowError) return sendFlowError(reply, error);
    throw error;
  }
  const token = sessionTokenOf(request);
  const session = sessionRecordOf(request);
  if (!token || !session) return sendFlowError(reply, flowErrors.inactive());
  const presented = queryParam(request, 'token') ?? '';
  if (!safeEqual(presented, logoutToken(token))) return sendFlowError(reply, flowErrors.csrf());
  await revokeSession(deps.pool, session.id);
  clearSessionCookies(request, reply, deps.config);
  const wantsJson = (request.headers.accept ?? '').includes('application/json');
  return wantsJson ? reply.status(204).send() : reply.redirect(returnTo, 303);
}

/**
 * The self-service identity endpoints the sign-in screens use (see README.md in this folder):
 * create, get and submit login, registration, recovery, verification and settings flows;
 * email links; the OIDC callback; logout; the current session.
 */
export function registerFlowRoutes(app: FastifyInstance, deps: FlowDeps): void {
  const base = '/api/auth/self-service';
  const publicMode = deps.config.mode === 'none';
  const unavailable = () => flowErrors.disabled('Sign-in');

  for (const type of FLOW_TYPES) {
    app.get(`${base}/${type}/browser`, async (request, reply) =>
      answer(reply, async () => {
        if (publicMode) throw unavailable();
        const call = callOf(deps, request, reply);
        const flow = await createFlow(deps, call, type, flowQueryOf(request));
        return { status: 200, body: await viewOf(deps, flow, call.csrfCookie) };
      }),
    );

    app.get(`${base}/${type}/flows`, async (request, reply) =>
      answer(reply, async () => {
        if (publicMode) throw unavailable();
        const call = callOf(deps, request, reply);
        const flow = await loadFlow(deps.pool, queryParam(request, 'id') ?? '', type);
        if (!flow) throw flowErrors.notFound();
        if (!flowBoundToBrowser(request, flow)) throw flowErrors.csrf();
        if (isExpired(flow)) throw flowErrors.expired(await restart(deps, call, flow));
        if (type === 'settings') assertSettingsSession(call, flow);
        return { status: 200, body: await viewOf(deps, flow, call.csrfCookie) };
      }),
    );

    app.post(`${base}/${type}`, async (request, reply) =>
      answer(reply, async () => {
        if (publicMode) throw unavailable();
        const call = callOf(deps, request, reply);
        const flow = await loadFlow(deps.pool, queryParam(request, 'flow') ?? '', type);
        if (!flow) throw flowErrors.notFound();
        if (isExpired(flow)) throw flowErrors.expired(await restart(deps, call, flow));
        const body = bodyOf(request);
        assertCsrf(request, flow, body.csrf_token);
        return submitFlow(deps, call, flow, body);
      }),
    );
  }

  app.get(`${base}/recovery/link`, async (request, reply) => {
    if (publicMode) return sendFlowError(reply, unavailable());
    const location = await followRecoveryLink(
      deps,
      callOf(deps, request, reply),
      queryParam(request, 'token') ?? '',
    );
    return reply.redirect(location, 303);
  });

  app.get(`${base}/verification/link`, async (request, reply) => {
    if (publicMode) return sendFlowError(reply, unavailable());
    const location = await followVerificationLink(
      deps,
      callOf(deps, request, reply),
      queryParam(request, 'token') ?? '',
    );
    return reply.redirect(location, 303);
  });

  app.get(`${base}/oidc/callback`, async (request, reply) => {
    if (publicMode) return sendFlowError(reply, unavailable());
    const query = new URLSearchParams(
      request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '',
    );
    const location = await handleOidcCallback(deps, callOf(deps, request, reply), query);
    return reply.redirect(location, 303);
  });

  app.get(`${base}/logout/browser`, async (request, reply) => answerLogoutUrl(deps, request, reply, base));

  // Logout is a GET carrying the session's logout token: a cross-site page cannot know it.
  app.get(`${base}/logout`, async (request, reply) => logout(deps, request, reply));

  app.get('/api/auth/session', async (request, reply) => {
    if (publicMode) {
      const person = await publicPerson(deps.pool);
      return {
        id: 'public',
        active: true,
        authenticator_assurance_level: 'aal1',
        authentication_methods: [],
        identity: {
          id: person.id,
          schema_id: 'default',
          state: 'active',
          traits: { email: '', name: { first: person.name, last: '' } },
          verifiable_addresses: [],
          roles: [deps.config.publicRole],
        },
      };
    }
    const token = sessionTokenOf(request);
    const session = sessionRecordOf(request);
    if (!token || !session) return sendFlowError(reply, flowErrors.inactive());
    if (!sessionSatisfiesAal(session)) {
      return sendFlowError(reply, flowErrors.aal2Required(screenUrl('login', { aal: 'aal2' })));
    }
    const view = await sessionView(deps.pool, session, token);
    if (!view.identity) view.identity = await getIdentityView(deps.pool, session.personId);
    return view;
  });
}
