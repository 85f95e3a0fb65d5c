import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { UiNode } from '../api/flows';

/** Which option node feeds which answer field, per submit method (server auth README). */
const CEREMONIES: Record<string, { options: string; answer: string; kind: 'get' | 'create' }[]> = {
  passkey: [{ options: 'passkey_options', answer: 'passkey_login', kind: 'get' }],
  webauthn: [
    { options: 'webauthn_options', answer: 'webauthn_login', kind: 'get' },
    { options: 'webauthn_register_options', answer: 'webauthn_register', kind: 'create' },
  ],
};

function parseOptions(value: unknown): unknown {
  if (typeof value === 'string') return JSON.parse(value) as unknown;
  return value;
}

/**
 * When the submitted method is a WebAuthn one, asks the browser for the credential
 * (navigator.credentials through @simplewebauthn/browser) and adds it to the body.
 */
export async function withWebAuthnCredential(
  nodes: UiNode[],
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const method = typeof body.method === 'string' ? body.method : undefined;
  const ceremonies = method ? CEREMONIES[method] : undefined;
  if (!ceremonies) return body;
  for (const ceremony of ceremonies) {
    const node = nodes.find((entry) => entry.name === ceremony.options);
    if (!node) continue;
    const optionsJSON = parseOptions(node.value);
    const credential =
      ceremony.kind === 'get'
        ? await startAuthentication({ optionsJSON: optionsJSON as PublicKeyCredentialRequestOptionsJSON })
        : await startRegistration({ optionsJSON: optionsJSON as PublicKeyCredentialCreationOptionsJSON });
    return { ...body, [ceremony.answer]: JSON.stringify(credential) };
  }
  return body;
}
