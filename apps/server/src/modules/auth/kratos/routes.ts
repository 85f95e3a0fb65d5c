import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { publicPerson, sessionRecordOf, sessionSatisfiesAal, sessionTokenOf } from '../auth-plugin.js';
import {
  FLOW_SCREENS,
  sessionView,
  type FlowCall,
  type FlowDeps,
  type SessionView,
} from '../flows/flow-context.js';
import {
  assertCsrf,
  FLOW_TYPES,
  FlowError,
  flowBoundToBrowser,
  flowErrors,
  isApiFlow,
  isExpired,
  loadFlow,
  markApiFlow,
  type FlowRecord,
  type FlowType,
  type FlowView,
} from '../flows/flow-core.js';
import {
  answerLogoutUrl,
  bodyOf,
  callOf,
  createFlow,
  flowQueryOf,
  logout,
  queryParam,
  restart,
  submitFlow,
  viewOf,
  type FlowQuery,
} from '../flows/flow-routes.js';
import { assertSettingsSession } from '../flows/settings-flow.js';
import { getIdentityView, type IdentityView } from '../identity-store.js';
import { randomSecret } from '../secrets.js';
import { findSession, revokeSession } from '../session-store.js';
import { findFlowError, recordFlowError } from './flow-errors.js';
import { KRATOS_BASE, kratosFlow, kratosIdentity, kratosSession, onKratosDoor } from './wire.js';

type Client = 'browser' | 'api';

const IDENTITY_SCHEMA_ID = 'default';

/** The traits every Opsdeck identity has, as a Kratos identity schema (JSON Schema). */
function identitySchema(deps: FlowDeps): Record<string, unknown> {
  return {
    $id: `${deps.config.publicUrl}${KRATOS_BASE}/schemas/${IDENTITY_SCHEMA_ID}`,
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'Person',
    type: 'object',
    properties: {
      traits: {
        type: 'object',
        properties: {
          email: {
            type: 'string',
            format: 'email',
            title: 'Email',
            'ory.sh/kratos': {
              credentials: { password: { identifier: true } },
              verification: { via: 'email' },
              recovery: { via: 'email' },
            },
          },
          name: {
            type: 'object',
            properties: {
              first: { type: 'string', title: 'First name' },
              last: { type: 'string', title: 'Last name' },
            },
          },
        },
        required: ['email'],
        additionalProperties: false,
      },
    },
  };
}

function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('application/json') || accept.includes('+json');
}

/** Kratos sends absolute addresses; the flows give paths on this site. */
function absolute(deps: FlowDeps, location: string): string {
  return location.startsWith('/') ? `${deps.config.publicUrl}${location}` : location;
}

/** A flow error as Kratos sends it: addresses absolute and on this door. */
function sendKratosError(deps: FlowDeps, reply: FastifyReply, error: FlowError): FastifyReply {
  if (error.extras.retryAfter !== undefined) reply.header('Retry-After', String(error.extras.retryAfter));
  const body = error.toBody() as { redirect_browser_to?: string };
  if (body.redirect_browser_to)
    body.redirect_browser_to = absolute(deps, onKratosDoor(body.redirect_browser_to));
  return reply.status(error.status).send(body);
}

/** A native client's call: no flow cookie (nothing ambient); its session is its X-Session-Token. */
function apiCallOf(request: FastifyRequest, reply: FastifyReply): FlowCall {
  return {
    request,
    reply,
    session: sessionRecordOf(request),
    sessionToken: sessionTokenOf(request),
    csrfCookie: randomSecret(32),
  };
}

async function createFor(
  deps: FlowDeps,
  call: FlowCall,
  client: Client,
  type: FlowType,
  query: FlowQuery,
): Promise<FlowRecord> {
  const flow = await createFlow(deps, call, type, query);
  if (client === 'api') await markApiFlow(deps.pool, flow);
  return flow;
}

async function identityOf(
  deps: FlowDeps,
  view: SessionView,
  personId: string | undefined,
): Promise<IdentityView> {
  const identity = view.identity ?? (personId ? await getIdentityView(deps.pool, personId) : undefined);
  if (!identity) throw flowErrors.inactive();
  return identity;
}

/** What a submit answered, in Kratos's shape: a flow, or a finished login/registration. */
async function translateResult(
  deps: FlowDeps,
  call: FlowCall,
  client: Client,
  tokenBefore: string | undefined,
  result: { status: number; body: unknown },
): Promise<{ status: number; body: unknown }> {
  const body = result.body as Record<string, unknown>;
  const tokenChanged = call.sessionToken !== undefined && call.sessionToken !== tokenBefore;
  const continueWith: Record<string, unknown>[] = [];
  if (client === 'api' && tokenChanged) {
    continueWith.push({ action: 'set_ory_session_token', ory_session_token: call.sessionToken });
  }
  for (const next of (body.continue_with as Record<string, unknown>[] | undefined) ?? [])
    continueWith.push(next);
  if ('ui' in body) {
    const flow = kratosFlow(body as unknown as FlowView, client, deps.config);
    return {
      status: result.status,
      body: continueWith.length > 0 ? { ...flow, continue_with: continueWith } : flow,
    };
  }
  if ('session' in body) {
    const view = body.session as SessionView;
    const identity = await identityOf(deps, view, call.session?.personId);
    return {
      status: result.status,
      body: {
        // A finished registration names the identity it made, as Kratos's does.
        ...('identity' in body ? { identity: kratosIdentity(identity, deps.config) } : {}),
        session: kratosSession(view, identity, deps.config),
        ...(client === 'api' && call.sessionToken ? { session_token: call.sessionToken } : {}),
        ...(continueWith.length > 0 ? { continue_with: continueWith } : {}),
      },
    };
  }
  return result;
}

/**
 * Ory Kratos's public API (the identity half of issue 21) under `/api/kratos/`: the same flows,
 * sessions, CSRF binding and throttling as `/api/auth/self-service` (flows/flow-routes.ts), sent
 * in Kratos's wire format (wire.ts). Browser flows are bound to the `opsdeck_flow_csrf` cookie;
 * api flows to the session token the client sends as `X-Session-Token`.
 */
export function registerKratosRoutes(app: FastifyInstance, deps: FlowDeps): void {
  const base = `${KRATOS_BASE}/self-service`;
  const publicMode = deps.config.mode === 'none';

  // HTML forms (ui.action with ui.method) post urlencoded fields; dotted names stay dotted
  // (traits.email), which the flows read as nested.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (_request, payload, done) => {
      done(null, Object.fromEntries(new URLSearchParams(payload as string)));
    },
  );

  /** A browser navigating (a form post, a link), not a script and not a native client. */
  function navigating(request: FastifyRequest): boolean {
    const native = (request.url.split('?')[0] ?? '').endsWith('/api');
    if (native || wantsJson(request)) return false;
    if (request.method === 'GET') return true;
    return (request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
  }

  async function answer(
    request: FastifyRequest,
    reply: FastifyReply,
    work: () => Promise<{ status: number; body: unknown } | { redirect: string }>,
  ): Promise<FastifyReply> {
    try {
      if (publicMode) throw flowErrors.disabled('Sign-in');
      const result = await work();
      if ('redirect' in result) return reply.redirect(result.redirect, 303);
      return reply.status(result.status).send(result.body);
    } catch (error) {
      if (!(error instanceof FlowError)) throw error;
      // A browser navigating (not a script, not a native client) goes on as Kratos sends it: home
      // when already signed in, else to the error screen.
      if (navigating(request)) {
        if (error.id === 'session_already_available') return reply.redirect(`${deps.config.publicUrl}/`, 303);
        const redirect = error.extras.redirect_browser_to;
        if (redirect) return reply.redirect(absolute(deps, redirect), 303);
        // An expired flow: on to its replacement, on the screen of its type.
        const type = /\/self-service\/([a-z]+)/.exec(request.url)?.[1] as FlowType | undefined;
        if (error.extras.use_flow_id && type && type in FLOW_SCREENS) {
          return reply.redirect(
            absolute(deps, `${FLOW_SCREENS[type]}?flow=${error.extras.use_flow_id}`),
            303,
          );
        }
        const id = recordFlowError(deps.secrets, error.toBody().error as Record<string, unknown>);
        return reply.redirect(`${deps.config.publicUrl}/error?id=${id}`, 303);
      }
      return sendKratosError(deps, reply, error);
    }
  }

  for (const type of FLOW_TYPES) {
    for (const client of ['browser', 'api'] as const) {
      app.get(`${base}/${type}/${client}`, async (request, reply) =>
        answer(request, reply, async () => {
          const call = client === 'api' ? apiCallOf(request, reply) : callOf(deps, request, reply);
          const flow = await createFor(deps, call, client, type, flowQueryOf(request));
          // A browser navigating here goes on to the screen that renders the flow.
          if (client === 'browser' && !wantsJson(request))
            return { redirect: absolute(deps, `${FLOW_SCREENS[type]}?flow=${flow.id}`) };
          return {
            status: 200,
            body: kratosFlow(await viewOf(deps, flow, call.csrfCookie), client, deps.config),
          };
        }),
      );
    }

    app.get(`${base}/${type}/flows`, async (request, reply) =>
      answer(request, reply, async () => {
        const id = queryParam(request, 'id');
        if (!id)
          throw new FlowError(400, 'self_service_flow_not_found', 'The query parameter id is required.');
        const found = await loadFlow(deps.pool, id, type);
        if (!found) throw flowErrors.notFound();
        const client: Client = isApiFlow(found) ? 'api' : 'browser';
        const call = client === 'api' ? apiCallOf(request, reply) : callOf(deps, request, reply);
        if (client === 'browser' && !flowBoundToBrowser(request, found)) throw flowErrors.csrf();
        if (isExpired(found)) {
          throw flowErrors.expired(
            await restart(deps, call, found, (next, query) => createFor(deps, call, client, next, query)),
          );
        }
        if (type === 'settings') assertSettingsSession(call, found);
        return {
          status: 200,
          body: kratosFlow(await viewOf(deps, found, call.csrfCookie), client, deps.config),
        };
      }),
    );

    app.post(`${base}/${type}`, async (request, reply) =>
      answer(request, reply, async () => {
        const id = queryParam(request, 'flow');
        if (!id)
          throw new FlowError(400, 'self_service_flow_not_found', 'The query parameter flow is required.');
        const found = await loadFlow(deps.pool, id, type);
        if (!found) throw flowErrors.notFound();
        const client: Client = isApiFlow(found) ? 'api' : 'browser';
        const call = client === 'api' ? apiCallOf(request, reply) : callOf(deps, request, reply);
        if (isExpired(found)) {
          throw flowErrors.expired(
            await restart(deps, call, found, (next, query) => createFor(deps, call, client, next, query)),
          );
        }
        const body = bodyOf(request);
        // Browser flows carry their CSRF token; api flows have no cookie to forge and none.
        if (client === 'browser') assertCsrf(request, found, body.csrf_token);
        const tokenBefore = call.sessionToken;
        const result = await submitFlow(deps, call, found, body);
        if (navigating(request)) {
          // A form post goes on in the browser: finished → where the flow says, else back to the
          // screen that renders the (re-rendered) flow.
          const done = result.body as { ui?: unknown; redirect_browser_to?: string };
          if (!done.ui && done.redirect_browser_to)
            return { redirect: absolute(deps, done.redirect_browser_to) };
          return { redirect: absolute(deps, `${FLOW_SCREENS[type]}?flow=${found.id}`) };
        }
        return translateResult(deps, call, client, tokenBefore, result);
      }),
    );
  }

  app.get(`${base}/logout/browser`, async (request, reply) => {
    const answered = answerLogoutUrl(deps, request, reply, base);
    return answered;
  });

  app.get(`${base}/logout`, async (request, reply) => logout(deps, request, reply));

  // Native logout: the client hands back its session token.
  app.delete(`${base}/logout/api`, async (request, reply) => {
    const token = bodyOf(request).session_token;
    if (typeof token !== 'string' || token === '') {
      return reply.status(400).send({
        error: {
          code: 400,
          status: 'Bad Request',
          reason: 'session_token is required.',
          message: 'The request was malformed or contained invalid parameters',
        },
      });
    }
    const session = await findSession(deps.pool, token);
    if (!session) {
      return reply.status(403).send({
        error: {
          code: 403,
          status: 'Forbidden',
          reason: 'The provided Ory Session Token could not be found, is invalid, or otherwise malformed.',
          message: 'The requested action was forbidden',
        },
      });
    }
    await revokeSession(deps.pool, session.id);
    return reply.status(204).send();
  });

  app.get(`${base}/errors`, async (request, reply) => {
    const id = queryParam(request, 'id');
    const found = id ? findFlowError(deps.secrets, id) : undefined;
    if (!found) {
      return reply.status(id ? 404 : 400).send({
        error: {
          code: id ? 404 : 400,
          status: id ? 'Not Found' : 'Bad Request',
          reason: id ? 'No error with this id exists.' : 'The query parameter id is required.',
          message: id
            ? 'The requested resource could not be found'
            : 'The request was malformed or contained invalid parameters',
        },
      });
    }
    return found;
  });

  // The identity schema every identity has (schema_id `default`), as Kratos serves it.
  app.get(`${KRATOS_BASE}/schemas`, async () => [{ id: IDENTITY_SCHEMA_ID, schema: identitySchema(deps) }]);
  app.get(`${KRATOS_BASE}/schemas/:id`, async (request, reply) => {
    const { id } = request.params as { id: string };
    if (id !== IDENTITY_SCHEMA_ID) {
      return reply.status(404).send({
        error: {
          code: 404,
          status: 'Not Found',
          reason: `Identity schema ${JSON.stringify(id)} does not exist.`,
          message: 'The requested resource could not be found',
        },
      });
    }
    return identitySchema(deps);
  });

  app.get(`${KRATOS_BASE}/sessions/whoami`, async (request, reply) => {
    if (publicMode) {
      const person = await publicPerson(deps.pool);
      const now = new Date().toISOString();
      return {
        id: person.id,
        active: true,
        expires_at: now,
        authenticated_at: now,
        issued_at: now,
        authenticator_assurance_level: 'aal1',
        authentication_methods: [],
        identity: kratosIdentity(
          {
            id: person.id,
            schema_id: 'default',
            state: 'active',
            traits: { email: '', name: { first: person.name, last: '' } },
            verifiable_addresses: [],
            roles: [deps.config.publicRole],
            created_at: now,
            updated_at: now,
          },
          deps.config,
        ),
      };
    }
    const token = sessionTokenOf(request);
    const session = sessionRecordOf(request);
    if (!token || !session) return sendKratosError(deps, reply, flowErrors.inactive());
    if (!sessionSatisfiesAal(session)) {
      return sendKratosError(deps, reply, flowErrors.aal2Required(`${base}/login/browser?aal=aal2`));
    }
    const view = await sessionView(deps.pool, session, token);
    const identity = await identityOf(deps, view, session.personId);
    reply.header('X-Kratos-Authenticated-Identity-Id', identity.id);
    return kratosSession(view, identity, deps.config);
  });
}
