import type {
  KratosFlow,
  KratosIdentity,
  KratosSession,
  KratosUiNode,
  KratosUiText,
} from '@opsdeck/contracts';
import type { AuthConfig } from '../auth-config.js';
import type { FlowView, UiNode, UiText } from '../flows/flow-core.js';
import type { SessionView } from '../flows/flow-context.js';
import type { IdentityView } from '../identity-store.js';

/**
 * Translation from the flows' own JSON (flows/flow-core.ts `flowView`, flow-context.ts
 * `sessionView`) to Ory Kratos's public wire format. Nothing here decides anything: the flows do,
 * and this file only renames and reshapes, so the two doors cannot drift apart.
 */

export const KRATOS_BASE = '/api/kratos';
const OWN_BASE = '/api/auth/self-service';

/**
 * Kratos's numeric message ids (its `text` catalogue) for the flows' message ids. Ids the
 * catalogue has no entry for fall back to the generic id of their kind.
 */
const MESSAGE_IDS: Record<string, number> = {
  login_refresh: 1010003,
  login_aal2: 1010004,
  settings_saved: 1050001,
  recovery_done: 1060001,
  verification_done: 1080002,
  required: 4000002,
  email_invalid: 4000004,
  password_is_email: 4000005,
  password_too_common: 4000005,
  credentials_invalid: 4000006,
  email_taken: 4000007,
  second_factor_invalid: 4000008,
  totp_invalid: 4000008,
  webauthn_invalid: 4000015,
  webauthn_unknown: 4000015,
  passkey_invalid: 4000015,
  method_unknown: 4010002,
  provider_unknown: 4010002,
  code_invalid: 4060006,
  code_spent: 4060006,
  self_service_flow_expired: 4010001,
  security_csrf_violation: 4000001,
};

/** Generic ids by type: Kratos's InfoSelfService*, ErrorValidationGeneric. */
const GENERIC_IDS: Record<UiText['type'], number> = { info: 1000000, success: 1000000, error: 4000001 };

/** Labels Kratos has catalogue ids for. */
const LABEL_IDS: Record<string, number> = {
  'Sign in': 1010001,
  'Authentication code': 1010006,
  'Backup recovery code': 1010007,
  'Use authenticator': 1010009,
  'Use backup recovery code': 1010010,
  'Sign up': 1040001,
  'Unlink TOTP authenticator app': 1050004,
  'Secret key for manual entry': 1050017,
  'Generate new backup recovery codes': 1050008,
  'Disable backup recovery codes': 1050016,
  'Add security key': 1050012,
  'Name of the security key': 1050013,
  Password: 1070001,
  'New password': 1070001,
  Save: 1070003,
  Submit: 1070005,
  Email: 1070007,
  'Resend code': 1070008,
  'Verification code': 1070011,
};
const GENERIC_LABEL_ID = 1070002;

export function kratosText(message: UiText): KratosUiText {
  return {
    id: MESSAGE_IDS[message.id] ?? GENERIC_IDS[message.type],
    text: message.text,
    type: message.type,
    context: { reason: message.id },
  };
}

function label(textValue: string): KratosUiText {
  return { id: LABEL_IDS[textValue] ?? GENERIC_LABEL_ID, text: textValue, type: 'info' };
}

function stringValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value);
}

/** One node of a flow's form as a Kratos UiNode (input, text or a). */
export function kratosNode(entry: UiNode): KratosUiNode {
  const messages = entry.messages.map(kratosText);
  const meta = entry.label ? { label: label(entry.label) } : {};
  // What the flows show as read-only text (TOTP secret, backup codes) Kratos sends as text nodes.
  if (
    entry.name === 'totp_secret_key' ||
    entry.name === 'lookup_secret_codes' ||
    entry.name === 'lookup_secret_remaining'
  ) {
    const value = entry.value;
    const codes = Array.isArray(value) ? value.map(stringValue) : undefined;
    return {
      type: 'text',
      group: entry.group,
      attributes: {
        node_type: 'text',
        id: entry.name,
        text: {
          id: entry.name === 'totp_secret_key' ? 1050006 : 1050015,
          text: codes ? codes.join(', ') : stringValue(value),
          type: 'info',
          ...(codes
            ? { context: { secrets: codes.map((code) => ({ id: 1050009, text: code, type: 'info' })) } }
            : {}),
        },
      },
      messages,
      meta,
    };
  }
  if (entry.name === 'totp_url') {
    return {
      type: 'a',
      group: entry.group,
      attributes: {
        node_type: 'a',
        id: 'totp_url',
        href: stringValue(entry.value),
        title: label(entry.label ?? 'Authenticator app address'),
      },
      messages,
      meta,
    };
  }
  // Option JSON for WebAuthn travels as a hidden input, as Kratos's passkey_challenge does.
  const inputType = entry.type === 'script' ? 'hidden' : entry.type;
  return {
    type: 'input',
    group: entry.group,
    attributes: {
      node_type: 'input',
      name: entry.name,
      type: inputType,
      ...(entry.value !== undefined ? { value: entry.value } : {}),
      ...(entry.required !== undefined ? { required: entry.required } : {}),
      disabled: entry.disabled ?? false,
      ...(entry.autocomplete ? { autocomplete: entry.autocomplete } : {}),
    },
    messages,
    meta,
  };
}

/** Rewrites an address on the web app's door to the same address on the Kratos door. */
export function onKratosDoor(url: string): string {
  return url.replace(`${OWN_BASE}/`, `${KRATOS_BASE}/self-service/`);
}

/** A flow as Kratos sends it. `client` is `api` for flows bound to a session token, not cookies. */
export function kratosFlow(view: FlowView, client: 'browser' | 'api', config: AuthConfig): KratosFlow {
  const nodes = view.ui.nodes.map((entry) =>
    // An api flow has no cookie to bind a CSRF token to: Kratos sends the node empty.
    entry.name === 'csrf_token' && client === 'api' ? { ...entry, value: '' } : entry,
  );
  const returnTo = view.return_to ?? undefined;
  const flow: KratosFlow = {
    id: view.id,
    type: client,
    expires_at: view.expires_at,
    issued_at: view.issued_at,
    created_at: view.issued_at,
    updated_at: view.issued_at,
    request_url: view.request_url,
    ...(returnTo
      ? { return_to: returnTo.startsWith('/') ? `${config.publicUrl}${returnTo}` : returnTo }
      : {}),
    ui: {
      action: onKratosDoor(view.ui.action),
      method: view.ui.method,
      nodes: nodes.map(kratosNode),
      messages: view.ui.messages.map(kratosText),
    },
    ...(view.state !== null ? { state: view.state } : {}),
  };
  if (view.type === 'login') {
    flow.refresh = view.refresh;
    flow.requested_aal = view.requested_aal;
    flow.state = view.state ?? 'choose_method';
  }
  if (view.type === 'registration') flow.state = view.state ?? 'choose_method';
  if (view.type === 'settings') {
    flow.state = view.state ?? 'show_form';
    if (view.identity) flow.identity = kratosIdentity(view.identity as IdentityView, config);
  }
  if (view.type === 'recovery' || view.type === 'verification') flow.active = 'code';
  return flow;
}

export function kratosIdentity(identity: IdentityView, config: AuthConfig): KratosIdentity {
  const addresses = identity.verifiable_addresses;
  return {
    id: identity.id,
    schema_id: identity.schema_id,
    schema_url: `${config.publicUrl}${KRATOS_BASE}/schemas/${encodeURIComponent(identity.schema_id)}`,
    state: identity.state,
    traits: {
      email: identity.traits.email,
      name: { first: identity.traits.name.first, last: identity.traits.name.last },
    },
    verifiable_addresses: addresses.map((address) => ({
      // One address per identity: its id is the identity's, stable across calls.
      id: identity.id,
      value: address.value,
      verified: address.verified,
      via: address.via,
      status: address.status,
      ...(address.verified_at ? { verified_at: address.verified_at } : {}),
      created_at: identity.created_at,
      updated_at: identity.updated_at,
    })),
    recovery_addresses: addresses.map((address) => ({
      id: identity.id,
      value: address.value,
      via: address.via,
      created_at: identity.created_at,
      updated_at: identity.updated_at,
    })),
    metadata_public: { roles: identity.roles },
    created_at: identity.created_at,
    updated_at: identity.updated_at,
  };
}

export function kratosSession(view: SessionView, identity: IdentityView, config: AuthConfig): KratosSession {
  return {
    id: view.id,
    active: view.active,
    expires_at: view.expires_at,
    authenticated_at: view.authenticated_at,
    issued_at: view.issued_at,
    authenticator_assurance_level: view.authenticator_assurance_level,
    authentication_methods: view.authentication_methods,
    identity: kratosIdentity(identity, config),
  };
}
