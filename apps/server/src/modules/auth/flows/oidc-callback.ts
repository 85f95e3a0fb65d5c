import { withTransaction } from '../../../platform/db/pool.js';
import {
  createIdentity,
  findActivePersonByEmail,
  getIdentityView,
  markAddressVerified,
  normaliseEmail,
  updateTraits,
} from '../identity-store.js';
import { finishOidc, findLinkedPerson, linkPerson, type OidcClaims } from '../oidc.js';
import { safeEqual } from '../secrets.js';
import {
  expireFlow,
  FlowError,
  FLOW_MESSAGES,
  flowBoundToBrowser,
  isExpired,
  loadFlow,
  saveFlow,
  text,
  type UiText,
} from './flow-core.js';
import { afterSignIn, screenUrl, signIn, type FlowCall, type FlowDeps } from './flow-context.js';
import { createLoginFlow, showLoginMessage } from './login-flow.js';
import { showSettingsMessage } from './settings-flow.js';

/** A new login form showing what went wrong; '/' when the browser is signed in already. */
async function loginWithMessage(
  deps: FlowDeps,
  call: FlowCall,
  message: UiText,
  returnTo?: string,
): Promise<string> {
  try {
    const flow = await createLoginFlow(deps, call, returnTo ? { return_to: returnTo } : {});
    await showLoginMessage(deps, flow, message);
    return screenUrl('login', { flow: flow.id });
  } catch (error) {
    if (error instanceof FlowError) return '/';
    throw error;
  }
}

/**
 * Under a hosted identity provider (ADR 0039) the person's name and email are the provider's:
 * every sign-in copies them from the claims, as the profile screen cannot change them here. An
 * email another person here already uses is left as it was (the name still follows).
 */
async function takeProviderTraits(deps: FlowDeps, personId: string, claims: OidcClaims): Promise<void> {
  const identity = await getIdentityView(deps.pool, personId);
  if (!identity) return;
  let email = identity.traits.email;
  if (claims.email && normaliseEmail(claims.email) !== normaliseEmail(email ?? '')) {
    const owner = await findActivePersonByEmail(deps.pool, claims.email);
    if (!owner || owner.id === personId) email = claims.email;
  }
  const first = claims.firstName || identity.traits.name.first;
  const last = claims.firstName ? claims.lastName : identity.traits.name.last;
  if (
    email === identity.traits.email &&
    first === identity.traits.name.first &&
    last === identity.traits.name.last
  )
    return;
  await withTransaction(deps.pool, (client) =>
    updateTraits(client, personId, { email: email ?? '', name: { first, last } }),
  );
  if (email && claims.emailVerified && normaliseEmail(email) === normaliseEmail(claims.email ?? ''))
    await markAddressVerified(deps.pool, personId, email);
}

/**
 * The provider sends the browser back here with a code: exchange it (PKCE, state, nonce), find
 * or create the person (by an earlier link, else by a verified email), sign in or link, and
 * answer with the address the browser goes to next.
 */
export async function handleOidcCallback(
  deps: FlowDeps,
  call: FlowCall,
  query: URLSearchParams,
): Promise<string> {
  const state = query.get('state') ?? '';
  const flowId = state.split('.')[0] ?? '';
  const flow = flowId ? await loadFlow(deps.pool, flowId) : undefined;
  const saved = flow?.data.oidc;
  if (!flow || !saved || !safeEqual(saved.state, state)) {
    return loginWithMessage(
      deps,
      call,
      text('oidc_state', 'The sign-in could not be completed, please try again.', 'error'),
    );
  }
  if (!flowBoundToBrowser(call.request, flow)) {
    return loginWithMessage(deps, call, text('security_csrf_violation', FLOW_MESSAGES.csrf, 'error'));
  }
  if (isExpired(flow))
    return loginWithMessage(deps, call, text('self_service_flow_expired', FLOW_MESSAGES.expired, 'error'));
  // The state, nonce and verifier work once.
  flow.data = { ...flow.data };
  delete flow.data.oidc;
  await saveFlow(deps.pool, flow);
  const provider = deps.config.oidc;
  const returnTo = flow.returnTo ?? '/';
  const fail = async (message: string): Promise<string> => {
    const entry = text('oidc_failed', message, 'error');
    if (saved.purpose === 'link') {
      await showSettingsMessage(deps, flow, entry);
      return screenUrl('settings', { flow: flow.id });
    }
    return loginWithMessage(deps, call, entry, returnTo);
  };
  if (!provider) return fail('Social sign-in is not configured on this server.');
  const refused = query.get('error');
  if (refused) return fail(`The sign-in provider refused: ${query.get('error_description') ?? refused}`);

  let claims;
  try {
    claims = await finishOidc(deps.config, deps.logger, query, saved);
  } catch (error) {
    deps.logger?.warn({ err: error }, 'OIDC callback failed');
    return fail(`${provider.name} could not confirm who you are. Please try again.`);
  }
  const linkedPersonId = await findLinkedPerson(deps.pool, claims.issuer, claims.subject);

  if (saved.purpose === 'link') {
    if (!call.session || call.session.personId !== flow.personId) {
      return loginWithMessage(
        deps,
        call,
        text(
          'security_identity_mismatch',
          'The account link was started by another account. Please start again.',
          'error',
        ),
      );
    }
    if (linkedPersonId && linkedPersonId !== flow.personId) {
      return fail(`This ${provider.name} account is already linked to another account.`);
    }
    await linkPerson(deps.pool, provider.id, claims, call.session.personId);
    await showSettingsMessage(
      deps,
      flow,
      text('settings_saved', 'Your changes have been saved.', 'success'),
      'success',
    );
    return screenUrl('settings', { flow: flow.id });
  }

  let personId = linkedPersonId;
  if (!personId) {
    if (!claims.email)
      return fail(`${provider.name} did not share an email address, so no account can be found.`);
    const existing = await findActivePersonByEmail(deps.pool, claims.email);
    if (existing) {
      if (!claims.emailVerified) {
        return fail(
          `${provider.name} did not confirm this email address, so it cannot be linked to your account. Sign in with your password and link it in your profile settings.`,
        );
      }
      personId = existing.id;
    } else {
      if (!deps.config.registration.enabled) {
        return fail('No account uses this email address. Ask an administrator to invite you.');
      }
      const role = deps.config.registration.role;
      const email = claims.email;
      const created = await withTransaction(deps.pool, (client) =>
        createIdentity(client, {
          email,
          firstName: claims.firstName,
          lastName: claims.lastName,
          roles: role ? [role] : [],
          verified: claims.emailVerified,
        }),
      );
      personId = created.id;
    }
    await linkPerson(deps.pool, provider.id, claims, personId);
    if (claims.emailVerified) await markAddressVerified(deps.pool, personId, claims.email);
  }
  if (deps.config.hostedIdentityProvider) await takeProviderTraits(deps, personId, claims);
  await expireFlow(deps.pool, flow.id);
  const issued = await signIn(deps, call, personId, 'oidc', 'aal1');
  return afterSignIn(issued.record, returnTo);
}
