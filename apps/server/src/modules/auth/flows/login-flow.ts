import type { AuthConfig } from '../auth-config.js';
import { clientAddress } from '../http.js';
import { findActivePerson, findActivePersonByEmail, getPasswordHash } from '../identity-store.js';
import { clearLoginFailures, recordLoginFailure, throttleRetryAfter } from '../login-throttle.js';
import { countUnusedBackupCodes, consumeBackupCode } from '../lookup-secrets.js';
import { startOidc } from '../oidc.js';
import { hashPassword, verifyPassword } from '../password.js';
import { hasTotp, verifyPersonTotp } from '../totp.js';
import {
  authenticationOptions,
  listCredentials,
  parseAuthenticationResponse,
  verifyAssertion,
} from '../webauthn.js';
import {
  csrfNode,
  expireFlow,
  field,
  flowErrors,
  flowView,
  insertFlow,
  node,
  REQUIRED,
  saveFlow,
  text,
  truthy,
  validateReturnTo,
  withFieldMessages,
  type FlowRecord,
  type FlowUi,
  type UiNode,
  type UiText,
} from './flow-core.js';
import {
  afterSignIn,
  elevateSession,
  sessionView,
  signIn,
  type FlowCall,
  type FlowDeps,
} from './flow-context.js';

export interface LoginQuery {
  return_to?: string;
  refresh?: string;
  aal?: string;
}

const INVALID_CREDENTIALS = 'The email address or password is incorrect.';
const INVALID_SECOND_FACTOR = 'The code or key is not valid. Please try again.';

export function flowAction(config: AuthConfig, flow: FlowRecord): string {
  return `${config.publicUrl}/api/auth/self-service/${flow.type}?flow=${flow.id}`;
}

/** A dummy hash so that an unknown email costs as long as a wrong password. */
let timingHash: Promise<string> | undefined;

async function renderLogin(
  deps: FlowDeps,
  flow: FlowRecord,
  extras: { messages?: UiText[]; fieldMessages?: Record<string, UiText[]>; identifier?: string } = {},
): Promise<FlowUi> {
  const nodes: UiNode[] = [csrfNode()];
  if (flow.requestedAal === 'aal2' && flow.personId) {
    if (await hasTotp(deps.pool, flow.personId)) {
      nodes.push(
        node('totp', 'totp_code', 'text', {
          required: true,
          label: 'Authentication code',
          autocomplete: 'one-time-code',
        }),
        node('totp', 'method', 'submit', { value: 'totp', label: 'Use authenticator' }),
      );
    }
    if ((await countUnusedBackupCodes(deps.pool, flow.personId)) > 0) {
      nodes.push(
        node('lookup_secret', 'lookup_secret', 'text', { required: true, label: 'Backup recovery code' }),
        node('lookup_secret', 'method', 'submit', {
          value: 'lookup_secret',
          label: 'Use backup recovery code',
        }),
      );
    }
    if (flow.data.webauthnChallenge) {
      nodes.push(
        node('webauthn', 'webauthn_options', 'script', {
          value: flow.data.webauthnChallenge,
          label: 'Security key options (JSON)',
        }),
        node('webauthn', 'webauthn_login', 'hidden', { required: true }),
        node('webauthn', 'method', 'submit', { value: 'webauthn', label: 'Use security key' }),
      );
    }
  } else {
    const refreshPerson =
      flow.refresh && flow.personId ? await findActivePerson(deps.pool, flow.personId) : undefined;
    const identifier = flow.refresh ? (refreshPerson?.email ?? '') : extras.identifier;
    nodes.push(
      node('default', 'identifier', 'email', {
        required: true,
        label: 'Email',
        autocomplete: 'username',
        ...(flow.refresh ? { disabled: true } : {}),
        ...(identifier !== undefined ? { value: identifier } : {}),
      }),
      node('password', 'password', 'password', {
        required: true,
        label: 'Password',
        autocomplete: 'current-password',
      }),
      node('password', 'method', 'submit', {
        value: 'password',
        label: flow.refresh ? 'Confirm' : 'Sign in',
      }),
    );
    if (deps.config.oidc && !flow.refresh) {
      nodes.push(
        node('oidc', 'provider', 'submit', {
          value: deps.config.oidc.id,
          label: `Sign in with ${deps.config.oidc.name}`,
        }),
      );
    }
    if (flow.data.passkeyChallenge && !flow.refresh) {
      nodes.push(
        node('passkey', 'passkey_options', 'script', {
          value: flow.data.passkeyChallenge,
          label: 'Passkey options (JSON)',
        }),
        node('passkey', 'passkey_login', 'hidden'),
        node('passkey', 'method', 'submit', { value: 'passkey', label: 'Sign in with a passkey' }),
      );
    }
  }
  const messages = [...(extras.messages ?? [])];
  if (flow.requestedAal === 'aal2' && messages.length === 0) {
    messages.push(text('login_aal2', 'Please complete the second authentication challenge.'));
  } else if (flow.refresh && messages.length === 0) {
    messages.push(text('login_refresh', 'Please confirm this action by verifying that it is you.'));
  }
  return {
    action: flowAction(deps.config, flow),
    method: 'POST',
    nodes: withFieldMessages(nodes, extras.fieldMessages ?? {}),
    messages,
  };
}

/**
 * Creates a login flow: first factor, `refresh` (confirm who you are) or `aal=aal2` (second
 * factor). A browser already signed in gets session_already_available.
 */
export async function createLoginFlow(
  deps: FlowDeps,
  call: FlowCall,
  query: LoginQuery,
): Promise<FlowRecord> {
  const returnTo = validateReturnTo(query.return_to, deps.config);
  const session = call.session;
  const refresh = truthy(query.refresh);
  let requestedAal: 'aal1' | 'aal2' = 'aal1';
  let personId: string | null = null;
  if (session) {
    const wantsAal2 = query.aal === 'aal2' || (session.aal === 'aal1' && session.needsAal2);
    if (refresh) {
      personId = session.personId;
    } else if (wantsAal2 && session.aal === 'aal1' && session.needsAal2) {
      requestedAal = 'aal2';
      personId = session.personId;
    } else {
      throw flowErrors.alreadySignedIn();
    }
  }
  const data: FlowRecord['data'] = {};
  if (requestedAal === 'aal2' && personId) {
    if ((await listCredentials(deps.pool, personId)).length > 0) {
      data.webauthnChallenge = JSON.stringify(await authenticationOptions(deps.pool, deps.config, personId));
    }
  } else if (!refresh) {
    data.passkeyChallenge = JSON.stringify(await authenticationOptions(deps.pool, deps.config));
  }
  const flow = await insertFlow(deps.pool, {
    type: 'login',
    personId,
    returnTo,
    requestUrl: `${deps.config.publicUrl}${call.request.url}`,
    refresh: refresh && Boolean(session),
    requestedAal,
    csrfCookie: call.csrfCookie,
    data,
    lifespanMs: deps.config.flowLifespanMs,
  });
  flow.ui = await renderLogin(deps, flow);
  await saveFlow(deps.pool, flow);
  return flow;
}

async function rerender(
  deps: FlowDeps,
  call: FlowCall,
  flow: FlowRecord,
  extras: Parameters<typeof renderLogin>[2],
): Promise<{ status: number; body: unknown }> {
  flow.ui = await renderLogin(deps, flow, extras);
  await saveFlow(deps.pool, flow);
  return { status: 400, body: flowView(flow, call.csrfCookie) };
}

async function succeed(
  deps: FlowDeps,
  call: FlowCall,
  flow: FlowRecord,
): Promise<{ status: number; body: unknown }> {
  await expireFlow(deps.pool, flow.id);
  const session = call.session;
  const token = call.sessionToken;
  if (!session || !token) throw new Error('sign-in finished without a session');
  return {
    status: 200,
    body: {
      session: await sessionView(deps.pool, session, token),
      return_to: flow.returnTo ?? '/',
      redirect_browser_to: afterSignIn(session, flow.returnTo ?? '/'),
    },
  };
}

function challengeOf(json: string | undefined): string | undefined {
  if (!json) return undefined;
  const parsed = JSON.parse(json) as { challenge?: unknown };
  return typeof parsed.challenge === 'string' ? parsed.challenge : undefined;
}

/**
 * Checks the throttle before a credential is tried (login-throttle.ts): a client that must wait
 * gets 429 with Retry-After, whatever it sends, so it cannot keep guessing meanwhile.
 */
async function assertNotThrottled(
  deps: FlowDeps,
  call: FlowCall,
  account: string | undefined,
): Promise<void> {
  const seconds = await throttleRetryAfter(
    deps.pool,
    { ...(account ? { account } : {}), address: clientAddress(call.request) },
    deps.config.throttle,
  );
  if (seconds > 0) throw flowErrors.throttled(seconds);
}

/** Counts a failed attempt; when it earns this client a wait, answers 429 with Retry-After at once. */
async function countFailure(deps: FlowDeps, call: FlowCall, account: string | undefined): Promise<void> {
  const lockedFor = await recordLoginFailure(
    deps.pool,
    { ...(account ? { account } : {}), address: clientAddress(call.request) },
    deps.config.throttle,
  );
  if (lockedFor > 0) throw flowErrors.throttled(lockedFor);
}

export async function submitLoginFlow(
  deps: FlowDeps,
  call: FlowCall,
  flow: FlowRecord,
  body: Record<string, unknown>,
): Promise<{ status: number; body: unknown }> {
  const method = field(body, 'method');

  if (flow.requestedAal === 'aal2') {
    if (!call.session) throw flowErrors.inactive();
    if (call.session.personId !== flow.personId || !flow.personId) throw flowErrors.identityMismatch();
    const person = await findActivePerson(deps.pool, flow.personId);
    const account = person?.email ?? flow.personId;
    await assertNotThrottled(deps, call, account);
    let passed = false;
    if (method === 'totp') {
      const code = field(body, 'totp_code');
      if (!code)
        return rerender(deps, call, flow, {
          fieldMessages: { totp_code: [text('required', REQUIRED, 'error')] },
        });
      passed = await verifyPersonTotp(deps.pool, flow.personId, code, deps.secrets);
    } else if (method === 'lookup_secret') {
      const code = field(body, 'lookup_secret');
      if (!code)
        return rerender(deps, call, flow, {
          fieldMessages: { lookup_secret: [text('required', REQUIRED, 'error')] },
        });
      passed = await consumeBackupCode(deps.pool, flow.personId, code);
    } else if (method === 'webauthn') {
      const response = parseAuthenticationResponse(body.webauthn_login);
      const challenge = challengeOf(flow.data.webauthnChallenge);
      passed =
        response !== undefined &&
        challenge !== undefined &&
        (await verifyAssertion(deps.pool, deps.config, response, challenge, flow.personId)) !== undefined;
    } else {
      return rerender(deps, call, flow, {
        messages: [text('method_unknown', 'Choose how to confirm your sign-in.', 'error')],
      });
    }
    if (!passed) {
      await countFailure(deps, call, account);
      return rerender(deps, call, flow, {
        messages: [text('second_factor_invalid', INVALID_SECOND_FACTOR, 'error')],
      });
    }
    await clearLoginFailures(deps.pool, { account, address: clientAddress(call.request) });
    await elevateSession(deps, call, call.session, { methodName: method, aal: 'aal2' });
    return succeed(deps, call, flow);
  }

  if (method === 'password') {
    const identifier = field(body, 'identifier').trim();
    const password = field(body, 'password');
    const fieldMessages: Record<string, UiText[]> = {};
    if (!identifier && !flow.refresh) fieldMessages.identifier = [text('required', REQUIRED, 'error')];
    if (!password) fieldMessages.password = [text('required', REQUIRED, 'error')];
    if (Object.keys(fieldMessages).length > 0)
      return rerender(deps, call, flow, { fieldMessages, identifier });

    const refreshPerson =
      flow.refresh && flow.personId ? await findActivePerson(deps.pool, flow.personId) : undefined;
    if (flow.refresh && (!call.session || call.session.personId !== flow.personId))
      throw flowErrors.identityMismatch();
    const account = refreshPerson?.email ?? identifier;
    await assertNotThrottled(deps, call, account);
    const person = refreshPerson ?? (await findActivePersonByEmail(deps.pool, identifier));
    const stored = person ? await getPasswordHash(deps.pool, person.id) : undefined;
    timingHash ??= hashPassword('timing equaliser for unknown accounts');
    const valid = await verifyPassword(password, stored ?? (await timingHash));
    if (!person || !stored || !valid) {
      await countFailure(deps, call, account);
      return rerender(deps, call, flow, {
        messages: [text('credentials_invalid', INVALID_CREDENTIALS, 'error')],
        identifier,
      });
    }
    await clearLoginFailures(deps.pool, { account, address: clientAddress(call.request) });
    if (flow.refresh && call.session) {
      await elevateSession(deps, call, call.session, { methodName: 'password', reauthenticated: true });
    } else {
      await signIn(deps, call, person.id, 'password', 'aal1');
    }
    return succeed(deps, call, flow);
  }

  if (method === 'passkey' && !flow.refresh) {
    const response = parseAuthenticationResponse(body.passkey_login);
    const challenge = challengeOf(flow.data.passkeyChallenge);
    await assertNotThrottled(deps, call, undefined);
    const proven =
      response && challenge ? await verifyAssertion(deps.pool, deps.config, response, challenge) : undefined;
    if (!proven) {
      await countFailure(deps, call, undefined);
      return rerender(deps, call, flow, {
        messages: [text('passkey_invalid', 'This passkey could not be verified.', 'error')],
      });
    }
    // A passkey that checked the user (PIN, biometrics) is two factors in one.
    await signIn(deps, call, proven.personId, 'passkey', proven.userVerified ? 'aal2' : 'aal1');
    return succeed(deps, call, flow);
  }

  if ((method === 'oidc' || field(body, 'provider')) && !flow.refresh) {
    const provider = deps.config.oidc;
    if (!provider || field(body, 'provider') !== provider.id) {
      return rerender(deps, call, flow, {
        messages: [text('provider_unknown', 'This sign-in provider is not configured.', 'error')],
      });
    }
    const started = await startOidc(deps.config, deps.logger, flow.id);
    flow.data = {
      ...flow.data,
      oidc: { state: started.state, nonce: started.nonce, verifier: started.verifier, purpose: 'login' },
    };
    await saveFlow(deps.pool, flow);
    throw flowErrors.locationChange(started.url);
  }

  return rerender(deps, call, flow, {
    messages: [text('method_unknown', 'Choose how to sign in.', 'error')],
  });
}

/** Re-renders a login flow with a message (used after an OIDC callback fails). */
export async function showLoginMessage(deps: FlowDeps, flow: FlowRecord, message: UiText): Promise<void> {
  flow.ui = await renderLogin(deps, flow, { messages: [message] });
  await saveFlow(deps.pool, flow);
}
