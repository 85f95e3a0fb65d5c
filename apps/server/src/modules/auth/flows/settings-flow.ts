import { withTransaction } from '../../../platform/db/pool.js';
import { sessionSatisfiesAal } from '../auth-plugin.js';
import {
  findActivePerson,
  findActivePersonByEmail,
  getIdentityView,
  getPasswordHash,
  isEmailAddress,
  normaliseEmail,
  setPassword,
  updateTraits,
} from '../identity-store.js';
import { countUnusedBackupCodes, regenerateBackupCodes, removeBackupCodes } from '../lookup-secrets.js';
import { isLinked, startOidc, unlinkPerson } from '../oidc.js';
import { revokeOtherSessions } from '../session-store.js';
import {
  checkTotpCode,
  disableTotp,
  enableTotp,
  hasTotp,
  newTotpSecret,
  openTotpSecret,
  sealTotpSecret,
  totpUri,
} from '../totp.js';
import {
  listCredentials,
  parseRegistrationResponse,
  registerCredential,
  registrationOptions,
  removeCredential,
} from '../webauthn.js';
import {
  csrfNode,
  field,
  flowErrors,
  flowView,
  insertFlow,
  nestedField,
  node,
  REQUIRED,
  saveFlow,
  text,
  truthy,
  validateReturnTo,
  withFieldMessages,
  type FlowRecord,
  type FlowUi,
  type FlowView,
  type UiNode,
  type UiText,
} from './flow-core.js';
import { elevateSession, isPrivileged, screenUrl, type FlowCall, type FlowDeps } from './flow-context.js';
import { flowAction } from './login-flow.js';
import { passwordProblems } from './password-policy.js';

/**
 * The profile settings screen: profile, password, social sign-in, backup codes, TOTP and
 * security keys (spec core §2). Changes to credentials need a recent sign-in
 * (PRIVILEGED_SESSION_MAX_AGE), otherwise session_refresh_required.
 */

const TOTP_ISSUER = 'Opsdeck';

/** Why the profile fields are read-only when people come from a hosted identity provider. */
export function hostedProfileMessage(provider: string): string {
  return `Your name and email come from ${provider}: change them there. They are updated each time you sign in.`;
}

async function renderSettings(
  deps: FlowDeps,
  flow: FlowRecord,
  extras: { messages?: UiText[]; fieldMessages?: Record<string, UiText[]>; backupCodes?: string[] } = {},
): Promise<FlowUi> {
  const personId = flow.personId as string;
  const identity = await getIdentityView(deps.pool, personId);
  // Under a hosted identity provider the name and email are the provider's (ADR 0039): shown, not editable.
  const hosted = deps.config.hostedIdentityProvider;
  const profileLocked = hosted ? { disabled: true } : {};
  const nodes: UiNode[] = [
    csrfNode(),
    node('profile', 'traits.email', 'email', {
      required: true,
      label: 'Email',
      value: identity?.traits.email ?? '',
      ...profileLocked,
    }),
    node('profile', 'traits.name.first', 'text', {
      label: 'First name',
      value: identity?.traits.name.first ?? '',
      ...profileLocked,
    }),
    node('profile', 'traits.name.last', 'text', {
      label: 'Last name',
      value: identity?.traits.name.last ?? '',
      ...profileLocked,
      ...(hosted ? { messages: [text('profile_hosted', hostedProfileMessage(hosted.name), 'info')] } : {}),
    }),
    node('profile', 'method', 'submit', { value: 'profile', label: 'Save', ...profileLocked }),
    node('password', 'password', 'password', {
      required: true,
      label: 'New password',
      autocomplete: 'new-password',
    }),
    node('password', 'method', 'submit', { value: 'password', label: 'Save' }),
  ];
  if (deps.config.oidc) {
    const linked = await isLinked(deps.pool, deps.config.oidc.id, personId);
    nodes.push(
      linked
        ? node('oidc', 'unlink', 'submit', {
            value: deps.config.oidc.id,
            label: `Unlink ${deps.config.oidc.name}`,
          })
        : node('oidc', 'link', 'submit', {
            value: deps.config.oidc.id,
            label: `Link ${deps.config.oidc.name}`,
          }),
    );
  }
  const remainingCodes = await countUnusedBackupCodes(deps.pool, personId);
  if (extras.backupCodes) {
    nodes.push(
      node('lookup_secret', 'lookup_secret_codes', 'text', {
        value: extras.backupCodes,
        label: 'Backup recovery codes (shown once)',
      }),
    );
  } else if (remainingCodes > 0) {
    nodes.push(
      node('lookup_secret', 'lookup_secret_remaining', 'text', {
        value: remainingCodes,
        label: 'Unused backup recovery codes',
      }),
    );
  }
  nodes.push(
    node('lookup_secret', 'lookup_secret_regenerate', 'submit', {
      value: true,
      label: 'Generate new backup recovery codes',
    }),
  );
  if (remainingCodes > 0 || extras.backupCodes) {
    nodes.push(
      node('lookup_secret', 'lookup_secret_disable', 'submit', {
        value: true,
        label: 'Disable backup recovery codes',
      }),
    );
  }
  if (await hasTotp(deps.pool, personId)) {
    nodes.push(
      node('totp', 'totp_unlink', 'submit', { value: true, label: 'Unlink TOTP authenticator app' }),
    );
  } else if (flow.data.pendingTotpSecret) {
    // The values are filled in by settingsFlowView: the stored flow never holds the secret in clear.
    nodes.push(
      node('totp', 'totp_url', 'text', {
        label: 'Authenticator app address (otpauth URI, for a QR code)',
      }),
      node('totp', 'totp_secret_key', 'text', {
        label: 'Secret key for manual entry',
      }),
      node('totp', 'totp_code', 'text', {
        required: true,
        label: 'Verification code',
        autocomplete: 'one-time-code',
      }),
      node('totp', 'method', 'submit', { value: 'totp', label: 'Save' }),
    );
  }
  for (const credential of await listCredentials(deps.pool, personId)) {
    nodes.push(
      node('webauthn', 'webauthn_remove', 'submit', {
        value: credential.id,
        label: `Remove security key "${credential.displayName}"`,
      }),
    );
  }
  if (flow.data.webauthnRegisterChallenge) {
    nodes.push(
      node('webauthn', 'webauthn_register_displayname', 'text', { label: 'Name of the security key' }),
      node('webauthn', 'webauthn_register_options', 'script', {
        value: flow.data.webauthnRegisterChallenge,
        label: 'Registration options (JSON)',
      }),
      node('webauthn', 'webauthn_register', 'hidden'),
      node('webauthn', 'method', 'submit', { value: 'webauthn', label: 'Add security key' }),
    );
  }
  return {
    action: flowAction(deps.config, flow),
    method: 'POST',
    nodes: withFieldMessages(nodes, extras.fieldMessages ?? {}),
    messages: extras.messages ?? [],
  };
}

/** Fresh per-render secrets: a TOTP secret to set up and a WebAuthn registration challenge. */
async function refreshSecrets(deps: FlowDeps, flow: FlowRecord): Promise<void> {
  const personId = flow.personId as string;
  const person = await findActivePerson(deps.pool, personId);
  const data = { ...flow.data };
  // Sealed with SECRET_KEY: the flow row lives up to FLOW_LIFESPAN and must not hold it in clear.
  if (await hasTotp(deps.pool, personId)) delete data.pendingTotpSecret;
  else data.pendingTotpSecret ??= sealTotpSecret(newTotpSecret(), deps.secrets);
  if (person)
    data.webauthnRegisterChallenge = JSON.stringify(
      await registrationOptions(deps.pool, deps.config, person),
    );
  flow.data = data;
}

export async function createSettingsFlowFor(
  deps: FlowDeps,
  call: FlowCall,
  personId: string,
  returnTo: string,
  messages: UiText[] = [],
): Promise<FlowRecord> {
  const flow = await insertFlow(deps.pool, {
    type: 'settings',
    state: 'show_form',
    personId,
    returnTo,
    requestUrl: `${deps.config.publicUrl}${call.request.url}`,
    csrfCookie: call.csrfCookie,
    lifespanMs: deps.config.flowLifespanMs,
  });
  await refreshSecrets(deps, flow);
  flow.ui = await renderSettings(deps, flow, { messages });
  await saveFlow(deps.pool, flow);
  return flow;
}

function settingsReturn(flow: FlowRecord): string {
  return screenUrl('settings', { flow: flow.id });
}

export async function createSettingsFlow(
  deps: FlowDeps,
  call: FlowCall,
  query: { return_to?: string },
): Promise<FlowRecord> {
  const returnTo = validateReturnTo(query.return_to, deps.config);
  if (!call.session) throw flowErrors.inactive();
  if (!sessionSatisfiesAal(call.session)) {
    throw flowErrors.aal2Required(screenUrl('login', { aal: 'aal2', return_to: screenUrl('settings', {}) }));
  }
  return createSettingsFlowFor(deps, call, call.session.personId, returnTo);
}

export async function settingsFlowView(
  deps: FlowDeps,
  flow: FlowRecord,
  csrfCookie: string,
): Promise<FlowView> {
  const identity = await getIdentityView(deps.pool, flow.personId as string);
  const view = flowView(flow, csrfCookie, { identity });
  const pending = pendingTotpSecret(deps, flow);
  if (!pending) return view;
  const account = identity?.traits.email ?? (flow.personId as string);
  const values: Record<string, string> = {
    totp_url: totpUri(pending, account, TOTP_ISSUER),
    totp_secret_key: pending,
  };
  return {
    ...view,
    ui: {
      ...view.ui,
      nodes: view.ui.nodes.map((entry) =>
        entry.group === 'totp' && values[entry.name] !== undefined
          ? { ...entry, value: values[entry.name] }
          : entry,
      ),
    },
  };
}

/** The TOTP secret this flow offers to set up, opened (undefined when there is none). */
function pendingTotpSecret(deps: FlowDeps, flow: FlowRecord): string | undefined {
  const stored = flow.data.pendingTotpSecret;
  if (!stored) return undefined;
  try {
    return openTotpSecret(stored, deps.secrets);
  } catch {
    // Sealed with another SECRET_KEY: nothing to offer; a new settings flow makes a new secret.
    return undefined;
  }
}

/** A settings flow may only be used by the session of the person it was made for. */
export function assertSettingsSession(call: FlowCall, flow: FlowRecord): void {
  if (!call.session) throw flowErrors.inactive();
  if (call.session.personId !== flow.personId) throw flowErrors.identityMismatch();
  if (!sessionSatisfiesAal(call.session)) {
    throw flowErrors.aal2Required(screenUrl('login', { aal: 'aal2', return_to: settingsReturn(flow) }));
  }
}

export async function submitSettingsFlow(
  deps: FlowDeps,
  call: FlowCall,
  flow: FlowRecord,
  body: Record<string, unknown>,
): Promise<{ status: number; body: unknown }> {
  assertSettingsSession(call, flow);
  const session = call.session as NonNullable<FlowCall['session']>;
  const personId = flow.personId as string;
  const requirePrivilege = () => {
    if (!isPrivileged(deps, session)) {
      throw flowErrors.refreshRequired(
        screenUrl('login', { refresh: 'true', return_to: settingsReturn(flow) }),
      );
    }
  };
  const fail = async (extras: { messages?: UiText[]; fieldMessages?: Record<string, UiText[]> }) => {
    flow.ui = await renderSettings(deps, flow, extras);
    await saveFlow(deps.pool, flow);
    return { status: 400, body: await settingsFlowView(deps, flow, call.csrfCookie) };
  };
  let backupCodes: string[] | undefined;
  const method = field(body, 'method') || inferMethod(body);

  switch (method) {
    case 'profile': {
      const hosted = deps.config.hostedIdentityProvider;
      if (hosted) {
        return fail({
          messages: [
            text(
              'profile_hosted_refused',
              `Your name and email cannot be changed here: they come from ${hosted.name}.`,
              'error',
            ),
          ],
        });
      }
      const email = nestedField(body, 'traits.email').trim();
      const first = nestedField(body, 'traits.name.first').trim();
      const last = nestedField(body, 'traits.name.last').trim();
      if (!email) return fail({ fieldMessages: { 'traits.email': [text('required', REQUIRED, 'error')] } });
      if (!isEmailAddress(email)) {
        return fail({
          fieldMessages: { 'traits.email': [text('email_invalid', 'Enter a valid email address.', 'error')] },
        });
      }
      const current = await findActivePerson(deps.pool, personId);
      if (normaliseEmail(email) !== normaliseEmail(current?.email ?? '')) {
        requirePrivilege();
        const owner = await findActivePersonByEmail(deps.pool, email);
        if (owner && owner.id !== personId) {
          return fail({
            fieldMessages: {
              'traits.email': [
                text('email_taken', 'An account with this email address already exists.', 'error'),
              ],
            },
          });
        }
      }
      await withTransaction(deps.pool, (client) =>
        updateTraits(client, personId, { email, name: { first, last } }),
      );
      break;
    }
    case 'password': {
      requirePrivilege();
      const password = field(body, 'password');
      const person = await findActivePerson(deps.pool, personId);
      const problems = passwordProblems(password, person?.email ?? '');
      if (problems.length > 0) return fail({ fieldMessages: { password: problems } });
      await setPassword(deps.pool, personId, password);
      // New credentials: other browsers must sign in again, this one gets a new cookie.
      await revokeOtherSessions(deps.pool, personId, session.id);
      await elevateSession(deps, call, session, { methodName: 'password' });
      break;
    }
    case 'totp': {
      requirePrivilege();
      if (truthy(body.totp_unlink)) {
        await disableTotp(deps.pool, personId);
        break;
      }
      const secret = pendingTotpSecret(deps, flow);
      const code = field(body, 'totp_code');
      if (!code) return fail({ fieldMessages: { totp_code: [text('required', REQUIRED, 'error')] } });
      const checked = secret ? await checkTotpCode(secret, code) : ({ valid: false } as const);
      if (!secret || !checked.valid) {
        return fail({
          fieldMessages: {
            totp_code: [text('totp_invalid', 'The code is not valid. Please try again.', 'error')],
          },
        });
      }
      await enableTotp(deps.pool, personId, secret, checked.timeStep, deps.secrets);
      // The person just proved the new factor: this session is aal2 from now on.
      await elevateSession(deps, call, session, { methodName: 'totp', aal: 'aal2' });
      break;
    }
    case 'lookup_secret': {
      requirePrivilege();
      if (truthy(body.lookup_secret_disable)) {
        await removeBackupCodes(deps.pool, personId);
      } else if (truthy(body.lookup_secret_regenerate)) {
        backupCodes = await regenerateBackupCodes(deps.pool, personId);
      } else {
        return fail({
          messages: [text('method_unknown', 'Choose what to do with your backup recovery codes.', 'error')],
        });
      }
      break;
    }
    case 'webauthn': {
      requirePrivilege();
      const removal = field(body, 'webauthn_remove');
      if (removal) {
        if (!(await removeCredential(deps.pool, personId, removal))) {
          return fail({
            messages: [
              text('webauthn_unknown', 'This security key is not registered to your account.', 'error'),
            ],
          });
        }
        break;
      }
      const response = parseRegistrationResponse(body.webauthn_register);
      const options = flow.data.webauthnRegisterChallenge
        ? (JSON.parse(flow.data.webauthnRegisterChallenge) as { challenge?: string })
        : undefined;
      const displayName = field(body, 'webauthn_register_displayname').trim() || 'Security key';
      const hadSecondFactor = session.needsAal2;
      if (
        !response ||
        !options?.challenge ||
        !(await registerCredential(
          deps.pool,
          deps.config,
          personId,
          response,
          options.challenge,
          displayName.slice(0, 100),
        ))
      ) {
        return fail({
          messages: [
            text('webauthn_invalid', 'The security key could not be registered. Please try again.', 'error'),
          ],
        });
      }
      if (!hadSecondFactor)
        await elevateSession(deps, call, session, { methodName: 'webauthn', aal: 'aal2' });
      break;
    }
    case 'oidc': {
      requirePrivilege();
      const provider = deps.config.oidc;
      const wanted = field(body, 'link') || field(body, 'unlink');
      if (!provider || wanted !== provider.id) {
        return fail({
          messages: [text('provider_unknown', 'This sign-in provider is not configured.', 'error')],
        });
      }
      if (field(body, 'unlink')) {
        const hasPassword = Boolean(await getPasswordHash(deps.pool, personId));
        const hasKeys = (await listCredentials(deps.pool, personId)).length > 0;
        if (!hasPassword && !hasKeys) {
          return fail({
            messages: [
              text('last_method', 'Set a password first: this is your only way to sign in.', 'error'),
            ],
          });
        }
        await unlinkPerson(deps.pool, provider.id, personId);
        break;
      }
      const started = await startOidc(deps.config, deps.logger, flow.id);
      flow.data = {
        ...flow.data,
        oidc: { state: started.state, nonce: started.nonce, verifier: started.verifier, purpose: 'link' },
      };
      await saveFlow(deps.pool, flow);
      throw flowErrors.locationChange(started.url);
    }
    default:
      return fail({ messages: [text('method_unknown', 'Choose what to change.', 'error')] });
  }

  flow.state = 'success';
  await refreshSecrets(deps, flow);
  flow.ui = await renderSettings(deps, flow, {
    messages: [text('settings_saved', 'Your changes have been saved.', 'success')],
    ...(backupCodes ? { backupCodes } : {}),
  });
  const view = await settingsFlowView(deps, flow, call.csrfCookie);
  // Backup codes are shown in this answer only, never stored in the flow.
  if (backupCodes) flow.ui = await renderSettings(deps, flow, { messages: flow.ui.messages });
  await saveFlow(deps.pool, flow);
  return { status: 200, body: view };
}

/** Buttons that carry their own name (unlink, remove) may come without a method. */
function inferMethod(body: Record<string, unknown>): string {
  if (body.totp_unlink !== undefined || body.totp_code !== undefined) return 'totp';
  if (body.lookup_secret_regenerate !== undefined || body.lookup_secret_disable !== undefined)
    return 'lookup_secret';
  if (body.webauthn_remove !== undefined || body.webauthn_register !== undefined) return 'webauthn';
  if (body.link !== undefined || body.unlink !== undefined) return 'oidc';
  return '';
}

/** Shows a message on a settings flow (after an OIDC link callback). */
export async function showSettingsMessage(
  deps: FlowDeps,
  flow: FlowRecord,
  message: UiText,
  state?: string,
): Promise<void> {
  if (state) flow.state = state;
  await refreshSecrets(deps, flow);
  flow.ui = await renderSettings(deps, flow, { messages: [message] });
  await saveFlow(deps.pool, flow);
}
